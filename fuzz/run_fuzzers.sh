#!/usr/bin/env bash
# `make fuzz`: run each libFuzzer target in BUILD/fuzz for SECONDS, starting from its committed
# seeds (fuzz/corpus/<name>/, read only) plus what earlier runs found (BUILD/fuzz/found-<name>/),
# with the dictionary fuzz/<name>.dict if there is one.
# A failure leaves the input in BUILD/fuzz/crash-<name>/ and says how to replay it.
# Usage: fuzz/run_fuzzers.sh BUILD_DIR SECONDS
set -u
build=${1:?usage: run_fuzzers.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run_fuzzers.sh BUILD_DIR SECONDS}
root=$(cd "$(dirname "$0")/.." && pwd)
status=0 ran=0
for bin in "$build"/fuzz/fuzz-*; do
    name=${bin##*/fuzz-}
    case "$name" in replay-*|found-*|crash-*) continue ;; esac
    [ -x "$bin" ] || continue
    ran=$((ran + 1))
    mkdir -p "$build/fuzz/found-$name" "$build/fuzz/crash-$name"
    dict=()
    [ -f "$root/fuzz/$name.dict" ] && dict=(-dict="$root/fuzz/$name.dict")
    printf '==== fuzz %s: %s s\n' "$name" "$seconds"
    # -timeout: one input taking seconds is a hang worth reporting; new inputs go to found-*.
    if "$bin" -max_total_time="$seconds" -timeout=20 -print_final_stats=1 "${dict[@]}" \
              -artifact_prefix="$build/fuzz/crash-$name/" \
              "$build/fuzz/found-$name" "$root/fuzz/corpus/$name" 2>"$build/fuzz/$name.log"; then
        grep -E '^(Done|stat::number_of_executed_units|cov:)|#[0-9]+.*DONE' "$build/fuzz/$name.log" |
            tail -n 3
    else
        status=1
        tail -n 40 "$build/fuzz/$name.log"
        echo "fuzz $name FAILED; replay with: $build/fuzz/fuzz-replay-$name $build/fuzz/crash-$name/"
    fi
done
if [ "$ran" -eq 0 ]; then
    echo "run_fuzzers.sh: no libFuzzer targets in $build/fuzz (configure with -DCSUM_FUZZ=ON)" >&2
    exit 2
fi
exit $status
