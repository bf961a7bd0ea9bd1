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

# Tamper with the generated section: change one figure in each of its tables (machines,
# headline, h40), or add a line if it has none; each README must be refused.
python3 - README.md "$tmp" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
a = text.index("<!-- results:begin")
b = text.index("<!-- results:end -->")
body = text[a:b]
tables = [m for m in re.finditer(r"(?m)^\|.*\n(?:\|.*\n)+", body)]
if not tables:
    tables = [None]
for k, tab in enumerate(tables):
    if tab is None:
        new = body + "| 40 B | latency | 1.0 |\n"
    else:
        rows = tab.group(0)
        m = re.search(r"\d", rows[rows.index("\n", rows.index("\n") + 1):])  # past header and rule
        at = rows.index("\n", rows.index("\n") + 1) + m.start() if m else None
        if at is None:
            continue
        rows = rows[:at] + str((int(rows[at]) + 1) % 10) + rows[at + 1:]
        new = body[:tab.start()] + rows + body[tab.end():]
    open("%s/README.%d.md" % (sys.argv[2], k), "w").write(text[:a] + new + text[b:])
PY
for readme in "$tmp"/README.*.md; do
    if python3 scripts/results.py check --readme "$readme" >/dev/null 2>&1; then
        fail "results: a README with a hand-edited figure passed the check ($(basename "$readme"))"
    else
        ok "results: a README with a hand-edited figure is refused ($(basename "$readme"))"
    fi
done

# The load column says what made a run busy: a run whose batches were preempted but that
# hardly waited for its CPU is not "waited 0 %".
check "results: a run made busy by preempted batches says so in the README" -- \
    env PYTHONDONTWRITEBYTECODE=1 python3 - <<'PY'
import sys
sys.path.insert(0, "scripts")
import results
doc = {"machine": {"cpu": "Test CPU", "date": "2026-11-26 00:00 UTC"}, "method": {},
       "load": {"busy": True, "wait_ms": 16.8, "elapsed_s": 5.0, "batches": 765, "preempted": 45},
       "summary": {"against": [], "rows": []}, "results": []}
line = [l for l in results.section([dict(doc=doc, dir="docs/results/test", note="")]).splitlines()
        if l.startswith("| **Test CPU**")][0]
assert "busy: 45 of 765 timed batches (6 %) preempted" in line and "waited" not in line, line
PY
finish results
