#!/usr/bin/env bash
# csum(1) keeps up with the tool: every command that `csum --help` lists, every option that
# `csum --help`, `csum COMMAND --help` and `csum COMMAND SUBCOMMAND --help` print, every table
# of the lab and which of them take each option that has a list of tables (-l, -a, -M,
# --latency, --throughput), and every environment variable the library, the tool or the lab
# reads is in the manual, and its NOTES name every checksum function of csum.h; the manual
# carries the tool's version and formats without a groff warning.
# Usage: tests/man_test.sh BUILD_DIR
set -u
build=${1:?usage: man_test.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
page=$build/csum.1
csum=$build/csum
[ -f "$page" ] || { fail "man: $page not generated"; finish man_test; exit 1; }
text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page") # roff source, with \- and font changes undone

documented() { grep -q -- "$1" <<<"$text"; }
# An option counts when a bold-font macro line (.B, .BI, .BR, .RB, .IB) or a subsection names it.
documented_option() { grep -qE -- "^\.(B|BI|BR|RB|IB|SS)( |.*[ \"\[])$1([^A-Za-z0-9-]|$)" <<<"$text"; }
missing=()

commands=$("$csum" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 } on { print $1 }')
[ -n "$commands" ] || fail "man: no commands found in 'csum --help'"
for cmd in $commands; do
    documented "^\.SS csum $cmd\b" || missing+=("section for 'csum $cmd'")
    # Options: -x or --long-name at the start of a help line or after a space, comma, | or [.
    # A command with subcommands (csum pcap verify|fix) has their options in their own --help.
    subs=$("$csum" "$cmd" --help | sed -nE "s/^(Usage:)? +csum $cmd ([a-z]+) .*/\2/p" | sort -u)
    for opt in $( { "$csum" --help; "$csum" "$cmd" --help
                    for sub in $subs; do "$csum" "$cmd" "$sub" --help; done; } |
                 grep -oE '(^|[ ,|[])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,|[]//' | sort -u); do
        documented_option "$opt" || missing+=("option $opt (csum $cmd)")
    done
done
# The lab's tables, and which take each option, as `csum bench --help` says (it prints them from
# the lab's own table): each has its entry in the manual, which has no other. A table's line
# starts with its name (the further lines of its description are indented).
bench_text=$(awk '/^\.SS csum bench/ { on = 1; next } /^\.SS / { on = 0 } on' <<<"$text")
help_tables=$("$csum" bench --help | awk '/^Tables/ { on = 1; next } on && /^$/ { exit } on && /^  [^ ]/ { print $1 }')
[ -n "$help_tables" ] || fail "man: no tables found in 'csum bench --help'"
man_tables=$(awk '/^Tables / { on = 1; next } /^Options:/ { on = 0 }
                  on && prev ~ /^\.TP/ && /^\.B [a-z0-9]+$/ { print $2 } { prev = $0 }' <<<"$bench_text")
for t in $(comm -23 <(sort <<<"$help_tables") <(sort <<<"$man_tables")); do
    missing+=("bench table $t")
done
for t in $(comm -13 <(sort <<<"$help_tables") <(sort <<<"$man_tables")); do
    missing+=("no bench table $t (the manual lists one the lab does not have)")
done
# Every option whose help has a "tables:" list (-l, -a, -M, --latency, --throughput): the list,
# joined where the help wraps it, must be the manual entry's.
table_opts=$("$csum" bench --help | awk '/^  -/ { o = $1 } /^ +tables: / { print o }')
for need in -l -a -M --latency --throughput; do
    grep -qx -- "$need" <<<"$table_opts" || fail "man: no 'tables:' line for $need in 'csum bench --help'"
done
for opt in $table_opts; do
    takes=$("$csum" bench --help | awk -v o="$opt" '$1 == o { on = 1; next }
                                                    grab && /^ +[a-z]/ { sub(/^ +/, " "); t = t $0; next }
                                                    grab || (on && /^  -/) { exit }
                                                    on && /^ +tables: / { sub(/^ +tables: /, ""); t = $0; grab = 1 }
                                                    END { print t }')
    entry=$(awk -v o="$opt" '($1 == ".BI" || $1 == ".B") && $2 == o { on = 1; next } on && /^\.TP/ { exit } on' <<<"$bench_text" | tr '\n' ' ')
    if [ -z "$takes" ]; then
        fail "man: no 'tables:' line for $opt in 'csum bench --help'"
    elif ! grep -qF -- "tables: $takes." <<<"$entry"; then
        missing+=("bench $opt: 'tables: $takes.' (as 'csum bench --help' says)")
    fi
done
for var in $(grep -rhoE '(getenv|env)\("[A-Z_]+"\)' "$root/src" "$root/cli" "$root/bench" |
             sed 's/.*("\(.*\)")/\1/' | sort -u); do
    documented "^\.B .*\b$var\b" || missing+=("environment variable $var")
done
if [ ${#missing[@]} -eq 0 ]; then
    ok "man: csum.1 documents $(echo $commands | wc -w) commands, their options, the lab's tables, the environment"
else
    fail "man: csum.1 lacks: $(printf '%s; ' "${missing[@]}")"
fi

# NOTES names every checksum function of the header (the table and dispatch ones as groups):
# a reader of the manual learns that csum_iov or csum_ipv4_header_batch exists.
notes=$(sed -n '/^\.SH NOTES/,/^\.SH /p' <<<"$text" | tr -s ' \n' '  ')
unnamed=()
for fn in $(sed -nE 's/^CSUM_API .*[ *](csum_[a-z0-9_]+)\(.*/\1/p' "$root/include/csum.h" |
            grep -vE '^csum_(impl|dispatch|copy_impl|copy_nontemporal|version)'); do
    grep -qE "(^|[^a-z0-9_])$fn([^a-z0-9_]|$)" <<<"$notes" || unnamed+=("$fn")
done
if [ ${#unnamed[@]} -eq 0 ]; then
    ok "man: NOTES names every checksum function of csum.h"
else
    fail "man: NOTES does not name: ${unnamed[*]}"
fi

want=$("$csum" --version | awk '{ print $2 }')
if grep -q "^\.TH CSUM 1 .*\"csum $want\"" "$page"; then ok "man: version $want"; else fail "man: .TH does not say csum $want"; fi
if command -v groff >/dev/null; then
    check "man: groff -man -ww formats it without warnings" -- \
        sh -c "out=\$(groff -man -ww -z -Tutf8 '$page' 2>&1) && [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
fi
finish man_test
