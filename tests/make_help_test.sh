#!/usr/bin/env bash
# `make help` names exactly the Makefile's targets (all, build and help aside: plain `make`
# is its first line), so a target added, renamed or removed shows up here until help follows.
# Usage: tests/make_help_test.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"

targets=$(sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' "$root/Makefile" | grep -vx 'all\|build\|help' | sort -u)
listed=$(make --no-print-directory -s -C "$root" help | sed -n 's/^  make \([a-z][a-z0-9-]*\).*/\1/p' | sort -u)
missing=$(comm -23 <(echo "$targets") <(echo "$listed"))
unknown=$(comm -13 <(echo "$targets") <(echo "$listed"))
if [ -z "$targets" ]; then
    fail "make help: found no targets in the Makefile"
elif [ -z "$missing$unknown" ]; then
    ok "make help: lists all $(echo "$targets" | wc -l) targets"
else
    fail "make help: missing: $(echo $missing); not a target: $(echo $unknown)"
fi
finish make_help_test
