#!/usr/bin/env bash
# Building against the source tree, without installing: the two ways users embed a C library.
#  - `cc -Iinclude app.c build/libcsum.a`: the headers need nothing generated;
#  - a CMake project that add_subdirectory()s csum (or FetchContent): it gets csum::csum and
#    csum::csum_static, and none of csum's programs or tests.
# Usage: tests/subproject_test.sh   (configures and builds in a temporary directory)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset CSUM_IMPL CSUM_DISPATCH CSUM_CPU_DISABLE
export CSUM_DISPATCH_FILE=
gen=$(command -v ninja >/dev/null && echo "-G Ninja")

check "subproject: add_subdirectory(csum) configures the library alone" -- \
    cmake -S "$root/tests/subproject" -B "$tmp/sub" $gen -DCSUM_SOURCE_DIR="$root" \
          -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
check "subproject: csum::csum and csum::csum_static consumers build" -- \
    cmake --build "$tmp/sub" --parallel 2
check "subproject: both consumers run" -- \
    sh -c "'$tmp/sub/consumer_shared' && '$tmp/sub/consumer_static'"
# No build type and no -O asked for: csum's sources are optimised (CMake alone would not), the
# project's own code is left as the project configured it.
commands="$tmp/sub/compile_commands.json"
check "subproject: without a build type, libcsum's sources are compiled with -O2" -- \
    sh -c "grep '\"command\"' '$commands' | grep 'src/dispatch.c' | grep -q -- ' -O2 '"
check "subproject: ... and the project's own consumer.c without it" -- \
    sh -c "grep '\"command\"' '$commands' | grep 'consumer.c' | grep -vq -- ' -O2 '"
check "in-tree: cc -I include consumer.c libcsum.a builds and runs" -- \
    sh -c "cc -std=c11 -I '$root/include' '$root/tests/consumer/consumer.c' \
              '$tmp/sub/csum/libcsum.a' -o '$tmp/in-tree' && '$tmp/in-tree'"
finish subproject_test
