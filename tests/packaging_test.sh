#!/usr/bin/env bash
# What a distribution's build asks of the configuration (configures only, in temporary trees):
#  - with dpkg-buildflags' CFLAGS (-ffile-prefix-map=<source dir>=.), the flags the lab shows,
#    compiled into csum, name neither the source nor the build directory, so csum is the same
#    file whichever directory it was built in (reproducible builds).
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

finish packaging_test
