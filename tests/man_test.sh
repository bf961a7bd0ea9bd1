#!/usr/bin/env bash
# csum(1) keeps up with the tool: every command that `csum --help` lists, every option that
# `csum --help` and `csum COMMAND --help` print, and every environment variable the library,
# the tool or the lab reads is in the manual; the manual carries the tool's version and
# formats without a groff warning.
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
    for opt in $( { "$csum" --help; "$csum" "$cmd" --help; } |
                 grep -oE '(^|[ ,|[])--?[A-Za-z][A-Za-z0-9-]*' | sed 's/^[ ,|[]//' | sort -u); do
        documented_option "$opt" || missing+=("option $opt (csum $cmd)")
    done
done
for var in $(grep -rhoE '(getenv|env)\("[A-Z_]+"\)' "$root/src" "$root/cli" "$root/bench" |
             sed 's/.*("\(.*\)")/\1/' | sort -u); do
    documented "^\.B .*\b$var\b" || missing+=("environment variable $var")
done
if [ ${#missing[@]} -eq 0 ]; then
    ok "man: csum.1 documents $(echo $commands | wc -w) commands, their options, the environment"
else
    fail "man: csum.1 lacks: $(printf '%s; ' "${missing[@]}")"
fi

want=$("$csum" --version | awk '{ print $2 }')
if grep -q "^\.TH CSUM 1 .*\"csum $want\"" "$page"; then ok "man: version $want"; else fail "man: .TH does not say csum $want"; fi
if command -v groff >/dev/null; then
    check "man: groff -man -ww formats it without warnings" -- \
        sh -c "out=\$(groff -man -ww -z -Tutf8 '$page' 2>&1) && [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
fi
finish man_test
