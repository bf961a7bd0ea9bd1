#!/usr/bin/env bash
# The README's Results section is generated from the runs committed under docs/results/: fail
# if they disagree (someone typed a figure, or committed a run without `make results`), if a
# committed run lacks its files or plots, or if it is a --quick run. Then show that the check
# can fail: a README with one figure changed must be refused.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
if ! command -v python3 >/dev/null; then
    echo "SKIPPED results: python3 not found"
    finish results
    exit $?
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "results: README's Results section = what docs/results/ gives" -- python3 scripts/results.py check

# Tamper with the generated section: change its first digit, or add a line if it has none.
python3 - README.md "$tmp/README.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
a = text.index("<!-- results:begin")
b = text.index("<!-- results:end -->")
body = text[a:b]
m = re.search(r"\| (\d)", body)
if m:
    body = body[:m.start(1)] + str((int(m.group(1)) + 1) % 10) + body[m.end(1):]
else:
    body += "| 40 B | latency | 1.0 |\n"
open(sys.argv[2], "w").write(text[:a] + body + text[b:])
PY
if python3 scripts/results.py check --readme "$tmp/README.md" >/dev/null 2>&1; then
    fail "results: a README with a hand-edited figure passed the check"
else
    ok "results: a README with a hand-edited figure is refused"
fi
finish results
