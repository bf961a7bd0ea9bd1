#!/usr/bin/env bash
# Cross-build for ARCH (aarch64 or s390x) and run csum-test, the cli suite, the quick pcap suite
# and the fuzz corpus under qemu-user (the lab, Python and packaging suites stay native); then
# csum-test --quick once more, built with UndefinedBehaviorSanitizer into BUILD-ubsan (make
# test-asan sanitizes the x86-64 build only).
# Usage: tests/run_emulated.sh ARCH [csum-test options...]
# Needs Debian's gcc-ARCH-linux-gnu and qemu-user (.ci/run installs them).
set -eu
arch=${1:?usage: run_emulated.sh aarch64|s390x [csum-test options]}; shift
case "$arch" in
    aarch64) build=build-arm64 ;;
    s390x)   build=build-s390x ;;
    *) echo "run_emulated.sh: unknown architecture '$arch'" >&2; exit 2 ;;
esac
for tool in "$arch-linux-gnu-gcc" "qemu-$arch"; do
    command -v "$tool" >/dev/null || { echo "run_emulated.sh: $tool not found (apt-get install gcc-$arch-linux-gnu qemu-user)" >&2; exit 2; }
done
make --no-print-directory BUILD="$build" CMAKE_ARGS="-DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-$arch.cmake -DCSUM_WERROR=ON" build

export QEMU_LD_PREFIX="/usr/$arch-linux-gnu"
# Children that the tests spawn are foreign binaries too: tell the runner how to start them.
export CSUM_TEST_EMULATOR="qemu-$arch"
# The lab re-executes itself to turn ASLR off; under qemu-user that exec would start the host's
# qemu binary, so skip it (timings under emulation mean nothing anyway).
export CSUM_BENCH_NO_REEXEC=1
echo "== $arch: csum-test under qemu-$arch"
"qemu-$arch" "$build/csum-test" "$@"

# The shell tests call "$CSUM ..."; give them wrappers that start the emulator.
for tool in csum csum-pcapgen; do
    printf '#!/bin/sh\nexec qemu-%s "%s/%s/%s" "$@"\n' "$arch" "$(pwd)" "$build" "$tool" >"$build/$tool-under-qemu"
    chmod +x "$build/$tool-under-qemu"
done
echo "== $arch: CLI tests under qemu-$arch"
tests/cli_test.sh "$build/csum-under-qemu"
echo "== $arch: pcap tests under qemu-$arch (captures written and read by the emulated tools)"
tests/pcap_test.sh "$build/csum-under-qemu" "$build/csum-pcapgen-under-qemu" --quick
echo "== $arch: fuzz corpus replay under qemu-$arch"
fuzz/replay_corpus.sh "$build"

# Undefined behaviour that this architecture's compiler may exploit, such as a vector load
# through a pointer type the address is not aligned for (neon at odd addresses).
echo "== $arch: csum-test --quick with UndefinedBehaviorSanitizer under qemu-$arch"
ubsan="$build-ubsan"
generator=(); command -v ninja >/dev/null && generator=(-G Ninja)
test -f "$ubsan/CMakeCache.txt" ||
    cmake -S . -B "$ubsan" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_TOOLCHAIN_FILE="cmake/toolchain-$arch.cmake" -DCSUM_WERROR=ON \
        -DCMAKE_C_FLAGS="-fsanitize=undefined -fno-sanitize-recover=undefined" \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=undefined" >/dev/null
cmake --build "$ubsan" --parallel --target csum-test >/dev/null
UBSAN_OPTIONS=print_stacktrace=1 "qemu-$arch" "$ubsan/csum-test" --quick
