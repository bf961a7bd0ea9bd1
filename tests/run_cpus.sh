#!/usr/bin/env bash
# The x86-64 suite on CPUs that lack something, under qemu-x86_64 -cpu MODEL (Debian's
# qemu-user): each model misses an extension one of our rows could use by mistake. A row that
# runs an instruction its gate does not check dies here with SIGILL; a tail that reads past the
# buffer faults in the guard-page tests (QEMU faults even on masked-out vpmaskmovd lanes).
#
# Per model: csum-test --quick (children started under the same emulator), csum verify, the
# CLI tests and the fuzz corpus, all through the emulator.
# Usage: tests/run_cpus.sh BUILD_DIR [MODEL...]
set -u
build=${1:?usage: run_cpus.sh BUILD_DIR [MODEL...]}; shift
build=$(cd "$build" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
command -v qemu-x86_64 >/dev/null ||
    { echo "run_cpus.sh: qemu-x86_64 not found (apt-get install qemu-user)" >&2; exit 2; }
[ "$(uname -m)" = x86_64 ] || { echo "run_cpus.sh: needs an x86-64 build" >&2; exit 2; }
models=("$@")
[ ${#models[@]} -gt 0 ] ||
    models=(qemu64 Haswell-v4 max,-bmi2 max,-adx max,-bmi2,-adx)
# The lab re-executes itself to turn ASLR off; under qemu-user that would start the host's
# binary, so skip it (timings under emulation mean nothing anyway).
export CSUM_BENCH_NO_REEXEC=1
status=0
for model in "${models[@]}"; do
    echo "== qemu-x86_64 -cpu $model"
    export CSUM_TEST_EMULATOR="qemu-x86_64 -cpu $model"
    wrap=$(mktemp -d)
    # The tools as commands that start under the emulator; QEMU's warnings about features TCG
    # lacks are dropped (they are not ours). The filter is a pipeline the wrapper waits for,
    # not a process substitution that may still be writing when the caller reads the message
    # (a test checking one failed now and then on a loaded machine), nor a file (the CLI test
    # runs the tool under a file size limit of 0). A closed standard output stays closed for
    # the tool (the CLI test checks what it says then): fd 3 cannot copy it.
    for tool in csum csum-pcapgen; do
        cat >"$wrap/$tool" <<EOF
#!/usr/bin/env bash
if (exec 3>&1) 2>/dev/null; then
    { qemu-x86_64 -cpu $model "$build/$tool" "\$@" 2>&1 1>&3 3>&- | grep -v "^qemu-x86_64: warning:" >&2
      status=\${PIPESTATUS[0]}; } 3>&1
else
    exec 1>/dev/null # a placeholder, so that the pipe does not take descriptor 1
    qemu-x86_64 -cpu $model "$build/$tool" "\$@" 2>&1 1>&- | grep -v "^qemu-x86_64: warning:" >&2
    status=\${PIPESTATUS[0]}
fi
exit \$status
EOF
        chmod +x "$wrap/$tool"
    done
    qemu-x86_64 -cpu "$model" "$build/csum-test" --quick --no-huge 2>&1 |
        grep -v "^qemu-x86_64: warning:" | grep -v "full suite only" |
        grep -E "^(FAIL|CRASH|SKIPPED|[0-9]+ (passed|skipped))|signal"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "FAIL    csum-test under -cpu $model"; status=1; }
    if out=$("$wrap/csum" verify --quick 2>&1); then
        echo "PASS    csum verify under -cpu $model: $(tail -n 1 <<<"$out")"
    else
        echo "FAIL    csum verify under -cpu $model:"; sed 's/^/        /' <<<"$out"; status=1
    fi
    # The lab's DPDK peer is compiled with -march=corei7 (SSE4.1, SSE4.2, POPCNT): on qemu64,
    # which has none of them, the lab must refuse it by name rather than call it.
    if [ "$model" = qemu64 ] && "$build/csum" bench --list 2>/dev/null | grep -q '^  dpdk '; then
        # (a row's description wraps under itself: its lines joined)
        if "$wrap/csum" bench --list 2>/dev/null | awk '/^  [^ ]/ { print "" } { printf "%s ", $0 }' |
           grep -q '^  dpdk  *REFUSED: compiled for .*sse4\.1'; then
            echo "PASS    lab refuses the DPDK peer under -cpu $model (no SSE4.1)"
        else
            echo "FAIL    lab does not refuse the DPDK peer under -cpu $model"; status=1
        fi
    fi
    "$root/tests/cli_test.sh" "$wrap/csum" | tail -n 1 | sed "s/^/        -cpu $model: /"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "FAIL    cli tests under -cpu $model"; status=1; }
    "$root/fuzz/replay_corpus.sh" "$build" 2>&1 | grep -v "^qemu-x86_64: warning:" | tail -n 1 |
        sed "s/^/        -cpu $model: /"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "FAIL    fuzz corpus under -cpu $model"; status=1; }
    rm -rf "$wrap"
done
[ $status -eq 0 ] && echo "test-cpus: every model passed (${models[*]})"
exit $status
