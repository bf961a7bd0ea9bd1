#!/usr/bin/env bash
# What a distribution's build asks of the configuration (configures, and builds what each case
# needs, in temporary trees):
#  - with dpkg-buildflags' CFLAGS (-ffile-prefix-map=<source dir>=.), the flags the lab shows,
#    compiled into csum, name neither the source nor the build directory, so csum is the same
#    file whichever directory it was built in (reproducible builds), and long ones (Fedora's)
#    fit the lab's text of them;
#  - without a build type, the -O level of CFLAGS is the one used (no -O2 appended after it);
#  - with -flto (fat objects, as Fedora and Ubuntu build), the tests of other CPUs' plans pass;
#    with clang's -flto (bitcode alone) the ISA check reads the compiled code; with GCC's -flto
#    alone (as Arch builds) or CMake's CMAKE_INTERPROCEDURAL_OPTIMIZATION, the library's
#    objects still hold machine code;
#  - with a raised x86-64 baseline (-march=x86-64-v2, RHEL 9's, and -march=x86-64-v3), the
#    library's objects pass the ISA check and the unit suite passes;
#  - with CSUM_INSTALL_STATIC=OFF no static library is installed, and the CMake package works;
#  - each optional dependency can be turned off (nothing found behind the packager's back) or
#    required (configuring fails without it), and a value that is neither is refused; one found
#    that the compiler builds with is used.
# Usage: tests/packaging_test.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=$(command -v ninja >/dev/null && echo "-G Ninja")

configure() { # configure DIR [cmake options...]: the programs without the tests
    local dir=$1; shift
    cmake -S "$root" -B "$tmp/$dir" $gen -DCSUM_BUILD_TESTS=OFF "$@" >"$tmp/$dir.log" 2>&1
}

# ---- no build path in csum ------------------------------------------------------------------
no_build_path() {
    CFLAGS="-g -O2 -ffile-prefix-map=$root=. -fdebug-prefix-map=$tmp=. -fstack-protector-strong" \
        configure distro -DCMAKE_BUILD_TYPE=None || { cat "$tmp/distro.log"; return 1; }
    if grep -nF -e "$root" -e "$tmp" "$tmp/distro/bench/lab_build.h"; then return 1; fi
    # The flags that change the code are still reported.
    grep -q 'CSUM_LAB_LIB_FLAGS "-g -O2 -fstack-protector-strong' "$tmp/distro/bench/lab_build.h"
}
check "packaging: distro CFLAGS: bench/lab_build.h (compiled into csum) names no build path" -- \
    no_build_path

# CFLAGS with their own -O and no CMAKE_BUILD_TYPE (a distribution whose macro sets none, a user
# after -O3 or -Os): the build type csum chose by itself, RelWithDebInfo, appended -O2 after
# them, and -Os became -O2. The library's sources are compiled with the -O given, and only it.
given_o_level() {
    CFLAGS="-Os -g" configure olevel -DCSUM_BUILD_PROGRAMS=OFF \
        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON || { cat "$tmp/olevel.log"; return 1; }
    local levels
    levels=$(grep '"command"' "$tmp/olevel/compile_commands.json" | grep 'src/dispatch.c' |
             grep -oE -- ' -O[^ ]*' | tr -d ' ' | tr '\n' ' ')
    [ "$levels" = "-Os " ] || { echo "src/dispatch.c compiled with: $levels(want -Os alone)"; return 1; }
}
check "packaging: CFLAGS=-Os without a build type: the library is compiled with -Os, no -O2 after" -- \
    given_o_level

# Long distribution flags (Fedora's %optflags less its -specs= files and its LTO flags, under
# which gcc checks formats only when linking; valid for gcc and clang, on x86-64 and arm64)
# fit in each library row's flags text: gcc said it truncated them, and CSUM_WERROR failed.
long_flags() {
    CFLAGS="-O2 -fexceptions -g -grecord-gcc-switches -pipe -Wall \
-Werror=format-security -Werror=implicit-function-declaration -Werror=implicit-int \
-Wp,-U_FORTIFY_SOURCE,-D_FORTIFY_SOURCE=3 -Wp,-D_GLIBCXX_ASSERTIONS \
-fstack-protector-strong -mtune=generic -fasynchronous-unwind-tables -fstack-clash-protection \
-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer" \
        configure long -DCMAKE_BUILD_TYPE=None -DCSUM_WERROR=ON -DCSUM_LAB_DPDK=OFF ||
        { cat "$tmp/long.log"; return 1; }
    # Just that object with ninja; with make, the lab library (and what it links).
    if [ -n "$gen" ]; then
        cmake --build "$tmp/long" --target CMakeFiles/csum_lab.dir/bench/subjects.c.o
    else
        cmake --build "$tmp/long" --target csum_lab --parallel 2
    fi
}
check "packaging: Fedora-length CFLAGS: bench/subjects.c builds with -Werror (no truncation)" -- \
    long_flags

# Distributions build with link-time optimisation (Fedora's and Ubuntu's -flto=auto) and run
# the tests in the package build: the tests that show the plans of other kinds of CPU must
# still reach the library's CPU identification (through the linker's --wrap they did not: LTO
# resolves that call inside the library).
lto() {
    CFLAGS="-O2 -flto=auto -ffat-lto-objects" cmake -S "$root" -B "$tmp/lto" $gen \
        -DCMAKE_BUILD_TYPE=None -DCSUM_LAB_DPDK=OFF >"$tmp/lto.log" 2>&1 ||
        { cat "$tmp/lto.log"; return 1; }
    cmake --build "$tmp/lto" --target csum-test --parallel 2 >>"$tmp/lto.log" 2>&1 ||
        { tail -n 20 "$tmp/lto.log"; return 1; }
    "$tmp/lto/csum-test" -t dispatch-defaults -t dispatch-narrow -t dispatch-sources
}
# clang's objects under -flto are bitcode alone (it has no fat objects before clang 17): the ISA
# check found no machine code and failed, or took the build for another architecture's and
# passed checking nothing. It checks the code the compiler makes of each.
slim_lto() {
    CC=clang CFLAGS="-O2 -flto" cmake -S "$root" -B "$tmp/slim" $gen -DCMAKE_BUILD_TYPE=None \
        -DCSUM_BUILD_PROGRAMS=OFF -DCSUM_BUILD_TESTS=OFF >"$tmp/slim.log" 2>&1 &&
        cmake --build "$tmp/slim" --target csum_objects --parallel 2 >>"$tmp/slim.log" 2>&1 ||
        { tail -n 20 "$tmp/slim.log"; return 1; }
    "$root/tests/isa_test.py" "$tmp/slim" >"$tmp/slim-isa.log" 2>&1 &&
        grep -q 'objects hold LTO code alone' "$tmp/slim-isa.log" ||
        { grep -v '^PASS' "$tmp/slim-isa.log"; return 1; }
}
if printf 'int main(void) { return 0; }\n' | ${CC:-cc} -flto -x c - -o "$tmp/lto-probe" 2>/dev/null; then
    check "packaging: -flto: the tests of other CPUs' plans pass" -- lto
else
    printf 'SKIPPED packaging: -flto (the compiler cannot link with it)\n'
fi
if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null && command -v clang >/dev/null &&
   printf 'int main(void) { return 0; }\n' | clang -flto -x c - -o "$tmp/clang-lto-probe" 2>/dev/null; then
    check "packaging: clang -flto (bitcode objects): the ISA check reads the compiled code" -- slim_lto
else
    printf 'SKIPPED packaging: clang -flto (needs x86-64, objdump and clang with LTO)\n'
fi

# GCC under LTO without -ffat-lto-objects (Arch's CFLAGS=-flto=auto, or CMake's
# CMAKE_INTERPROCEDURAL_OPTIMIZATION, which asks for -fno-fat-lto-objects): the objects had no
# machine code, so the installed libcsum.a could be linked only with LTO by the same GCC release,
# and Fedora's brp-strip-lto left it empty. fat_objects DIR [cmake options...]
fat_objects() {
    local dir=$1 obj=CMakeFiles/csum_objects.dir/src/version.c.o; shift
    configure "$dir" -DCSUM_BUILD_PROGRAMS=OFF "$@" || { cat "$tmp/$dir.log"; return 1; }
    # Just that object with ninja; with make, the library's objects.
    if [ -n "$gen" ]; then
        cmake --build "$tmp/$dir" --target "$obj" >>"$tmp/$dir.log" 2>&1
    else
        cmake --build "$tmp/$dir" --target csum_objects --parallel 2 >>"$tmp/$dir.log" 2>&1
    fi || { tail -n 20 "$tmp/$dir.log"; return 1; }
    objdump -d "$tmp/$dir/$obj" | grep -q '<csum_version>:' ||
        { echo "$obj holds no machine code for csum_version (slim LTO object)"; return 1; }
}
flto_fat() { CFLAGS="-O2 -flto=auto" fat_objects flto -DCMAKE_BUILD_TYPE=None; }
if ${CC:-cc} -v 2>&1 | grep -q '^gcc version' && command -v objdump >/dev/null &&
   printf 'int main(void) { return 0; }\n' | ${CC:-cc} -flto -x c - -o "$tmp/ipo-probe" 2>/dev/null; then
    check "packaging: CFLAGS=-flto=auto (GCC): libcsum's objects carry machine code" -- flto_fat
    check "packaging: CMAKE_INTERPROCEDURAL_OPTIMIZATION=ON (GCC): libcsum's objects carry machine code" -- \
        fat_objects ipo -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON
else
    printf "SKIPPED packaging: GCC's fat LTO objects (not GCC, no objdump or no -flto)\n"
fi

# ---- a raised x86-64 baseline ----------------------------------------------------------------
# RHEL 9 builds everything with -march=x86-64-v2, some distributions with -march=x86-64-v3:
# then the compiler may use SSE4.2, or AVX2 and BMI2, in every file. The ISA check takes that
# baseline from the build's flags (it failed on the first SSE4.1 instruction of an ungated file),
# and the unit suite passes (quick, where this CPU runs x86-64-v3 code).
raised_baseline() { # raised_baseline LEVEL TARGET: configure, build TARGET, run the ISA check
    local level=$1 target=$2
    CFLAGS="-O2 -g -march=x86-64-$level" cmake -S "$root" -B "$tmp/$level" $gen \
        -DCMAKE_BUILD_TYPE=None -DCSUM_WERROR=ON -DCSUM_LAB_DPDK=OFF >"$tmp/$level.log" 2>&1 &&
        cmake --build "$tmp/$level" --target "$target" --parallel 2 >>"$tmp/$level.log" 2>&1 ||
        { tail -n 20 "$tmp/$level.log"; return 1; }
    "$root/tests/isa_test.py" "$tmp/$level" >"$tmp/$level-isa.log" 2>&1 ||
        { grep -v '^PASS' "$tmp/$level-isa.log"; return 1; }
    grep -q "^isa: the build's baseline .*sse4.2" "$tmp/$level-isa.log" ||
        { echo "the ISA check did not take the raised baseline:"; head -n 1 "$tmp/$level-isa.log"; return 1; }
}
v3_cpu() { # this CPU runs x86-64-v3 code (the flags of /proc/cpuinfo)
    local f flags
    flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null) "
    for f in avx avx2 bmi1 bmi2 fma movbe f16c abm; do
        case $flags in *" $f "*) ;; *) return 1 ;; esac
    done
}
v3_suite() {
    raised_baseline v3 csum-test || return 1
    if v3_cpu; then
        "$tmp/v3/csum-test" --quick >"$tmp/v3-unit.log" 2>&1 || { grep -v '^PASS' "$tmp/v3-unit.log"; return 1; }
    else
        echo "this CPU cannot run x86-64-v3 code: unit suite not run"
    fi
}
if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null &&
   printf 'int main(void) { return 0; }\n' | ${CC:-cc} -march=x86-64-v3 -x c - -o "$tmp/march-probe" 2>/dev/null; then
    check "packaging: -march=x86-64-v2 (RHEL 9): the library's objects pass the ISA check" -- \
        raised_baseline v2 csum_objects
    check "packaging: -march=x86-64-v3: the ISA check passes, and the quick unit suite$(v3_cpu || echo ' (not run: no x86-64-v3 CPU)')" -- \
        v3_suite
else
    printf 'SKIPPED packaging: -march=x86-64-v2/v3 (not x86-64, no objdump, or the compiler lacks them)\n'
fi

# ---- the static library left out --------------------------------------------------------------
# -DCSUM_INSTALL_STATIC=OFF (Fedora ships no static library unless asked): make install
# installs neither libcsum.a nor csum::csum_static's CMake files, and find_package(csum) works.
no_static() {
    configure nostatic -DCSUM_BUILD_PROGRAMS=OFF -DCSUM_INSTALL=ON -DCSUM_INSTALL_STATIC=OFF ||
        { cat "$tmp/nostatic.log"; return 1; }
    cmake --build "$tmp/nostatic" --parallel 2 >>"$tmp/nostatic.log" 2>&1 &&
        cmake --install "$tmp/nostatic" --prefix "$tmp/nostatic-prefix" >>"$tmp/nostatic.log" 2>&1 ||
        { tail -n 20 "$tmp/nostatic.log"; return 1; }
    if find "$tmp/nostatic-prefix" -name 'libcsum.a' -o -name 'csumStaticTargets*' | grep .; then
        return 1
    fi
    find "$tmp/nostatic-prefix" -name 'libcsum.so.1' | grep -q . &&
        cmake -S "$root/tests/consumer" -B "$tmp/nostatic-consumer" -DCSUM_CONSUMER_STATIC=OFF \
              -DCMAKE_PREFIX_PATH="$tmp/nostatic-prefix" >>"$tmp/nostatic.log" 2>&1 &&
        cmake --build "$tmp/nostatic-consumer" >>"$tmp/nostatic.log" 2>&1 &&
        "$tmp/nostatic-consumer/consumer_shared" || { tail -n 20 "$tmp/nostatic.log"; return 1; }
}
check "packaging: CSUM_INSTALL_STATIC=OFF: no libcsum.a installed, find_package(csum) still works" -- \
    no_static

# ---- optional dependencies ------------------------------------------------------------------
without() {
    configure without -DCSUM_WITH_ZLIB=OFF -DCSUM_WITH_ZSTD=off -DCSUM_LAB_DPDK=0 ||
        { cat "$tmp/without.log"; return 1; }
    grep -F 'csum pcap: gzip no (CSUM_WITH_ZLIB=OFF); zstd no (CSUM_WITH_ZSTD=OFF)' "$tmp/without.log" &&
        grep -F 'lab peer: DPDK not looked for (CSUM_LAB_DPDK=OFF)' "$tmp/without.log" &&
        ! grep -qE 'HAVE_(ZLIB|ZSTD|DPDK)' -r "$tmp/without" --include='*.ninja' --include='flags.make'
}
check "packaging: CSUM_WITH_ZLIB, CSUM_WITH_ZSTD, CSUM_LAB_DPDK OFF: none is used" -- without
# Found and usable (this machine's zlib and libzstd): AUTO builds with them. The usability check
# added for musl-gcc must not leave out a library it could build with (each capture format
# would then be refused with a message, every build quietly without them).
with_found() {
    configure with || { cat "$tmp/with.log"; return 1; }
    grep -F 'csum pcap: gzip yes; zstd yes' "$tmp/with.log" &&
        grep -qE 'HAVE_ZLIB' -r "$tmp/with" --include='*.ninja' --include='flags.make' &&
        grep -qE 'HAVE_ZSTD' -r "$tmp/with" --include='*.ninja' --include='flags.make'
}
if pkg-config --exists zlib libzstd 2>/dev/null; then
    check "packaging: a zlib and a libzstd this compiler builds with: used (AUTO)" -- with_found
else
    printf 'SKIPPED packaging: zlib and libzstd used when found (pkg-config finds neither or one)\n'
fi
# Required but absent: a pkg-config that finds nothing stands for a missing libzstd-dev.
required_absent() {
    ! PKG_CONFIG_LIBDIR="$tmp/nothing" configure required -DCSUM_WITH_ZSTD=ON &&
        grep -F 'CSUM_WITH_ZSTD=ON: pkg-config found no libzstd' "$tmp/required.log"
}
check "packaging: CSUM_WITH_ZSTD=ON without libzstd: configuring fails, saying why" -- required_absent
# Found but unusable: a libzstd.pc naming a header and a library that are not there stands for
# the host's glibc libzstd seen by musl-gcc. AUTO builds without it, saying so; ON stops.
unusable() {
    mkdir -p "$tmp/fakepc/include" &&
        printf '%s\n' 'Name: libzstd' 'Description: not usable by this compiler' 'Version: 1.5.4' \
               "Cflags: -I$tmp/fakepc/include" "Libs: -L$tmp/fakepc/lib -lzstd-not-there" \
               >"$tmp/fakepc/libzstd.pc"
    PKG_CONFIG_LIBDIR="$tmp/fakepc" configure unusable -DCSUM_WITH_ZLIB=OFF -DCSUM_LAB_DPDK=OFF ||
        { cat "$tmp/unusable.log"; return 1; }
    grep -F 'zstd no (found, but this compiler cannot build with it;' "$tmp/unusable.log" &&
        ! grep -qE 'HAVE_ZSTD' -r "$tmp/unusable" --include='*.ninja' --include='flags.make' &&
        ! PKG_CONFIG_LIBDIR="$tmp/fakepc" configure unusable-on -DCSUM_WITH_ZSTD=ON &&
        grep -F 'CSUM_WITH_ZSTD=ON: libzstd was found, but' "$tmp/unusable-on.log"
}
check "packaging: a libzstd this compiler cannot build with: left out (AUTO), refused (ON), saying why" -- \
    unusable
refused() {
    ! configure bad -DCSUM_WITH_ZLIB=maybe && grep -F 'want AUTO, ON or OFF' "$tmp/bad.log"
}
check "packaging: CSUM_WITH_ZLIB=maybe is refused" -- refused
finish packaging_test
