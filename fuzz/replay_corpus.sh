#!/usr/bin/env bash
# Replay the committed seed corpus through every fuzz target (part of `make test`): each
# fuzz/corpus/<name>/ goes through BUILD/fuzz/fuzz-replay-<name>, and each target must have a
# corpus. CSUM_TEST_EMULATOR (e.g. qemu-aarch64), if set, starts the binaries.
# Usage: fuzz/replay_corpus.sh BUILD_DIR
set -u
build=${1:?usage: replay_corpus.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"

for corpus in "$root"/fuzz/corpus/*/; do
    name=$(basename "$corpus")
    bin=$build/fuzz/fuzz-replay-$name
    if [ ! -x "$bin" ]; then
        fail "fuzz replay: $name: no $bin (csum_fuzz_target($name) in fuzz/CMakeLists.txt?)"
    elif out=$(${CSUM_TEST_EMULATOR:-} "$bin" "$corpus" 2>&1); then
        ok "fuzz replay: $name: ${out##*: }"
    else
        fail "fuzz replay: $name"
        printf '%s\n' "$out" | tail -n 20 | sed 's/^/        /'
    fi
done
for bin in "$build"/fuzz/fuzz-replay-*; do
    [ -e "$bin" ] || { fail "fuzz replay: no fuzz-replay-* binaries in $build/fuzz"; break; }
    name=${bin##*/fuzz-replay-}
    [ -d "$root/fuzz/corpus/$name" ] || fail "fuzz replay: $name has no seed corpus fuzz/corpus/$name/"
done
finish fuzz_replay
