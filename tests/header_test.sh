#!/usr/bin/env bash
# csum.h as users compile it. tests/consumer/consumer.c, which calls every function of the API,
# must compile with -pedantic and many warnings as errors (in C++ -Wold-style-cast too) as C99,
# C11 and C++11/17/20/23, with each of gcc, clang, g++ and clang++ that is installed, with the
# inline fast paths and without (CSUM_NO_INLINE), and in C++ with them as macros too
# (CSUM_INLINE_MACROS); link (C: libcsum.a, C++: libcsum.so); and pass its checks.
# tests/consumer/member_names.cpp, C++ with members and namespace functions named like csum.h's
# functions, must build and pass too, and so must tests/consumer/shadow_names.c, C and C++ with
# globals (or functions) named like the parameters of inline code, declared before the header
# (-Wshadow, and clang's -Wshadow-all, which every clang build here adds). The CSUM_NO_INLINE build must also call every function
# libcsum.so exports: a function added to the API fails here until the consumer calls it.
# Usage: tests/header_test.sh BUILD_DIR
set -u
build=${1:?usage: header_test.sh BUILD_DIR}
build=$(cd "$build" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset CSUM_IMPL CSUM_DISPATCH CSUM_CPU_DISABLE
export CSUM_DISPATCH_FILE=

consumer=$root/tests/consumer/consumer.c
warnings=(-Werror -Wall -Wextra -pedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual
          -Wundef -Wredundant-decls -Wmissing-declarations -Wpointer-arith -Wwrite-strings)
c_warnings=(-Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition -Wnested-externs)
# C++ projects often forbid C casts: the header's inline code and macros must not bring any.
cxx_warnings=(-Wold-style-cast)
# clang's every kind of shadowing (fields, uncaptured locals too); gcc has no such option.
clang_warnings=(-Wshadow-all)

# build_and_run SOURCE LANGUAGE COMPILER STD LIBRARY EXE [-DCSUM_NO_INLINE|-DCSUM_INLINE_MACROS|...]
build_and_run() {
    local source=$1 lang=$2 cc=$3 std=$4 lib=$5 exe=$6 extra=()
    [ "$lang" = c ] && extra=("${c_warnings[@]}")
    [ "$lang" = c++ ] && extra=("${cxx_warnings[@]}")
    case $(basename "$cc") in clang*) extra+=("${clang_warnings[@]}") ;; esac
    "$cc" -x "$lang" -std="$std" -O2 "${warnings[@]}" "${extra[@]}" ${7:-} \
        -I"$root/include" -I"$build/include" "$source" -x none "$lib" -Wl,-rpath,"$build" -o "$exe" &&
        "$exe"
}

try() { # try SOURCE LANGUAGE COMPILER STD LIBRARY [-DCSUM_NO_INLINE|-DCSUM_INLINE_MACROS|...]
    local suffix=
    case ${6:-} in
        -DCSUM_NO_INLINE) suffix=-noinline ;;
        -DCSUM_INLINE_MACROS) suffix=-macros ;;
        -DSHADOW_FUNCTIONS) suffix=-functions ;;
    esac
    local exe="$tmp/$(basename "${1%.*}")-$3-$4$suffix"
    check "header: $(basename "$1"), $3 -std=$4 ${6:-(default)}, $(basename "$5")" -- \
        build_and_run "$1" "$2" "$3" "$4" "$5" "$exe" "${6:-}"
}

compilers=0
for cc in gcc clang; do
    command -v "$cc" >/dev/null || continue
    compilers=$((compilers + 1))
    for std in c99 c11; do
        try "$consumer" c "$cc" "$std" "$build/libcsum.a"
        try "$consumer" c "$cc" "$std" "$build/libcsum.a" -DCSUM_NO_INLINE
        # globals and functions named like inline code's parameters, declared before csum.h
        try "$root/tests/consumer/shadow_names.c" c "$cc" "$std" "$build/libcsum.a"
        try "$root/tests/consumer/shadow_names.c" c "$cc" "$std" "$build/libcsum.a" -DSHADOW_FUNCTIONS
    done
done
# The C++ standards to compile as: C++11 and C++17, and the newer ones the compiler takes
# (`requires` is a keyword from C++20 on; older compilers spell C++23 c++2b).
cxx_standards() {
    local choices std
    printf 'c++11 c++17'
    for choices in c++20 "c++23 c++2b"; do
        for std in $choices; do
            if "$1" -std="$std" -x c++ -fsyntax-only /dev/null 2>/dev/null; then
                printf ' %s' "$std"
                continue 2
            fi
        done
        printf 'SKIPPED header: %s takes none of -std=%s\n' "$1" "${choices// /, -std=}" >&2
    done
}
for cxx in g++ clang++; do
    command -v "$cxx" >/dev/null || continue
    compilers=$((compilers + 1))
    for std in $(cxx_standards "$cxx"); do
        try "$consumer" c++ "$cxx" "$std" "$build/libcsum.so"
        try "$consumer" c++ "$cxx" "$std" "$build/libcsum.so" -DCSUM_NO_INLINE
        try "$consumer" c++ "$cxx" "$std" "$build/libcsum.so" -DCSUM_INLINE_MACROS
        # C++ code with members and namespace functions named like csum.h's functions
        try "$root/tests/consumer/member_names.cpp" c++ "$cxx" "$std" "$build/libcsum.so"
        try "$root/tests/consumer/member_names.cpp" c++ "$cxx" "$std" "$build/libcsum.so" -DCSUM_NO_INLINE
        try "$root/tests/consumer/shadow_names.c" c++ "$cxx" "$std" "$build/libcsum.so"
        try "$root/tests/consumer/shadow_names.c" c++ "$cxx" "$std" "$build/libcsum.so" -DCSUM_INLINE_MACROS
        try "$root/tests/consumer/shadow_names.c" c++ "$cxx" "$std" "$build/libcsum.so" -DSHADOW_FUNCTIONS
    done
done
[ "$compilers" -ge 2 ] || fail "header: fewer than two of gcc, clang, g++, clang++ found"

# Every exported function is called by the consumer (built without the inline macros).
exported=$(dynamic_defined "$build/libcsum.so")
probe=$(ls "$tmp"/consumer-*-c++11-noinline 2>/dev/null | head -n 1)
if [ -z "$probe" ]; then
    fail "header: no C++ CSUM_NO_INLINE consumer was built"
else
    called=$(nm -D --undefined-only "$probe" | awk '$2 ~ /^csum_/ { sub(/@.*/, "", $2); print $2 }' | sort)
    missing=$(comm -23 <(printf '%s\n' "$exported") <(printf '%s\n' "$called"))
    if [ -z "$missing" ]; then
        ok "header: the consumer calls all $(printf '%s\n' "$exported" | wc -l) exported functions"
    else
        fail "header: tests/consumer/consumer.c does not call: $(echo $missing)"
    fi
fi
finish header_test
