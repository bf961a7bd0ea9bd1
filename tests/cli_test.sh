#!/usr/bin/env bash
# Tests of the `csum` command line: exit statuses, messages, and `csum sum` against
# independent computations (known vectors, and a Python RFC 1071 sum when python3 exists).
# Usage: tests/cli_test.sh path/to/csum
set -u
CSUM=${1:?usage: cli_test.sh path/to/csum}
TMP=$(mktemp -d)
# Hermetic: no selection or stored dispatch plan from the caller's environment or home.
unset CSUM_IMPL CSUM_COPY_IMPL CSUM_BATCH_IMPL CSUM_DISPATCH CSUM_CPU_DISABLE
export CSUM_DISPATCH_FILE=
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0

ok()   { passed=$((passed + 1)); printf 'PASS    cli: %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL    cli: %s\n' "$1"; }

# expect_status WANT DESCRIPTION -- command...
expect_status() {
    local want=$1 what=$2; shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then ok "$what"; else fail "$what (exit $got, want $want; stderr: $(head -c 300 "$TMP/err"))"; fi
}
expect_grep() { # expect_grep FILE PATTERN DESCRIPTION
    if grep -q -- "$2" "$1"; then ok "$3"; else fail "$3 (no '$2' in: $(head -c 300 "$1"))"; fi
}
expect_egrep() { # expect_egrep FILE EXTENDED-PATTERN DESCRIPTION
    if grep -Eq -- "$2" "$1"; then ok "$3"; else fail "$3 (no '$2' in: $(head -c 300 "$1"))"; fi
}
# strerror(ELOOP) as each C library words it (glibc's, musl's): csum prints the C library's.
ELOOP_TEXT='(Too many levels of symbolic links|Symbolic link loop)'
expect_same() { # expect_same GOT WANT DESCRIPTION
    if [ "$1" = "$2" ]; then ok "$3"; else fail "$3 (got '$1', want '$2')"; fi
}

# ---- usage and exit statuses -----------------------------------------------------------
expect_status 0 "--help" -- "$CSUM" --help
expect_grep "$TMP/out" "Usage: csum" "--help prints usage"
expect_status 0 "--version" -- "$CSUM" --version
expect_grep "$TMP/out" "^csum [0-9]" "--version prints a version"
expect_status 2 "no command" -- "$CSUM"
expect_status 2 "unknown option" -- "$CSUM" --frobnicate
expect_grep "$TMP/err" "unknown option '--frobnicate'" "unknown option is named"
expect_status 2 "unknown command" -- "$CSUM" frobnicate
expect_grep "$TMP/err" "unknown command 'frobnicate'" "unknown command is named"
expect_status 2 "--impl without a name" -- "$CSUM" --impl
expect_status 2 "unknown implementation" -- "$CSUM" --impl no-such-impl impls
expect_grep "$TMP/err" "unknown implementation 'no-such-impl'" "unknown implementation is named"
expect_grep "$TMP/err" "^Try 'csum --help'.$" "a usage error before a command points at csum --help"
expect_status 2 "sum: unknown option" -- "$CSUM" sum --bogus
expect_grep "$TMP/err" "^Try 'csum sum --help'.$" "a command's usage error points at its own help"
expect_status 2 "pcap fix without OUT" -- "$CSUM" pcap fix in.pcap
expect_grep "$TMP/err" "^Try 'csum pcap fix --help'.$" "pcap fix's usage error points at its own help"
expect_status 2 "verify: unknown implementation" -- "$CSUM" verify no-such-impl
expect_status 2 "impls: extra argument" -- "$CSUM" impls extra
for cmd in impls verify sum; do
    expect_status 0 "$cmd --help" -- "$CSUM" "$cmd" --help
done
# Every help text fits in 80 columns, and so does the hint after a usage error: csum --help,
# the --help of each command it lists and of each subcommand a command's usage names (csum
# pcap verify). Columns are characters, not bytes (UTF-8 continuation bytes are not counted).
expect_narrow() { # expect_narrow FILE DESCRIPTION: fails naming each line wider than 80
    local wide
    wide=$(LC_ALL=C tr -d '\200-\277' <"$1" | LC_ALL=C awk 'length($0) > 80 { print NR, length($0) }' |
           while read -r n w; do printf '\n    line %s, %s columns: %s' "$n" "$w" "$(sed -n "${n}p" "$1")"; done)
    if [ -z "$wide" ]; then ok "$2"; else fail "$2:$wide"; fi
}
help_commands=$("$CSUM" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 } on { print $1 }')
if [ -n "$help_commands" ]; then ok "csum --help lists commands"; else fail "csum --help lists no commands"; fi
helps=("")
for cmd in $help_commands; do
    helps+=("$cmd")
    for sub in $("$CSUM" "$cmd" --help | sed -nE "s/^(Usage:)? +csum $cmd ([a-z]+) .*/\2/p" | sort -u); do
        helps+=("$cmd $sub")
    done
done
for h in "${helps[@]}"; do
    "$CSUM" $h --help >"$TMP/out" 2>&1
    expect_narrow "$TMP/out" "csum${h:+ $h} --help fits in 80 columns"
    "$CSUM" $h --no-such-option >/dev/null 2>"$TMP/err"
    grep '^Try ' "$TMP/err" >"$TMP/try"
    if [ -s "$TMP/try" ]; then expect_narrow "$TMP/try" "csum${h:+ $h}'s usage hint fits in 80 columns"
    else fail "csum${h:+ $h} --no-such-option: no 'Try ...' hint ($(head -c 300 "$TMP/err"))"; fi
done
# csum help [COMMAND] prints what --help prints; anything else after it is refused.
"$CSUM" --help >"$TMP/want" 2>&1
"$CSUM" help >"$TMP/got" 2>&1
if cmp -s "$TMP/want" "$TMP/got"; then ok "csum help is csum --help"; else fail "csum help differs from csum --help"; fi
"$CSUM" pcap --help >"$TMP/want" 2>&1
"$CSUM" help pcap >"$TMP/got" 2>&1
if cmp -s "$TMP/want" "$TMP/got"; then ok "csum help pcap is csum pcap --help"; else fail "csum help pcap differs from csum pcap --help"; fi
expect_status 2 "help with an unknown command" -- "$CSUM" help no-such-command
expect_grep "$TMP/err" "unknown command 'no-such-command'" "help names the unknown command"
expect_grep "$TMP/err" "^Try 'csum --help'" "help's usage error points to csum --help"
expect_status 2 "help with two commands" -- "$CSUM" help pcap sum
expect_grep "$TMP/err" "help takes one command, not 'sum'" "help refuses a second command"
# Output that cannot be written (a full disk, a closed standard output) is a failure, named,
# whichever command printed it: never an exit 0 with the output lost.
printf 'x' >"$TMP/x"
for args in "--help" "--version" "impls" "verify --quick generic" "sum $TMP/x" "sum --help" \
            "bench --list" "tune --help" "pcap --help"; do
    if [ -w /dev/full ]; then
        expect_status 1 "$args into /dev/full" -- sh -c "exec '$CSUM' $args >/dev/full"
        expect_grep "$TMP/err" "cannot write output: No space left on device" "$args into /dev/full: said"
    fi
    expect_status 1 "$args with standard output closed" -- sh -c "exec '$CSUM' $args >&-"
    expect_grep "$TMP/err" "cannot write output" "$args with standard output closed: said"
done
# A failed write leaves stdio nothing to write again (glibc and musl drop what it held), so
# when it is the last one the final flush succeeds and only errno, right after the write, has
# the cause. csum sum's lines end one byte past a buffer of 8168 to 8200 bytes (glibc's 8192,
# musl's 8184), the last '\n' then the failing write; then again with a file that cannot be
# opened after it, whose ENOENT must not be given as the cause.
if [ -w /dev/full ]; then
    mkdir "$TMP/lines" && printf 'x' >"$TMP/lines/f"
    csum_path=$(cd "$(dirname "$CSUM")" && pwd)/$(basename "$CSUM") # run from $TMP/lines
    many_f=$(for i in $(seq 620); do printf 'f '; done) # 620 lines of 13 bytes
    lost='' wrong=''
    for len in $(seq 96 128); do
        name=$(printf "%${len}s" | tr ' ' n) # a last line of 12 + len bytes
        printf 'x' >"$TMP/lines/$name"
        (cd "$TMP/lines" && exec "$csum_path" sum $many_f "$name" >/dev/full 2>"$TMP/err")
        grep -q "^csum: sum: cannot write output: No space left on device\$" "$TMP/err" || lost="$lost $len"
        (cd "$TMP/lines" && exec "$csum_path" sum $many_f "$name" missing >/dev/full 2>"$TMP/err")
        grep -q "^csum: sum: cannot write output: No space left on device\$" "$TMP/err" || wrong="$wrong $len"
    done
    expect_same "$lost" "" "sum into /dev/full, its last write failing: the cause named"
    expect_same "$wrong" "" "sum into /dev/full, its last write failing, a missing file after: the cause named"
fi

# ---- impls and verify -------------------------------------------------------------------
expect_status 0 "impls" -- "$CSUM" impls
expect_grep "$TMP/out" "^generic " "impls lists generic"
expect_grep "$TMP/out" "^NAME " "impls prints a header"
expect_grep "$TMP/out" "^dispatch: [a-z0-9-]*@0" "impls shows the dispatch plan"
last_row=$(awk '$1 == "dispatch:" { n = split($2, r, ","); split(r[n], x, "@"); print x[1] }' "$TMP/out")
expect_grep "$TMP/out" "^$last_row *yes *\(all\|[0-9]*+\) " "the plan's last row is marked with its range"
expect_grep "$TMP/out" "^csum_partial_copy: implementations" "impls lists the copy implementations"
copy_rows=$(awk '/^csum_partial_copy:/ { copy = 1; next } copy && $1 == "generic" && $2 == "yes"' "$TMP/out" | wc -l)
expect_same "$copy_rows" 1 "impls lists the generic copy implementation as supported"
# Short copies go to x86-scalar on every x86-64 CPU.  Asked of the binary, not of
# uname: under qemu-user the host is x86-64 and the binary arm64.
if grep -q "^x86-scalar " "$TMP/out"; then
    expect_grep "$TMP/out" "^x86-scalar *yes *\\(< 64 B\\|always\\) " "impls shows the copy plan's short range"
fi
CSUM_COPY_IMPL=generic "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^generic *yes *always" "CSUM_COPY_IMPL=generic is used for every copy length"
# A streaming row forced for every length: the heading says so, not the automatic threshold.
nt_row=$(awk '/^csum_partial_copy:/ { copy = 1; next } copy && $1 ~ /-nt$/ && $2 == "yes" { print $1; exit }' "$TMP/out")
if [ -n "$nt_row" ]; then
    CSUM_COPY_IMPL=$nt_row "$CSUM" impls >"$TMP/out" 2>&1
    expect_grep "$TMP/out" "^$nt_row *yes *always" "CSUM_COPY_IMPL=$nt_row is used for every copy length"
    expect_grep "$TMP/out" "^csum_partial_copy: implementations (streaming stores for every length)" \
        "impls says a forced streaming row streams every length"
fi
# A copy row the library cannot use falls back to the automatic plan: impls says why.
CSUM_COPY_IMPL=no-such-row "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out" # wrapped lines joined
expect_grep "$TMP/out" "(CSUM_COPY_IMPL ignored: no implementation 'no-such-row')" \
    "impls names an unknown CSUM_COPY_IMPL it ignored"
# The first copy row this CPU runs that needs a feature (the widest), its features hidden.
"$CSUM" impls >"$TMP/plain" 2>&1
copy_row=$(awk '/^csum_partial_copy:/ { copy = 1; next } copy && /^$/ { exit }
                copy && $2 == "yes" && $NF != "-" { print $1; exit }' "$TMP/plain")
if [ -n "$copy_row" ]; then
    hide=$(awk -v row="$copy_row" '/^csum_partial_copy:/ { copy = 1; next } copy && $1 == row {
               for (i = 3; i <= NF; i++) # REQUIRES: the lower-case words but LENGTHS "always"
                   if ($i ~ /^[a-z]/ && $i != "always") printf "%s%s", (n++ ? "," : ""), $i
               exit }' "$TMP/plain")
    CSUM_CPU_DISABLE=$hide CSUM_COPY_IMPL=$copy_row "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out"
    expect_grep "$TMP/out" "(CSUM_COPY_IMPL ignored: this CPU cannot run '$copy_row')" \
        "impls names an unsupported CSUM_COPY_IMPL it ignored"
fi
CSUM_COPY_IMPL=generic "$CSUM" impls >"$TMP/out" 2>&1
if grep -q "CSUM_COPY_IMPL ignored" "$TMP/out"; then
    fail "impls is silent about a CSUM_COPY_IMPL it uses"
else
    ok "impls is silent about a CSUM_COPY_IMPL it uses"
fi
# csum_ipv4_header_batch's plan, and a CSUM_BATCH_IMPL the library ignored (it falls back to
# the automatic plan): impls names it and says why, in the batch plan's "from:" line.
"$CSUM" impls >"$TMP/impls" 2>&1
expect_grep "$TMP/impls" "^csum_ipv4_header_batch: generic@0[,a-z0-9@-]* (by number of headers)$" \
    "impls shows the batch plan"
batch_row=$(sed -n 's/^csum_ipv4_header_batch: generic@0,\([a-z0-9-]*\)@.*/\1/p' "$TMP/impls")
CSUM_BATCH_IMPL=generic "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^csum_ipv4_header_batch: generic@0 " "CSUM_BATCH_IMPL=generic is the batch plan"
expect_grep "$TMP/out" "^  from: CSUM_BATCH_IMPL$" "impls says the batch plan came from CSUM_BATCH_IMPL"
CSUM_BATCH_IMPL=no-such-row "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out" # wrapped lines joined
expect_grep "$TMP/out" "from: compiled-in defaults (CSUM_BATCH_IMPL ignored: no implementation 'no-such-row')" \
    "impls names an unknown CSUM_BATCH_IMPL it ignored"
if [ -n "$batch_row" ]; then # a SIMD batch row, its features hidden
    hide=$(awk -v row="$batch_row" '$1 == row { for (i = 4; i <= NF; i++) printf "%s%s", (i > 4 ? "," : ""), $i; exit }' "$TMP/impls")
    CSUM_CPU_DISABLE=$hide CSUM_BATCH_IMPL=$batch_row "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out"
    expect_grep "$TMP/out" "(CSUM_BATCH_IMPL ignored: this CPU cannot run '$batch_row')" \
        "impls names an unsupported CSUM_BATCH_IMPL it ignored"
fi
# The first runnable row of the reference section, which ends at its blank line (on arm64 it
# is empty: the rows after it would be copies).
reference_row=$(awk '/^csum_partial: reference/ { on = 1; next } on && /^$/ { exit }
                     on && $2 == "yes" { print $1; exit }' "$TMP/impls")
if [ -n "$reference_row" ]; then # a historical csum_partial: a row without a batch
    CSUM_BATCH_IMPL=$reference_row "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out"
    expect_grep "$TMP/out" "(CSUM_BATCH_IMPL ignored: '$reference_row' has no IPv4 header batch)" \
        "impls names a CSUM_BATCH_IMPL row without a batch"
    CSUM_COPY_IMPL=$reference_row "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out"
    expect_grep "$TMP/out" "(CSUM_COPY_IMPL ignored: '$reference_row' has no csum_partial_copy)" \
        "impls names a CSUM_COPY_IMPL row without a copy"
fi
# CSUM_CPU_DISABLE: the names that are no CPU feature hide nothing; impls names them.
CSUM_CPU_DISABLE=avx2,no-such-feature,neon "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out"
expect_grep "$TMP/out" "CSUM_CPU_DISABLE: no-such-feature ignored: no CPU feature of that name (the features are " \
    "impls names a CSUM_CPU_DISABLE feature it ignored"
CSUM_CPU_DISABLE="bogus, avx2,,typo" "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out"
expect_grep "$TMP/out" "CSUM_CPU_DISABLE: bogus,typo ignored: no CPU features of those names" \
    "impls names every CSUM_CPU_DISABLE feature it ignored"
CSUM_CPU_DISABLE=avx2,neon "$CSUM" impls >"$TMP/out" 2>&1
if grep -q "CSUM_CPU_DISABLE" "$TMP/out"; then
    fail "impls is silent about a CSUM_CPU_DISABLE whose names are all features"
else
    ok "impls is silent about a CSUM_CPU_DISABLE whose names are all features"
fi
# The copy plan says where it came from, under its table's heading.
expect_status 0 "impls" -- "$CSUM" impls
expect_grep "$TMP/out" "^  from: compiled-in defaults" "impls says where the copy plan came from"
if awk '/^csum_partial_copy:/ { getline; exit !/^  from: / }' "$TMP/out"; then
    ok "impls: the copy plan's source follows its heading"
else
    fail "impls: no 'from:' line under csum_partial_copy's heading"
fi
CSUM_COPY_IMPL=generic "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^  from: CSUM_COPY_IMPL$" "impls names CSUM_COPY_IMPL as the copy plan's source"
expect_status 0 "--impl generic impls" -- "$CSUM" --impl generic impls
expect_grep "$TMP/out" "^generic *yes *all " "--impl generic sends every length to generic"
CSUM_IMPL=generic "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^generic *yes *all " "CSUM_IMPL=generic sends every length to generic"
CSUM_IMPL=generic CSUM_DISPATCH=generic@0 "$CSUM" impls 2>&1 | tr -s ' \n' '  ' >"$TMP/out"
expect_grep "$TMP/out" "from: one implementation for all lengths (CSUM_DISPATCH ignored: CSUM_IMPL comes first)" \
    "impls names a CSUM_DISPATCH that CSUM_IMPL overrides"
CSUM_DISPATCH_FILE= CSUM_DISPATCH=generic@0 "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^dispatch: generic@0$" "CSUM_DISPATCH sets the plan"
expect_grep "$TMP/out" "^  from: CSUM_DISPATCH$" "impls says where the plan came from"
# A row in two ranges of the plan: LENGTHS names both.
other=$("$CSUM" impls | awk '/^csum_partial: reference/ { exit } $2 == "yes" && $1 != "generic" { print $1; exit }')
if [ -n "$other" ]; then
    CSUM_DISPATCH_FILE= CSUM_DISPATCH="generic@0,$other@256,generic@1024" "$CSUM" impls >"$TMP/out" 2>&1
    expect_grep "$TMP/out" "^generic *yes *0-255,1024+ " "impls names both ranges of a row used twice"
    expect_grep "$TMP/out" "^$other *yes *256-1023 " "impls names the range between them"
else
    printf 'SKIPPED cli: impls with a row in two ranges (generic is the only product row here)\n'
fi
expect_status 0 "verify --quick" -- "$CSUM" verify --quick
expect_grep "$TMP/out" "^generic *ok" "verify reports generic ok"
# verify_ok OPERATION ROW: verify's output lists ROW as ok under OPERATION's heading.
verify_ok() {
    if awk -v op="$1:" -v row="$2" '$0 == op { on = 1; next } /^[a-z0-9_]*:$/ { on = 0 }
                                    on && $1 == row && $2 == "ok" { found = 1 } END { exit !found }' "$TMP/out"
    then ok "verify checks $1's row $2"; else fail "verify checks $1's row $2 ($(head -c 300 "$TMP/out"))"; fi
}
# Every kind of row: csum_partial's, csum_partial_copy's and the IPv4 header batch's.
for op in csum_partial csum_partial_copy csum_ipv4_header_batch; do
    verify_ok "$op" generic
done
expect_status 0 "verify generic" -- "$CSUM" verify generic
expect_grep "$TMP/out" "^3 verified, 0 failed, 0 skipped" "verify generic checks its sum, copy and batch"
# '--' ends the options, as for csum sum and csum pcap: what follows is names, never options.
expect_status 0 "verify --quick -- generic" -- "$CSUM" verify --quick -- generic
expect_grep "$TMP/out" "^3 verified, 0 failed, 0 skipped" "verify -- generic checks generic alone"
expect_status 2 "verify -- --quick: a name, not an option" -- "$CSUM" verify -- --quick
expect_grep "$TMP/err" "unknown implementation '--quick'" "verify names what follows '--' as an implementation"
# A copy row by its name, a streaming one where this CPU runs one.
"$CSUM" impls >"$TMP/impls" 2>&1
stream_row=$(awk '/^csum_partial_copy:/ { copy = 1; next } copy && $1 ~ /-nt$/ && $2 == "yes" { print $1; exit }' "$TMP/impls")
for row in generic $stream_row; do
    expect_status 0 "verify --quick $row" -- "$CSUM" verify --quick "$row"
    verify_ok csum_partial_copy "$row"
done
if [ -n "$stream_row" ]; then
    expect_grep "$TMP/out" "^1 verified, 0 failed" "verify $stream_row checks that copy row alone"
fi
# A row this CPU cannot run (its features hidden with CSUM_CPU_DISABLE): SKIPPED, and exit 1
# when it was asked for. The row is the first one that needs a feature, on any architecture.
"$CSUM" impls >"$TMP/impls" 2>&1
gated=$(awk '$2 == "yes" && NF >= 4 && $4 != "-" { print $1; exit }' "$TMP/impls")
features=$(awk -v row="$gated" '$1 == row { for (i = 4; i <= NF; i++) printf "%s%s", (i > 4 ? "," : ""), $i; exit }' "$TMP/impls")
if [ -n "$gated" ]; then
    expect_status 0 "verify with $gated's features hidden" -- env CSUM_CPU_DISABLE="$features" "$CSUM" verify --quick
    expect_grep "$TMP/out" "^$gated *SKIPPED: not verified, CSUM_CPU_DISABLE hides ${features//,/ }\$" \
        "a row whose features are hidden is SKIPPED, and says that CSUM_CPU_DISABLE hides them (not that the CPU lacks them)"
    expect_status 1 "verify $gated with its features hidden" -- env CSUM_CPU_DISABLE="$features" "$CSUM" verify "$gated"
    expect_grep "$TMP/err" "cannot run here (CSUM_CPU_DISABLE hides what they need) and were not verified" "the skipped request is named, and why"
    expect_status 2 "--impl $gated with its features hidden" -- env CSUM_CPU_DISABLE="$features" "$CSUM" --impl "$gated" sum /dev/null
    expect_grep "$TMP/err" "implementation '$gated' cannot run here: it needs .*, which this CPU lacks or CSUM_CPU_DISABLE=$features hides" \
        "--impl with its features hidden names CSUM_CPU_DISABLE"
    # tune -M and bench -M refuse it before timing anything, and name CSUM_CPU_DISABLE too.
    expect_status 2 "tune -M $gated with its features hidden" -- env CSUM_CPU_DISABLE="$features" "$CSUM" tune --quick -M "$gated"
    expect_grep "$TMP/err" "'$gated' cannot run here: this CPU lacks, or CSUM_CPU_DISABLE hides, what it needs" \
        "tune -M with its features hidden names CSUM_CPU_DISABLE"
    expect_status 2 "bench -M $gated with its features hidden" -- env CSUM_CPU_DISABLE="$features" "$CSUM" bench -M "$gated" -l 64 short
    expect_grep "$TMP/err" "implementation '$gated' cannot run here: this CPU lacks, or CSUM_CPU_DISABLE hides, what it needs" \
        "bench -M with its features hidden names CSUM_CPU_DISABLE"
fi # else a build with only the portable row (s390x): nothing to hide
expect_status 0 "impls fits in 100 columns" -- sh -c "'$CSUM' impls | awk 'length(\$0) > 100 { exit 1 }'"
# ... also with range bounds of 20 digits: LENGTHS, REQUIRES and the plan wrap.
if [ -n "$other" ]; then
    huge="generic@0,$other@18446744073709551611,generic@18446744073709551613,$other@18446744073709551614"
    CSUM_DISPATCH=$huge "$CSUM" impls >"$TMP/huge" 2>&1
    expect_status 0 "impls with huge range bounds fits in 100 columns" -- \
        awk 'length($0) > 100 { exit 1 }' "$TMP/huge"
    expect_grep "$TMP/huge" "^generic *yes *0-18446744073709551610,18446744073709551613-18446744073709551613 " \
        "impls with huge range bounds names them whole"
    expect_same "$(sed -n '/^dispatch: /,/^  from:/p' "$TMP/huge" | sed '$d' | tr -d ' \n')" "dispatch:$huge" \
        "impls wraps a long plan after a comma"
fi
CSUM_DISPATCH_FILE= CSUM_DISPATCH=generic@0,generic@99999999999999999999 "$CSUM" impls 2>&1 |
    tr -s ' \n' '  ' >"$TMP/out" # wrapped lines joined
expect_grep "$TMP/out" "(CSUM_DISPATCH ignored: generic@ needs a decimal size" "impls names an ignored CSUM_DISPATCH"
expect_grep "$TMP/out" " csum_partial: reference implementations" "impls lists reference rows apart"

# ---- sum ---------------------------------------------------------------------------------
printf '\x00\x01\xf2\x03\xf4\xf5\xf6\xf7' >"$TMP/rfc1071"   # RFC 1071 section 3 example
expect_status 0 "sum of the RFC 1071 example" -- "$CSUM" sum "$TMP/rfc1071"
expect_same "$(cat "$TMP/out")" "0x220d  8  $TMP/rfc1071" "sum prints checksum, length, name"
expect_same "$("$CSUM" sum <"$TMP/rfc1071")" "0x220d  8  -" "sum of stdin (no argument)"
expect_same "$("$CSUM" sum - <"$TMP/rfc1071")" "0x220d  8  -" "sum of stdin ('-')"
# '--' ends the options (the manual): a name after it that starts with '-' is a file, '-' stdin.
cp "$TMP/rfc1071" "$TMP/-dash"
case $CSUM in /*) csum_abs=$CSUM ;; *) csum_abs=$PWD/$CSUM ;; esac # run from $TMP below
expect_same "$(cd "$TMP" && "$csum_abs" sum -- -dash - <"$TMP/rfc1071")" "$(printf '0x220d  8  -dash\n0x220d  8  -')" \
    "sum -- -dash -: a file that starts with '-', then stdin"
printf '\x45\x00\x00\x73\x00\x00\x40\x00\x40\x11\xb8\x61\xc0\xa8\x00\x01\xc0\xa8\x00\xc7' >"$TMP/iphdr"
expect_same "$("$CSUM" sum "$TMP/iphdr" | cut -d' ' -f1)" "0x0000" "a valid IPv4 header sums to 0x0000"
: >"$TMP/empty"
expect_same "$("$CSUM" sum "$TMP/empty")" "0xffff  0  $TMP/empty" "empty file"
# Names with a newline, a backslash or a carriage return: escaped, the line marked with a
# leading backslash (as sha256sum does), so each result stays one line.
mkdir "$TMP/names"
nl_name=$(printf 'a\nb') cr_name=$(printf 'e\rf') bs_name='c\d'
for name in "$nl_name" "$bs_name" "$cr_name" plain; do cp "$TMP/rfc1071" "$TMP/names/$name"; done
d=$TMP/names
expect_same "$("$CSUM" sum "$d/$nl_name" "$d/$bs_name" "$d/$cr_name" "$d/plain" | od -An -c)" \
    "$(printf '%s\n' "\\0x220d  8  $d/a\\nb" "\\0x220d  8  $d/c\\\\d" "\\0x220d  8  $d/e\\rf" \
                     "0x220d  8  $d/plain" | od -An -c)" \
    "sum escapes a newline, a backslash and a carriage return in a name"
printf '\x01' >"$TMP/one"
expect_same "$("$CSUM" sum "$TMP/one" | cut -d' ' -f1)" "0xfeff" "one byte (odd length)"

expect_status 1 "unreadable file among readable ones" -- "$CSUM" sum "$TMP/rfc1071" "$TMP/missing" "$TMP/iphdr"
expect_grep "$TMP/err" "$TMP/missing" "the unreadable file is named"
expect_same "$(wc -l <"$TMP/out" | tr -d ' ')" 2 "the other files are still summed"
expect_status 1 "a directory" -- "$CSUM" sum "$TMP"

if command -v python3 >/dev/null 2>&1; then
    # An independent RFC 1071 implementation; the file is larger than csum's read chunk and
    # has an odd length, so chunk combination is exercised.
    python3 - "$TMP/random" <<'PY'
import os, sys
data = os.urandom(3 * (1 << 20) + 12345)
open(sys.argv[1], "wb").write(data)
s = sum(int.from_bytes(data[i:i + 2].ljust(2, b"\0"), "big") for i in range(0, len(data), 2))
while s >> 16:
    s = (s & 0xffff) + (s >> 16)
open(sys.argv[1] + ".want", "w").write("0x%04x  %d  %s\n" % (~s & 0xffff, len(data), sys.argv[1]))
PY
    expect_same "$("$CSUM" sum "$TMP/random")" "$(cat "$TMP/random.want")" "sum agrees with Python on 3 MiB"
    expect_same "$(cat "$TMP/random" | "$CSUM" sum | cut -d' ' -f1)" "$(cut -d' ' -f1 "$TMP/random.want")" \
        "sum of a pipe (short reads) agrees with Python"
    for impl in $("$CSUM" impls | awk '/^dispatch:/ { exit } $2 == "yes" { print $1 }'); do
        expect_same "$("$CSUM" --impl "$impl" sum "$TMP/random")" "$(cat "$TMP/random.want")" "sum with --impl $impl"
    done
else
    echo "SKIPPED cli: comparison with Python (python3 not found)"
fi

# ---- bench (the lab): usage errors and machine-readable output ----------------------------
expect_status 0 "bench --help" -- "$CSUM" bench --help
expect_status 0 "bench --list" -- "$CSUM" bench --list
expect_grep "$TMP/out" "^  generic " "bench --list shows generic"
expect_grep "$TMP/out" "^  inline-40 " "bench --list shows the h40 subjects -M takes"
expect_narrow "$TMP/out" "bench --list fits in 80 columns"
expect_status 2 "bench: unknown table" -- "$CSUM" bench nosuchtable
expect_status 2 "bench: unknown implementation" -- "$CSUM" bench -M no-such-impl lenalign
expect_status 2 "bench: unknown baseline" -- "$CSUM" bench --baseline no-such-impl lenalign
expect_status 2 "bench: alignment out of range" -- "$CSUM" bench -a 64 lenalign
expect_status 2 "bench: lenalign has no case of length 0" -- "$CSUM" bench lenalign -l 0
expect_grep "$TMP/err" "has no case with -l 0 (" "bench: a refused -l 0 is named with its value"
expect_status 2 "bench: -l without a value" -- "$CSUM" bench -l
expect_status 2 "bench: bad number" -- "$CSUM" bench -c zero lenalign
expect_status 2 "bench: --json with --csv" -- "$CSUM" bench --json --csv
expect_status 2 "bench: unknown option" -- "$CSUM" bench --frobnicate
expect_status 2 "bench: CPU that does not exist" -- "$CSUM" bench --cpu 4096 --quick h40 -M generic
expect_status 0 "bench --quick --json" -- "$CSUM" bench --quick --json lenalign -l 40 -M generic
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$TMP/out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert set(doc) >= {"machine", "method", "results"}, doc.keys()
rows = doc["results"]
assert rows, "no results"
need = {"table", "impl", "len", "align", "mode", "ns_min", "ns_median", "ticks_median", "bytes_per_tick"}
for r in rows:
    assert need <= set(r), need - set(r)
    assert r["table"] == "lenalign" and r["len"] == 40 and r["ns_median"] > 0
assert {r["align"] for r in rows} == {0, 6}, rows
assert {r["impl"] for r in rows} == {"generic"}, rows
PY
    then ok "bench --json has machine, method and result fields"; else fail "bench --json document"; fi
fi
expect_status 0 "bench --quick --csv" -- "$CSUM" bench --quick --csv h40 -M generic --throughput
expect_grep "$TMP/out" "^table,impl,variant,mode,len,align,ns_min,ns_median" "bench --csv header"
expect_grep "$TMP/out" "^h40,generic,even,throughput,40,0," "bench --csv row"
# A text field with a comma (the batch table's "mbuf, ihl 5") is quoted: every row parses to
# the header's columns.
expect_status 0 "bench --quick --csv batch" -- "$CSUM" bench --quick --csv batch
expect_grep "$TMP/out" '^batch,csum_ipv4_header loop,"mbuf, ihl 5",throughput,1,' "bench --csv quotes a field with a comma"
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$TMP/out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows), [r for r in rows if len(r) != len(rows[0])][:2]
assert {r[2] for r in rows[1:]} >= {"mbuf, ihl 5", "packed, ihl 5..15"}, {r[2] for r in rows[1:]}
# Every row says what it was measured on, in which ticks and when (a CSV saved alone).
about = [dict(zip(rows[0], r)) for r in rows[1:]]
assert all(a["cpu"] and a["clock"].endswith(("ticks", "ns")) and a["date"][:2] == "20" for a in about), about[0]
PY
    then ok "bench --csv rows have the header's columns, the machine and the clock"; else fail "bench --csv rows do not parse"; fi
fi

# ---- tune -----------------------------------------------------------------------------------
expect_status 2 "tune: unknown option" -- "$CSUM" tune --frobnicate
expect_status 0 "tune --help" -- "$CSUM" tune --help
expect_status 2 "tune -M with an unknown name" -- "$CSUM" tune --quick -M generic,no-such-row
expect_grep "$TMP/err" "unknown implementation 'no-such-row'" "tune names the unknown row"
# --force alone writes nothing: a usage error, not a run that looks like it wrote.
expect_status 2 "tune --force without --write" -- "$CSUM" tune --quick -M generic --force
expect_grep "$TMP/err" "goes with --write" "tune says --force goes with --write"
# A reference row of this architecture (x86-64 has several, others may have none).
reference=$("$CSUM" impls | awk '/^csum_partial: reference/ { on = 1; next } on && /^$/ { exit }
                                  on && ($2 == "yes" || $2 == "no") { print $1; exit }')
if [ -n "$reference" ]; then
    expect_status 2 "tune -M with a reference row ($reference)" -- "$CSUM" tune --quick -M "$reference"
    expect_grep "$TMP/err" "reference row" "tune says reference rows are never in a plan"
else
    printf 'SKIPPED cli: tune -M with a reference row (this architecture has none)\n'
fi
expect_status 2 "tune --cpu with no number" -- "$CSUM" tune --quick --cpu ""
# -M with an empty name or a name twice, --cpu not plain digits: refused, not dropped or read
# past ('-M generic,' tuned generic alone, '-M generic,generic' too, '--cpu " 1"' pinned to 1).
# --force without --write stops a command line that passes (exit 2 too, said otherwise).
# The refusal is the only complaint: a refused -M that went on to the --force check (exit 2 as
# well) would, without --force, have tuned for minutes after saying it refused.
for m in , generic, ,generic generic,,generic; do
    expect_status 2 "tune -M '$m'" -- "$CSUM" tune --quick -M "$m" --force
    expect_grep "$TMP/err" "option -M: an empty name in '$m'" "tune -M '$m': the empty name said"
    expect_same "$(grep -c '^csum: ' "$TMP/err")" 1 "tune -M '$m': refused there, nothing else checked"
done
# 64 bytes is one more than a name can hold (LAB_NAME_SIZE): named whole there too.
for n in 64 100; do
    long=$(printf 'x%.0s' $(seq $n))
    expect_status 2 "tune -M with a name of $n bytes" -- "$CSUM" tune --quick -M "$long" --force
    expect_grep "$TMP/err" "unknown implementation '$long'" "tune -M: a name of $n bytes is named whole, not cut"
done
expect_status 2 "tune -M naming a row twice" -- "$CSUM" tune --quick -M generic,generic --force
expect_grep "$TMP/err" "option -M names 'generic' twice in 'generic,generic'" "tune -M generic,generic: said so"
expect_same "$(grep -c '^csum: ' "$TMP/err")" 1 "tune -M generic,generic: refused there, nothing else checked"
for cpu in " 0" +0; do
    expect_status 2 "tune --cpu '$cpu'" -- "$CSUM" tune --quick --cpu "$cpu" --force
    expect_grep "$TMP/err" "option --cpu takes a CPU number from 0 to [0-9]* (online CPUs), not '$cpu'" "tune --cpu '$cpu': said so"
done
# An option with a value given twice: refused, not the first value dropped.
for opt in "-M generic -M generic" "--cpu 0 --cpu 0" "--write $TMP/a --write $TMP/b"; do
    expect_status 2 "tune ${opt%% *} given twice" -- "$CSUM" tune --quick $opt
    expect_grep "$TMP/err" "option ${opt%% *} given twice" "tune ${opt%% *} given twice: said so"
done
# An option last on the line, without its value: said so, not called an unknown argument.
for opt in -M --cpu; do
    expect_status 2 "tune $opt without a value" -- "$CSUM" tune --quick "$opt"
    expect_grep "$TMP/err" "option $opt needs a value" "tune $opt without a value: said so"
done
# A plan slower than the one in force is refused, unless --force; --reset removes the file.
# (Where generic is the plan in force, as on s390x, there is no slower plan to refuse. Under
# qemu-user timings say nothing about the code: there NEON's emulation can be as slow as
# generic's scalar code, and the refusal came and went with the host CPU.)
if "$CSUM" impls 2>/dev/null | grep -q "^dispatch: generic@0$"; then
    printf 'SKIPPED cli: tune refusing a slower plan (generic is the plan in force here)\n'
elif [ -n "${CSUM_TEST_EMULATOR:-}" ]; then
    printf 'SKIPPED cli: tune refusing a slower plan (timings under %s mean nothing)\n' "$CSUM_TEST_EMULATOR"
else
    expect_status 1 "tune --quick -M generic --write FILE (slower: refused)" -- \
        "$CSUM" tune --quick -M generic --write "$TMP/plan"
    expect_grep "$TMP/out" "^plan: generic@0" "tune prints the plan"
    expect_grep "$TMP/out" "SLOWER" "tune marks where the new plan is slower"
    expect_grep "$TMP/out" "^1048576 " "tune checks beyond its ladder too (1 MiB)"
    expect_grep "$TMP/err" "not writing $TMP/plan" "tune says why it did not write"
    # --write FILE, when FILE is not the plan file this process reads, is checked against what
    # a program reading FILE runs: here the compiled-in plan (no FILE yet), not the slow plan
    # of this process's file, which generic@0 would have matched.
    printf 'generic@0\n' >"$TMP/own-plan"
    expect_status 1 "tune --write FILE checks against FILE's plan, not this process's" -- \
        env CSUM_DISPATCH_FILE="$TMP/own-plan" "$CSUM" tune --quick -M generic --write "$TMP/other-plan"
    expect_grep "$TMP/out" "(compiled-in defaults, as $TMP/other-plan does not exist yet)" \
        "tune names the plan FILE replaces"
    expect_same "$(ls "$TMP/other-plan" 2>&1 | grep -c 'No such file')" 1 \
        "tune --write FILE slower than the plan FILE replaces writes nothing"
    # ... and against FILE's own plan when it holds one: the same plan is no loss.
    printf 'generic@0\n' >"$TMP/other-plan"
    expect_status 0 "tune --write FILE that holds the same plan" -- \
        "$CSUM" tune --quick -M generic --write "$TMP/other-plan"
    expect_grep "$TMP/out" "already this one ($TMP/other-plan)" "tune compares with FILE's plan"
fi
# FILE's plan as the library reads it: written by hand with spaces, it is still the plan
# proposed (it was timed against itself, and could be refused as slower than itself).
printf '# by hand\n generic @ 0 \n' >"$TMP/spaced-plan"
expect_status 0 "tune --write FILE whose plan is the same, spaced out" -- \
    "$CSUM" tune --quick -M generic --write "$TMP/spaced-plan"
expect_grep "$TMP/out" "already this one ($TMP/spaced-plan)" "tune reads FILE's plan as the library does"
expect_same "$(grep -c '^checking ' "$TMP/out")" 0 "tune times no plan against itself"
rm -f "$TMP/spaced-plan"
expect_status 0 "tune --quick -M generic --write FILE --force" -- \
    "$CSUM" tune --quick -M generic --write "$TMP/plan" --force
expect_grep "$TMP/plan" "^generic@0$" "tune --write --force stores the plan"
# A FILE that is not the plan file: the way back names it ('csum tune --reset' alone removed
# the plan file every program reads, not FILE).
expect_grep "$TMP/out" "^wrote $TMP/plan (read by programs whose CSUM_DISPATCH_FILE names it; undo with 'CSUM_DISPATCH_FILE=$TMP/plan csum tune --reset')$" \
    "tune --write FILE says how to remove FILE"
if grep -q "^x86-scalar " "$TMP/impls"; then # x86-64 says what the CPU is
    expect_grep "$TMP/plan" "^# cpu: [A-Za-z]* family [0-9]* model [0-9]*$" \
        "tune --write names the CPU the plan was tuned on"
fi
CSUM_DISPATCH_FILE="$TMP/plan" "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^  from: $TMP/plan$" "the library reads the stored plan"
# A plan file that is there but cannot be opened is ignored with the reason, and impls does
# not call it "none" (a loop of symbolic links was both: silently ignored, and "none").
ln -s plan-loop "$TMP/plan-loop"
CSUM_DISPATCH_FILE="$TMP/plan-loop" "$CSUM" impls >"$TMP/out" 2>&1
tr -s '\n ' '  ' <"$TMP/out" >"$TMP/out.joined" # the source is wrapped at word boundaries
expect_grep "$TMP/out.joined" "($TMP/plan-loop ignored: cannot be opened: too many levels of symbolic links)" \
    "impls says why a plan file that cannot be opened is ignored"
expect_egrep "$TMP/out" "^  plan file: $TMP/plan-loop \\($ELOOP_TEXT\\)$" \
    "impls says why it cannot look at the plan file, not 'none'"
rm "$TMP/plan-loop"
# No plan file: impls says which of the two reasons it is.
CSUM_DISPATCH_FILE= "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^  plan file: none (CSUM_DISPATCH_FILE is empty)$" "impls: an empty CSUM_DISPATCH_FILE named as why there is no plan file"
env -u CSUM_DISPATCH_FILE XDG_CONFIG_HOME=relative HOME=relative "$CSUM" impls >"$TMP/out" 2>&1
expect_grep "$TMP/out" "^  plan file: none (no absolute XDG_CONFIG_HOME or HOME)$" "impls: no absolute XDG_CONFIG_HOME or HOME named as why there is no plan file"
# --write replaces the file at once (a temporary file renamed over it): a write that fails,
# here at the file size limit, leaves the stored plan whole, and no temporary file behind.
cp "$TMP/plan" "$TMP/plan.before"
chmod 640 "$TMP/plan"
(trap '' XFSZ; ulimit -f 0; exec "$CSUM" tune --quick -M generic --write "$TMP/plan" --force) 2>&1 |
    cat >"$TMP/out"
expect_same "${PIPESTATUS[0]}" 1 "tune --write that cannot write exits 1"
expect_grep "$TMP/out" "cannot write $TMP/plan" "tune --write says it could not write"
if cmp -s "$TMP/plan" "$TMP/plan.before"; then ok "a failed tune --write keeps the stored plan"
else fail "a failed tune --write keeps the stored plan (now: '$(head -c 200 "$TMP/plan")')"; fi
expect_same "$(ls -A "$TMP" | grep -c '^\.csum-tmp-')" 0 "a failed tune --write leaves no temporary file"
# Through a symbolic link (a dotfile manager's): the file it names is replaced, the link stays,
# and a file's permissions are kept.
mkdir "$TMP/dotfiles"
mv "$TMP/plan" "$TMP/dotfiles/plan"
ln -s dotfiles/plan "$TMP/plan"
expect_status 0 "tune --write through a symbolic link" -- \
    env CSUM_DISPATCH_FILE="$TMP/plan" "$CSUM" tune --quick -M generic --write --force
expect_grep "$TMP/out" "^wrote $TMP/plan (read by libcsum at startup; CSUM_DISPATCH overrides it; undo with 'csum tune --reset')$" \
    "tune --write into the plan file says 'csum tune --reset' undoes it"
if [ -L "$TMP/plan" ] && grep -q "^generic@0$" "$TMP/dotfiles/plan"; then
    ok "tune --write through a link writes the file it names"
else fail "tune --write through a link writes the file it names"; fi
expect_same "$(stat -c %a "$TMP/dotfiles/plan")" 640 "tune --write keeps the file's permissions"
rm "$TMP/plan"
# Another user's link is not followed (it may point anywhere, as one in /tmp can): only root
# can make one here.
ln -s dotfiles/plan "$TMP/plan"
if chown -h 65534 "$TMP/plan" 2>/dev/null; then
    expect_status 1 "tune --write refuses another user's symbolic link" -- \
        "$CSUM" tune --quick -M generic --write "$TMP/plan" --force
    expect_grep "$TMP/err" "^csum: tune: cannot write $TMP/plan: it is a symbolic link owned by another user (nothing timed)$" \
        "tune refuses the link before the timing, saying why"
else
    printf 'SKIPPED cli: tune --write and another user'"'"'s symbolic link (needs root)\n'
fi
rm "$TMP/plan"
mv "$TMP/dotfiles/plan" "$TMP/plan"
# A link of ours to a plan not written yet is followed too, the plan written where it points
# (it failed after the timing: 'No such file or directory'); a link into a directory that does
# not exist is refused before anything is timed.
ln -s dotfiles/new-plan "$TMP/link-plan"
expect_status 0 "tune --write through a link to a file not written yet" -- \
    "$CSUM" tune --quick -M generic --write "$TMP/link-plan" --force
if [ -L "$TMP/link-plan" ] && grep -q "^generic@0$" "$TMP/dotfiles/new-plan"; then
    ok "tune --write through a link to a file not written yet writes the file it names"
else fail "tune --write through a link to a file not written yet writes the file it names"; fi
rm "$TMP/link-plan" "$TMP/dotfiles/new-plan"
ln -s no-such-dir/plan "$TMP/link-plan"
expect_status 1 "tune --write through a link into no directory" -- \
    "$CSUM" tune --quick -M generic --write "$TMP/link-plan" --force
expect_grep "$TMP/err" "cannot write $TMP/link-plan: No such file or directory (nothing timed)" \
    "tune --write through a link into no directory says so before timing"
rm "$TMP/link-plan"
# Root replacing another user's plan file keeps its owner and group (root's --write left a
# file of mode 0600 owned by root, which that user's programs could no longer read).
cp "$TMP/plan" "$TMP/user-plan"
chmod 600 "$TMP/user-plan"
if chown 65534:65534 "$TMP/user-plan" 2>/dev/null; then
    expect_status 0 "tune --write (root) over another user's plan file" -- \
        "$CSUM" tune --quick -M generic --write "$TMP/user-plan" --force
    expect_same "$(stat -c '%u:%g %a' "$TMP/user-plan")" "65534:65534 600" \
        "tune --write keeps the plan file's owner, group and permissions"
else
    printf 'SKIPPED cli: tune --write keeping the owner of a plan file (needs root)\n'
fi
rm -f "$TMP/user-plan"
# --reset removes only a plan file --write wrote: anything else CSUM_DISPATCH_FILE names (by
# mistake) is left as it is, with the reason and exit 1. A plan written by hand, which the
# library reads, is not one --write wrote either; a directory or a FIFO is never opened.
printf 'keep me\n' >"$TMP/notes"
printf 'generic@0\n' >"$TMP/hand-plan"
{ head -n 1 "$TMP/plan"; head -c 70000 /dev/zero | tr '\0' '#'; echo; } >"$TMP/big-plan"
mkdir "$TMP/plan-dir"
mkfifo "$TMP/plan-fifo"
ln -s notes "$TMP/link-to-notes"
for f in notes hand-plan big-plan plan-dir plan-fifo link-to-notes; do
    ls -ld "$TMP/$f" >"$TMP/before"
    expect_status 1 "tune --reset refuses $f (not a plan file --write wrote)" -- \
        env CSUM_DISPATCH_FILE="$TMP/$f" "$CSUM" tune --reset
    expect_grep "$TMP/err" "not removing $TMP/$f: it " "tune --reset says why it leaves $f alone"
    expect_same "$(ls -ld "$TMP/$f" 2>&1)" "$(cat "$TMP/before")" "tune --reset leaves $f as it was"
done
expect_grep "$TMP/notes" "^keep me$" "tune --reset leaves the file a refused link names alone"
# Through a symbolic link of ours, --reset removes the plan file it names and keeps the link, as
# --write writes through it (the link was removed, the plan left on disk); another user's link
# is refused, and neither it nor its file is touched.
mkdir -p "$TMP/dotfiles"
cp "$TMP/plan" "$TMP/dotfiles/reset-plan"
ln -s dotfiles/reset-plan "$TMP/reset-link"
if chown -h 65534 "$TMP/reset-link" 2>/dev/null; then
    expect_status 1 "tune --reset refuses another user's symbolic link" -- \
        env CSUM_DISPATCH_FILE="$TMP/reset-link" "$CSUM" tune --reset
    expect_grep "$TMP/err" "^csum: tune: not removing $TMP/reset-link: it is a symbolic link owned by another user$" \
        "tune --reset says why it leaves another user's link alone"
    if [ -L "$TMP/reset-link" ] && [ -f "$TMP/dotfiles/reset-plan" ]; then
        ok "tune --reset leaves another user's link and its file"
    else fail "tune --reset leaves another user's link and its file"; fi
    rm "$TMP/reset-link"
    ln -s dotfiles/reset-plan "$TMP/reset-link"
else
    printf 'SKIPPED cli: tune --reset and another user'"'"'s symbolic link (needs root)\n'
fi
expect_status 0 "tune --reset through a symbolic link" -- \
    env CSUM_DISPATCH_FILE="$TMP/reset-link" "$CSUM" tune --reset
expect_grep "$TMP/out" "^removed $TMP/dotfiles/reset-plan (the link $TMP/reset-link stays, for the next 'csum tune --write'): " \
    "tune --reset names the file it removed and the link it kept"
if [ -L "$TMP/reset-link" ] && [ ! -e "$TMP/dotfiles/reset-plan" ]; then
    ok "tune --reset through a link removes the plan file and keeps the link"
else fail "tune --reset through a link removes the plan file and keeps the link"; fi
expect_status 0 "tune --reset through a dangling link" -- \
    env CSUM_DISPATCH_FILE="$TMP/reset-link" "$CSUM" tune --reset
expect_grep "$TMP/out" "^no plan file at $TMP/reset-link" "tune --reset through a dangling link says so"
rm "$TMP/reset-link"
expect_status 0 "tune --reset" -- env CSUM_DISPATCH_FILE="$TMP/plan" "$CSUM" tune --reset
expect_grep "$TMP/out" "^removed $TMP/plan" "tune --reset removes the plan file"
expect_status 0 "tune --reset again" -- env CSUM_DISPATCH_FILE="$TMP/plan" "$CSUM" tune --reset
expect_grep "$TMP/out" "^no plan file at $TMP/plan" "tune --reset without a file says so"
# --write replaces only a plan file (one --write wrote, or one written by hand), an empty
# file, or nothing: anything else there is refused before timing, even with --force, and left
# as it was (a file of notes and a FIFO were replaced by the plan; as root, a device node too).
if mknod "$TMP/plan-null" c 1 3 2>/dev/null; then devnode=plan-null
else devnode=; printf 'SKIPPED cli: tune --write over a device node (mknod needs root)\n'; fi
for f in notes plan-dir plan-fifo $devnode; do
    ls -ld "$TMP/$f" >"$TMP/before"
    expect_status 1 "tune --write --force refuses to replace $f" -- \
        "$CSUM" tune --quick -M generic --write "$TMP/$f" --force
    expect_grep "$TMP/err" "not replacing $TMP/$f: it is not a .*(nothing timed)" \
        "tune --write says why it leaves $f alone"
    expect_same "$(grep -c '^[0-9]' "$TMP/out")" 0 "tune --write refusing $f times nothing"
    expect_same "$(ls -ld "$TMP/$f" 2>&1)" "$(cat "$TMP/before")" "tune --write leaves $f as it was"
done
expect_grep "$TMP/notes" "^keep me$" "tune --write leaves a file of notes alone"
: >"$TMP/empty-plan"
for f in hand-plan empty-plan; do
    expect_status 0 "tune --write --force replaces $f" -- \
        "$CSUM" tune --quick -M generic --write "$TMP/$f" --force
    expect_grep "$TMP/$f" "^# csum dispatch plan, written by 'csum tune'" "tune --write wrote over $f"
done
rm -f "$TMP/plan-null" "$TMP/empty-plan"
expect_status 2 "tune --reset with another option" -- "$CSUM" tune --reset --quick
expect_status 2 "tune --write with no plan file and no FILE" -- env CSUM_DISPATCH_FILE= "$CSUM" tune --write --quick
expect_status 2 "tune --write ''" -- "$CSUM" tune --quick -M generic --write ""
# A FILE whose directory cannot be made or written is found before the timing, not after it.
printf 'x' >"$TMP/not-a-dir"
expect_status 1 "tune --write into a directory that cannot be made" -- \
    "$CSUM" tune --quick -M generic --write "$TMP/not-a-dir/plan"
expect_grep "$TMP/err" "cannot write $TMP/not-a-dir/plan: Not a directory (nothing timed)" \
    "tune --write says why it cannot write, before timing"
expect_same "$(grep -c '^[0-9]' "$TMP/out")" 0 "tune --write into no directory times nothing"
expect_status 2 "tune --cpu beyond the online CPUs" -- "$CSUM" tune --quick --cpu 4096
expect_grep "$TMP/err" "option --cpu takes a CPU number from 0 to [0-9]* (online CPUs), not '4096'" \
    "tune --cpu gives the range of CPU numbers"
# --write stores a plan for every program, checked against the plan in force: not under
# CSUM_DISPATCH, which sets this process's plan only (a plan that merely beat
# CSUM_DISPATCH=generic@0 was written over the compiled-in one), nor under a CSUM_CPU_DISABLE
# that hides a feature (the plan would leave out rows every other program runs). Refused
# before anything is timed; nothing is written.
expect_status 2 "tune --write under CSUM_DISPATCH is refused" -- \
    env CSUM_DISPATCH=generic@0 "$CSUM" tune --quick -M generic --write "$TMP/env-plan"
expect_grep "$TMP/err" "not writing $TMP/env-plan: CSUM_DISPATCH sets the plan in force" \
    "tune --write says why CSUM_DISPATCH stops it"
expect_same "$(grep -c '^[0-9]' "$TMP/out")" 0 "tune --write under CSUM_DISPATCH times nothing"
# A feature this CPU has: the first one a supported row requires (none: nothing to hide).
feature=$("$CSUM" impls | awk '/^csum_partial: product/ { on = 1; next } on && /^$/ { exit }
                               on && $2 == "yes" && NF >= 3 && $NF != "-" { print $NF; exit }')
if [ -n "$feature" ]; then
    expect_status 2 "tune --write under CSUM_CPU_DISABLE=$feature is refused" -- \
        env CSUM_CPU_DISABLE="$feature" "$CSUM" tune --quick -M generic --write "$TMP/env-plan"
    expect_grep "$TMP/err" "CSUM_CPU_DISABLE hides $feature from this process only" \
        "tune --write says which hidden feature stops it"
else
    printf 'SKIPPED cli: tune --write under CSUM_CPU_DISABLE (no CPU feature to hide here)\n'
fi
expect_same "$(ls "$TMP/env-plan" 2>&1 >/dev/null | grep -c 'No such file')" 1 \
    "tune --write under CSUM_DISPATCH or CSUM_CPU_DISABLE writes nothing"
# A name CSUM_CPU_DISABLE does not know hides nothing, and a malformed CSUM_DISPATCH is not the
# plan in force: neither stops --write from timing and checking the plan (whether it is then
# written depends on the timings).
env CSUM_CPU_DISABLE=no-such-feature CSUM_DISPATCH=no-such-row@0 \
    "$CSUM" tune --quick -M generic --write "$TMP/env-plan" >"$TMP/out" 2>"$TMP/err"
if grep -q '^plan: ' "$TMP/out" && ! grep -q 'CSUM_DISPATCH sets\|CSUM_CPU_DISABLE hides' "$TMP/err"; then
    ok "tune --write under a CSUM_CPU_DISABLE that hides nothing and a malformed CSUM_DISPATCH"
else
    fail "tune --write under a CSUM_CPU_DISABLE that hides nothing: $(head -c 300 "$TMP/err")"
fi
rm -f "$TMP/env-plan"
# The plan in force that tune prints and checks against is the automatic one: CSUM_IMPL picks
# one row for a process, and tune times every row itself.
auto_plan=$("$CSUM" impls | sed -n 's/^dispatch: //p')
CSUM_IMPL=generic "$CSUM" tune --quick -M generic >"$TMP/out" 2>&1
expect_grep "$TMP/out" "plan in force: $auto_plan (" "tune under CSUM_IMPL names the automatic plan it checks against"

# ---- pcap fix: an OUT that is not a regular file is written, never replaced ---------------
# A capture of one Ethernet frame whose IPv4 header checksum is bad (0x1234, should be 0xb7d4).
pcap_header='\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x01\x00\x00\x00'
pcap_frame='\x00\x00\x00\x00\x00\x00\x00\x00\x22\x00\x00\x00\x22\x00\x00\x00\x02\x00\x00\x00\x00\x01\x02\x00\x00\x00\x00\x02\x08\x00\x45\x00\x00\x14\x00\x00\x40\x00\x40\xfd\x12\x34\xc0\xa8\x00\x01\xc0\xa8\x00\xc7'
printf "$pcap_header$pcap_frame" >"$TMP/one.pcap"
printf "$pcap_header$pcap_frame$pcap_frame" | head -c -5 >"$TMP/cut.pcap" # the second frame cut
"$CSUM" pcap fix "$TMP/one.pcap" "$TMP/fixed.pcap" >/dev/null
same_file() { cmp -s "$1" "$2" && echo same || echo differs; }
# After '--', names that start with '-' are files; before it, options (refused when unknown).
cp "$TMP/one.pcap" "$TMP/-one.pcap"
csum_path=$(cd "$(dirname "$CSUM")" && pwd)/$(basename "$CSUM") # run from $TMP below
expect_status 2 "pcap verify: a name with a leading '-' is an option" -- sh -c "cd '$TMP' && exec '$csum_path' pcap verify -one.pcap"
expect_grep "$TMP/err" "unknown option '-one.pcap'" "pcap verify: ... and named as one"
expect_status 1 "pcap verify -- -one.pcap (its bad checksum found)" -- sh -c "cd '$TMP' && exec '$csum_path' pcap verify -- -one.pcap"
expect_status 0 "pcap fix -- -one.pcap -fixed.pcap" -- sh -c "cd '$TMP' && exec '$csum_path' pcap fix -- -one.pcap -fixed.pcap"
expect_same "$(same_file "$TMP/-fixed.pcap" "$TMP/fixed.pcap")" same "pcap fix -- IN OUT: the same fix"
expect_status 2 "pcap verify -- with two files" -- "$CSUM" pcap verify -- "$TMP/one.pcap" "$TMP/-one.pcap"
expect_grep "$TMP/err" "one FILE only" "pcap verify -- with two files: one FILE only"
# A FIFO: its reader gets the capture, the FIFO stays (replaced, it would leave the reader waiting).
mkfifo "$TMP/fifo"
timeout 20 cat "$TMP/fifo" >"$TMP/from-fifo" &
expect_status 0 "pcap fix into a FIFO" -- timeout 20 "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/fifo"
wait
expect_same "$(same_file "$TMP/from-fifo" "$TMP/fixed.pcap")" same "pcap fix into a FIFO: its reader gets the capture"
expect_same "$(stat -c %F "$TMP/fifo")" fifo "pcap fix into a FIFO: still a FIFO"
# On an error, what was written stays in the FIFO: the start of the fixed capture. The error
# comes after 1.25 MB, past the first read-ahead, so that some of it went out: a last record
# that claims 2 GiB (malformed, where a capture that ends inside a record is not).
printf "$pcap_header" >"$TMP/many.pcap"
printf "$pcap_frame%.0s" $(seq 25000) >>"$TMP/many.pcap"
"$CSUM" pcap fix "$TMP/many.pcap" "$TMP/many-fixed.pcap" >/dev/null
{ cat "$TMP/many.pcap"; printf '\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\x7f\xff\xff\xff\x7f'; } >"$TMP/broken.pcap"
mkfifo "$TMP/fifo2"
timeout 20 cat "$TMP/fifo2" >"$TMP/from-fifo" &
expect_status 2 "pcap fix of a malformed capture into a FIFO" -- timeout 20 "$CSUM" pcap fix "$TMP/broken.pcap" "$TMP/fifo2"
wait
written=$(wc -c <"$TMP/from-fifo")
expect_same "$([ "$written" -gt 0 ] && head -c "$written" "$TMP/many-fixed.pcap" | cmp -s - "$TMP/from-fifo" && echo yes)" yes \
    "pcap fix of a malformed capture into a FIFO: what was written stays ($written bytes)"
# Cut short in its last record (interrupted): a warning, and the reader gets the whole records.
timeout 20 cat "$TMP/fifo2" >"$TMP/from-fifo" &
expect_status 0 "pcap fix of a cut capture into a FIFO" -- timeout 20 "$CSUM" pcap fix "$TMP/cut.pcap" "$TMP/fifo2"
wait
expect_grep "$TMP/err" "warning: capture cut short at byte offset 82: " "pcap fix of a cut capture: the warning names the offset"
expect_same "$(same_file "$TMP/from-fifo" "$TMP/fixed.pcap")" same "pcap fix of a cut capture into a FIFO: its reader gets the whole records"
# A character device (made with mknod where allowed, else a symbolic link to /dev/null).
mknod "$TMP/null" c 1 3 2>/dev/null || ln -s /dev/null "$TMP/null"
expect_status 0 "pcap fix into a device" -- "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/null"
expect_same "$(stat -L -c %F "$TMP/null")" "character special file" "pcap fix into a device: still the device"
# An OUT that fails as it is written: the message names OUT and the cause, not the capture
# (which is fine) as malformed; a regular OUT is not left behind, nor its temporary file.
if [ -w /dev/full ]; then
    expect_status 2 "pcap fix into /dev/full" -- "$CSUM" pcap fix "$TMP/one.pcap" /dev/full
    expect_grep "$TMP/err" "^csum: pcap fix: /dev/full: cannot write the output: No space left on device" \
        "pcap fix into /dev/full: OUT and the cause named"
    expect_status 2 "pcap fix into - on /dev/full" -- sh -c "exec '$CSUM' pcap fix '$TMP/one.pcap' - >/dev/full"
    expect_grep "$TMP/err" "^csum: pcap fix: -: cannot write the output: No space left on device" \
        "pcap fix into - on /dev/full: OUT and the cause named"
    # verify's report: said once (by pcap, not again by main), with the flush's own cause.
    expect_status 2 "pcap verify into /dev/full" -- sh -c "exec '$CSUM' pcap verify --all '$TMP/one.pcap' >/dev/full"
    expect_same "$(cat "$TMP/err")" "csum: pcap verify: cannot write output: No space left on device" \
        "pcap verify into /dev/full: said once, with the cause"
fi
(trap '' XFSZ; ulimit -f 0; exec "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/too-big.pcap" 2>&1 >/dev/null) |
    cat >"$TMP/err" # through a pipe: the limit applies to a file on stderr too
expect_same "${PIPESTATUS[0]}" 2 "pcap fix beyond the file size limit exits 2"
expect_grep "$TMP/err" "^csum: pcap fix: $TMP/too-big.pcap: cannot write the output: File too large" \
    "pcap fix beyond the file size limit: OUT and the cause named"
if grep -q "malformed" "$TMP/err"; then fail "pcap fix beyond the file size limit: the capture called malformed"
else ok "pcap fix beyond the file size limit: the capture not called malformed"; fi
expect_same "$(ls -A "$TMP" | grep -c -e '^\.csum-tmp-' -e '^too-big')" 0 \
    "pcap fix beyond the file size limit: neither OUT nor a temporary file left"
# IN '-' with standard input closed: named, before the temporary OUT is created (it would take
# descriptor 0 and be read as the capture, "too short").
expect_status 2 "pcap fix - OUT with standard input closed" -- \
    sh -c "exec '$CSUM' pcap fix - '$TMP/from-closed.pcap' <&-"
expect_grep "$TMP/err" "^csum: pcap fix: -: Bad file descriptor" "pcap fix - OUT with standard input closed: said"
expect_same "$(ls -A "$TMP" | grep -c -e '^\.csum-tmp-' -e '^from-closed')" 0 \
    "pcap fix - OUT with standard input closed: neither OUT nor a temporary file left"
# OUT '-' on the file IN is (appended to, or opened read-write): refused as /dev/stdout is,
# before anything is written; it would read back what it wrote, and IN is never modified.
cp "$TMP/one.pcap" "$TMP/in-out.pcap"
for redirect in '>>' '1<>'; do
    for in in IN -; do
        what="pcap fix $in - ${redirect}IN"
        args="'$TMP/in-out.pcap'"
        [ "$in" = - ] && args="- <'$TMP/in-out.pcap'"
        expect_status 2 "$what" -- sh -c "exec timeout 20 '$CSUM' pcap fix $args - $redirect'$TMP/in-out.pcap'"
        expect_grep "$TMP/err" "refusing to overwrite the input" "$what: refused"
        expect_same "$(same_file "$TMP/in-out.pcap" "$TMP/one.pcap")" same "$what: IN unchanged"
        cp "$TMP/one.pcap" "$TMP/in-out.pcap"
    done
done
# Standard output by name: a pipe, then a regular file (behind the magic link /dev/fd/1).
"$CSUM" pcap fix "$TMP/one.pcap" /dev/fd/1 2>"$TMP/err" | cat >"$TMP/from-pipe"
expect_same "$(same_file "$TMP/from-pipe" "$TMP/fixed.pcap")" same "pcap fix into /dev/fd/1 on a pipe"
expect_grep "$TMP/err" "^frame 1: outer ipv4 checksum 0x1234 -> 0xb7d4" "pcap fix into /dev/fd/1: the changes listed on stderr"
expect_status 0 "pcap fix into /dev/fd/1 on a file" -- sh -c "'$CSUM' pcap fix '$TMP/one.pcap' /dev/fd/1 >'$TMP/stdout.pcap'"
expect_same "$(same_file "$TMP/stdout.pcap" "$TMP/fixed.pcap")" same "pcap fix into /dev/fd/1 on a file: the file gets the capture"
# A symbolic link to a regular file: the file is replaced (atomically), the link stays.
echo old >"$TMP/target.pcap"
ln -s target.pcap "$TMP/link.pcap"
expect_status 0 "pcap fix through a symbolic link" -- "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/link.pcap"
expect_same "$(stat -c %F "$TMP/link.pcap")" "symbolic link" "pcap fix through a symbolic link: the link stays"
expect_same "$(same_file "$TMP/target.pcap" "$TMP/fixed.pcap")" same "pcap fix through a symbolic link: its file replaced"
# A dangling link: the file it names is created, the link stays, as with the shell's '>' (the
# link itself was replaced by the capture). Two hops, the second relative to its directory.
mkdir "$TMP/captures"
ln -s new.pcap "$TMP/captures/next.pcap"
ln -s captures/next.pcap "$TMP/dangling.pcap"
expect_status 0 "pcap fix through a dangling symbolic link" -- "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/dangling.pcap"
expect_same "$(stat -c %F "$TMP/dangling.pcap") $(stat -c %F "$TMP/captures/next.pcap")" \
    "symbolic link symbolic link" "pcap fix through a dangling symbolic link: the links stay"
expect_same "$(same_file "$TMP/captures/new.pcap" "$TMP/fixed.pcap")" same \
    "pcap fix through a dangling symbolic link: the file it names created"
rm -r "$TMP/captures" "$TMP/dangling.pcap"
# A loop of links: refused before IN is read, nothing written (the last link was replaced).
ln -s loop-b.pcap "$TMP/loop-a.pcap"
ln -s loop-a.pcap "$TMP/loop-b.pcap"
expect_status 2 "pcap fix through a loop of symbolic links" -- "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/loop-a.pcap"
expect_egrep "$TMP/err" "^csum: pcap fix: $TMP/loop-a.pcap: cannot write: $ELOOP_TEXT$" \
    "pcap fix through a loop of symbolic links: says so"
expect_same "$(wc -c <"$TMP/out") $(stat -c %F "$TMP/loop-a.pcap") $(ls -A "$TMP" | grep -c '^\.csum-tmp-')" \
    "0 symbolic link 0" "pcap fix through a loop of symbolic links: nothing listed or written"
rm "$TMP/loop-a.pcap" "$TMP/loop-b.pcap"
# OUT a link (two hops, relative) to IN: refused, IN unchanged.
ln -s one.pcap "$TMP/to-one.pcap"
ln -s to-one.pcap "$TMP/to-to-one.pcap"
cp "$TMP/one.pcap" "$TMP/one.before"
expect_status 2 "pcap fix IN into a link to IN" -- "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/to-to-one.pcap"
expect_grep "$TMP/err" "refusing to overwrite the input" "pcap fix IN into a link to IN: refused"
expect_same "$(same_file "$TMP/one.pcap" "$TMP/one.before")" same "pcap fix IN into a link to IN: IN unchanged"
rm "$TMP/to-one.pcap" "$TMP/to-to-one.pcap" "$TMP/one.before"
# Another user's link is not followed, whatever it names: root's 'csum pcap fix IN /tmp/x.pcap'
# through a /tmp/x.pcap -> /etc/shadow that someone else made renamed the capture over
# /etc/shadow. Only root can give a link to another user; also through a link of ours.
echo secret >"$TMP/shadow"
ln -s shadow "$TMP/planted.pcap"
ln -s planted.pcap "$TMP/via.pcap"
if [ "$(id -u)" -eq 0 ] && chown -h 65534 "$TMP/planted.pcap" 2>/dev/null; then
    expect_status 2 "pcap fix refuses another user's symbolic link" -- \
        "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/planted.pcap"
    expect_grep "$TMP/err" "^csum: pcap fix: $TMP/planted.pcap: cannot write: it is a symbolic link owned by another user$" \
        "pcap fix says why it refused the link"
    expect_status 2 "pcap fix refuses a link of ours to another user's" -- \
        "$CSUM" pcap fix "$TMP/one.pcap" "$TMP/via.pcap"
    expect_grep "$TMP/err" "cannot write: it leads to a symbolic link owned by another user$" \
        "pcap fix says why it refused the link it leads to"
    expect_same "$(cat "$TMP/shadow") $(stat -c %F "$TMP/planted.pcap")" "secret symbolic link" \
        "pcap fix through another user's link: nothing replaced"
else
    printf 'SKIPPED cli: pcap fix and another user'"'"'s symbolic link (needs root)\n'
fi
rm "$TMP/shadow" "$TMP/planted.pcap" "$TMP/via.pcap"

# ---- pcap verify --json: file names that are not UTF-8 -----------------------------------
# The document stays UTF-8: each byte outside well-formed UTF-8 is \udcXX, so that json.loads
# gives what os.fsdecode (surrogateescape) gives. Names with a byte that is never UTF-8, an
# encoded surrogate, an overlong form, a sequence cut short, one past U+10FFFF, valid UTF-8.
if command -v python3 >/dev/null 2>&1; then
    if python3 - "$CSUM" "$TMP/one.pcap" "$TMP" >"$TMP/out" 2>&1 <<'PY'
import json, os, subprocess, sys
csum, capture, tmp = sys.argv[1], sys.argv[2], os.fsencode(sys.argv[3])
names = [b"bad\xffname", b"\xed\xa0\x80", b"\xc0\xaf", b"\xe2\x82A", b"\xf4\x90\x80\x80",
         b"\xf0\x9f\x98\x80 caf\xc3\xa9", b"\xef\xbf\xbf\xc2", b'"\\\x01']
for name in names:
    path = tmp + b"/" + name + b".pcap"
    with open(capture, "rb") as f, open(path, "wb") as out:
        out.write(f.read())
    for p in (path, path + b".missing"):  # walked, and the document of a file not found
        r = subprocess.run([csum, "pcap", "verify", "--json", p], capture_output=True)
        doc = json.loads(r.stdout.decode("utf-8"))  # strict: the whole document is UTF-8
        assert doc["file"] == p.decode("utf-8", "surrogateescape"), (p, doc["file"])
        assert doc["file"].encode("utf-8", "surrogateescape") == p
PY
    then ok "pcap verify --json: a file name that is not UTF-8 as \\udcXX"
    else fail "pcap verify --json: a file name that is not UTF-8 ($(tail -n 3 "$TMP/out"))"; fi
else
    echo "SKIPPED cli: pcap verify --json of file names (python3 not found)"
fi

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
