#!/usr/bin/env bash
# csum.h as users compile it. tests/consumer/consumer.c, which calls every function of the API,
# must compile with -pedantic and many warnings as errors as C99, C11 and C++11/17/20/23, with each
# of gcc, clang, g++ and clang++ that is installed, with the inline fast paths and without
# (CSUM_NO_INLINE); link (C: libcsum.a, C++: libcsum.so); and pass its checks. The
# CSUM_NO_INLINE build must also call every function libcsum.so exports: a function added to
# the API fails here until the consumer calls it.
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

src=$root/tests/consumer/consumer.c
warnings=(-Werror -Wall -Wextra -pedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual
          -Wundef -Wredundant-decls -Wmissing-declarations -Wpointer-arith -Wwrite-strings)
c_warnings=(-Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition -Wnested-externs)

# build_and_run LANGUAGE COMPILER STD LIBRARY EXE [-DCSUM_NO_INLINE]
build_and_run() {
    local lang=$1 cc=$2 std=$3 lib=$4 exe=$5 extra=()
    [ "$lang" = c ] && extra=("${c_warnings[@]}")
    "$cc" -x "$lang" -std="$std" -O2 "${warnings[@]}" "${extra[@]}" ${6:-} \
        -I"$root/include" -I"$build/include" "$src" -x none "$lib" -Wl,-rpath,"$build" -o "$exe" &&
        "$exe"
}

try() { # try LANGUAGE COMPILER STD LIBRARY [-DCSUM_NO_INLINE]
    local exe="$tmp/consumer-$2-$3${5:+-noinline}"
    check "header: $2 -std=$3 ${5:-(inline)}, $(basename "$4")" -- build_and_run "$1" "$2" "$3" "$4" "$exe" "${5:-}"
}

compilers=0
for cc in gcc clang; do
    command -v "$cc" >/dev/null || continue
    compilers=$((compilers + 1))
    for std in c99 c11; do
        try c "$cc" "$std" "$build/libcsum.a"
        try c "$cc" "$std" "$build/libcsum.a" -DCSUM_NO_INLINE
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
        try c++ "$cxx" "$std" "$build/libcsum.so"
        try c++ "$cxx" "$std" "$build/libcsum.so" -DCSUM_NO_INLINE
    done
done
[ "$compilers" -ge 2 ] || fail "header: fewer than two of gcc, clang, g++, clang++ found"

# Every exported function is called by the consumer (built without the inline macros).
exported=$(nm -D --defined-only "$build/libcsum.so" | awk '{ print $3 }' | sort)
probe=$(ls "$tmp"/consumer-*-c++11-noinline 2>/dev/null | head -n 1)
if [ -z "$probe" ]; then
    fail "header: no C++ CSUM_NO_INLINE consumer was built"
else
    called=$(nm -D --undefined-only "$probe" | awk '$2 ~ /^csum_/ { print $2 }' | sort)
    missing=$(comm -23 <(printf '%s\n' "$exported") <(printf '%s\n' "$called"))
    if [ -z "$missing" ]; then
        ok "header: the consumer calls all $(printf '%s\n' "$exported" | wc -l) exported functions"
    else
        fail "header: tests/consumer/consumer.c does not call: $(echo $missing)"
    fi
fi
finish header_test
