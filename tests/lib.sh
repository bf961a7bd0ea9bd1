# Shared by the shell test scripts: PASS/FAIL lines in csum-test's format, and a summary.
# Source it, call ok/fail, end with `finish NAME`.
passed=0 failed=0

ok()   { passed=$((passed + 1)); printf 'PASS    %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL    %s\n' "$1"; }
# check DESCRIPTION -- command...: PASS if the command succeeds; on failure show its output.
check() {
    local what=$1 out; shift 2
    if out=$("$@" 2>&1); then ok "$what"; else fail "$what"; printf '%s\n' "$out" | head -n 20 | sed 's/^/        /'; fi
}
finish() {
    printf '%s: %d passed, %d failed\n' "$1" "$passed" "$failed"
    [ "$failed" -eq 0 ]
}
# The version set in include/csum_version.h, as "MAJOR.MINOR.PATCH".
csum_source_version() {
    sed -n 's/^#define CSUM_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
        "$(dirname "${BASH_SOURCE[0]}")/../include/csum_version.h" | paste -sd.
}
