#!/usr/bin/env bash
# The lab's peers are built the way their projects build them: each peer function in the lab's
# binary must be the same machine code (instruction for instruction) as the same source compiled
# independently here with the peer project's own flags, and, when those flags give a vector
# loop (gcc does; clang 14 vectorizes neither build), the lab's must have it too.
# Timing-independent: it reads the disassembly, it does not time anything.
#
# DPDK: rte_raw_cksum is fast only when the compiler vectorizes it (pkg-config --cflags libdpdk
# and -O3, as DPDK's example applications build); at -O2 gcc 12 emits a 2-byte scalar loop.
# Usage: tests/lab_peer_test.sh BUILD_DIR
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
build=${1:?usage: lab_peer_test.sh BUILD_DIR}
csum="$build/csum"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! pkg-config --exists libdpdk 2>/dev/null; then
    echo "SKIPPED lab-peer: DPDK not installed (libdpdk-dev); the lab has no DPDK peer"
    finish lab-peer
    exit $?
fi
if grep -qiE '^CSUM_LAB_DPDK:[A-Z]*=(OFF|NO|FALSE|N|0)$' "$build/CMakeCache.txt"; then
    echo "SKIPPED lab-peer: built with CSUM_LAB_DPDK=OFF; the lab has no DPDK peer"
    finish lab-peer
    exit $?
fi
if grep -q '^CSUM_USABLE_DPDK:INTERNAL=$' "$build/CMakeCache.txt"; then
    echo "SKIPPED lab-peer: DPDK found, but this build's compiler cannot compile its headers (musl-gcc?)"
    finish lab-peer
    exit $?
fi
if ! command -v objdump >/dev/null; then
    echo "SKIPPED lab-peer: objdump not found (binutils)"
    finish lab-peer
    exit $?
fi
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
if grep -q '^CSUM_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
    echo "SKIPPED lab-peer: sanitizer build (instrumented code differs from a plain build)"
    finish lab-peer
    exit $?
fi

# Instructions (mnemonics only: addresses and relocations differ) of function $2 in file $1.
mnemonics() {
    objdump -d --no-show-raw-insn --disassemble="$2" "$1" 2>/dev/null |
        awk -v fn="<$2>:" '$2 == fn { on = 1; next } on && NF == 0 { exit } on && $2 != "" { print $2 }'
}
# Instructions touching vector registers.
vector_count() {
    objdump -d --no-show-raw-insn --disassemble="$2" "$1" 2>/dev/null | grep -cE '%[xyz]mm'
}

check_variant() { # name function extra-flags...
    local name=$1 fn=$2; shift 2
    if ! "$csum" bench --list | grep -q "^  $name "; then
        fail "lab-peer: $name is not in the lab although libdpdk is installed (bench --list)"
        return
    fi
    # shellcheck disable=SC2046
    if ! "$cc" $(pkg-config --cflags libdpdk) -O3 "$@" -w -Ibench -Iinclude -I"$build/include" \
            -I"$build/bench" -c bench/peer_dpdk.c -o "$tmp/$name.o" 2>"$tmp/$name.err"; then
        fail "lab-peer: cannot compile the reference $name"; sed 's/^/        /' "$tmp/$name.err"
        return
    fi
    mnemonics "$tmp/$name.o" "$fn" >"$tmp/$name.want"
    mnemonics "$csum" "$fn" >"$tmp/$name.got"
    if [ ! -s "$tmp/$name.got" ]; then
        fail "lab-peer: $fn not found in $csum"
        return
    fi
    local want_vec got_vec
    want_vec=$(vector_count "$tmp/$name.o" "$fn")
    got_vec=$(vector_count "$csum" "$fn")
    if [ "$want_vec" -eq 0 ]; then
        echo "NOTE    lab-peer: $(basename "$cc") does not vectorize $name even with the peer's own flags"
    elif [ "$got_vec" -gt 0 ]; then
        ok "lab-peer: $name has the vector loop of its own build ($got_vec vector instructions, reference $want_vec)"
    else
        fail "lab-peer: $name has no vector instruction; its own build has $want_vec"
    fi
    if cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
        ok "lab-peer: $name is instruction for instruction the peer's own build ($(wc -l <"$tmp/$name.got") instructions)"
    else
        fail "lab-peer: $name differs from the peer's own build (flags dropped or changed?)"
        diff "$tmp/$name.want" "$tmp/$name.got" | head -n 10 | sed 's/^/        /'
    fi
}

check_variant dpdk lab_dpdk_raw_cksum
if "$csum" bench --list | grep -q '^  dpdk-native '; then
    check_variant dpdk-native lab_dpdk_raw_cksum_native -march=native -DLAB_PEER_NATIVE
fi

# The check has teeth: the same source at -O2, without DPDK's flags, must differ from the
# lab's dpdk (with gcc 12 it is the scalar 2-byte loop the issue found).
"$cc" -I/usr/include/dpdk $(pkg-config --cflags-only-I libdpdk) -include rte_config.h -O2 -w \
    -Ibench -Iinclude -I"$build/include" -I"$build/bench" -c bench/peer_dpdk.c -o "$tmp/o2.o" 2>/dev/null
mnemonics "$tmp/o2.o" lab_dpdk_raw_cksum >"$tmp/o2.got"
if [ -s "$tmp/o2.got" ] && ! cmp -s "$tmp/o2.got" "$tmp/dpdk.got"; then
    ok "lab-peer: a handicapped build (-O2, no DPDK flags: $(vector_count "$tmp/o2.o" lab_dpdk_raw_cksum) vector instructions) would be told apart"
else
    echo "NOTE    lab-peer: at -O2 this compiler gives the same code as DPDK's flags; the comparison above still holds"
fi
finish lab-peer
