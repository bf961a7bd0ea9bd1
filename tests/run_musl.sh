#!/usr/bin/env bash
# Build with musl-gcc (Debian's musl-tools: the musl C library, as on Alpine) into build-musl/
# and run csum-test, the cli suite, the quick pcap suite and the fuzz corpus natively: what a
# glibc build cannot show, such as a strerror() text, stdio's buffering or a glibc-only
# function. musl-tools brings no zlib, libzstd, DPDK nor kernel headers: CMake leaves
# compressed captures, the lab's DPDK peer and its hardware counters out, saying so. The lab,
# Python and packaging suites stay with the glibc builds.
# Usage: tests/run_musl.sh [csum-test options...]
set -eu
command -v musl-gcc >/dev/null || { echo "run_musl.sh: musl-gcc not found (apt-get install musl-tools)" >&2; exit 2; }
build=build-musl
# A build-musl/ configured earlier with another compiler would pass for this one.
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
case $cc in
    ""|*musl-gcc) ;;
    *) echo "run_musl.sh: $build/ is configured with $cc, not musl-gcc (rm -rf $build)" >&2; exit 2 ;;
esac
make --no-print-directory BUILD="$build" CMAKE_ARGS="-DCMAKE_C_COMPILER=musl-gcc -DCSUM_WERROR=ON" build

echo "== musl: csum-test"
"$build/csum-test" "$@"
echo "== musl: CLI tests"
tests/cli_test.sh "$build/csum"
echo "== musl: pcap tests (quick)"
tests/pcap_test.sh "$build/csum" "$build/csum-pcapgen" --quick
echo "== musl: fuzz corpus replay"
fuzz/replay_corpus.sh "$build"
