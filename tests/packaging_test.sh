#!/usr/bin/env bash
# What a distribution's build asks of the configuration (configures, and compiles one object,
# in temporary trees):
#  - with dpkg-buildflags' CFLAGS (-ffile-prefix-map=<source dir>=.), the flags the lab shows,
#    compiled into csum, name neither the source nor the build directory, so csum is the same
#    file whichever directory it was built in (reproducible builds), and long ones (Fedora's)
#    fit the lab's text of them;
#  - each optional dependency can be turned off (nothing found behind the packager's back) or
#    required (configuring fails without it), and a value that is neither is refused.
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
if printf 'int main(void) { return 0; }\n' | ${CC:-cc} -flto -x c - -o "$tmp/lto-probe" 2>/dev/null; then
    check "packaging: -flto: the tests of other CPUs' plans pass" -- lto
else
    printf 'SKIPPED packaging: -flto (the compiler cannot link with it)\n'
fi

# ---- optional dependencies ------------------------------------------------------------------
without() {
    configure without -DCSUM_WITH_ZLIB=OFF -DCSUM_WITH_ZSTD=off -DCSUM_LAB_DPDK=0 ||
        { cat "$tmp/without.log"; return 1; }
    grep -F 'csum pcap: gzip no (CSUM_WITH_ZLIB=OFF); zstd no (CSUM_WITH_ZSTD=OFF)' "$tmp/without.log" &&
        grep -F 'lab peer: DPDK not looked for (CSUM_LAB_DPDK=OFF)' "$tmp/without.log" &&
        ! grep -qE 'HAVE_(ZLIB|ZSTD|DPDK)' -r "$tmp/without" --include='*.ninja' --include='flags.make'
}
check "packaging: CSUM_WITH_ZLIB, CSUM_WITH_ZSTD, CSUM_LAB_DPDK OFF: none is used" -- without
# Required but absent: a pkg-config that finds nothing stands for a missing libzstd-dev.
required_absent() {
    ! PKG_CONFIG_LIBDIR="$tmp/nothing" configure required -DCSUM_WITH_ZSTD=ON &&
        grep -F 'CSUM_WITH_ZSTD=ON: pkg-config found no libzstd' "$tmp/required.log"
}
check "packaging: CSUM_WITH_ZSTD=ON without libzstd: configuring fails, saying why" -- required_absent
refused() {
    ! configure bad -DCSUM_WITH_ZLIB=maybe && grep -F 'want AUTO, ON or OFF' "$tmp/bad.log"
}
check "packaging: CSUM_WITH_ZLIB=maybe is refused" -- refused
finish packaging_test
