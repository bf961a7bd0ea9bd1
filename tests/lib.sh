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
# The functions a shared object defines in its dynamic symbol table, one a line, sorted: without
# the version nm appends since binutils 2.35 (csum_add@@CSUM_1.0) and without the absolute
# symbols that name the version nodes themselves (A CSUM_1.0, src/libcsum.map).
dynamic_defined() {
    nm -D --defined-only "$1" |
        awk '!($2 == "A" && $3 ~ /^CSUM_[0-9]+\.[0-9]+$/) { sub(/@.*/, "", $3); print $3 }' | sort
}
# The CSUM_API functions the public headers declare, one a line, sorted. Declarations may span
# lines: join them, then take the name before each CSUM_API's "(".
declared_api() {
    cat "$(dirname "${BASH_SOURCE[0]}")"/../include/*.h | grep -v '^ *# *define CSUM_API' |
        tr '\n' ' ' | grep -o 'CSUM_API [^;(]*(' | sed 's/.*[ *]\([A-Za-z_0-9]*\) *($/\1/' | sort
}
