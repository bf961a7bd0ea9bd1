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

# The headline's cells are the committed reports' own: each machine's csum_partial ticks, ratios
# and % of roofline equal its report.md summary (the README rounded a summary figure rounded
# once already: 59.46 % became 59.5, then 60, where the report says 59).
check "results: README's headline cells = each committed report.md's summary" -- \
    env PYTHONDONTWRITEBYTECODE=1 python3 - <<'PY'
import glob, json, re, sys
sys.path.insert(0, "scripts")
import results
ROW = r"\| \d+ (B|KiB|MiB) \| (latency|throughput) \|"
def table(text):
    head = [l for l in text.splitlines() if l.startswith("| length | mode |")][0]
    return ([c.strip() for c in head.strip("|").split("|")],
            [[c.strip() for c in l.strip("|").split("|")] for l in text.splitlines() if re.match(ROW, l)])
readme = open("README.md").read()
cols, rows = table(readme[readme.index("<!-- results:begin"):readme.index("<!-- results:end -->")])
bad = []
for d in sorted(glob.glob("docs/results/*/")):
    doc = json.load(open(d + "results.json"))
    report = open(d + "report.md").read()
    rcols, rrows = table(report.split("## Summary")[1].split("Targets at a glance")[0])
    at = cols.index("%s: csum_partial" % results.machine_name(doc["machine"]))
    against = doc["summary"]["against"]
    for rr in rrows:
        rm = next(r for r in rows if r[:2] == rr[:2])
        want = [rr[rcols.index("csum_partial")]] + [rr[rcols.index(o) + 1] for o in against] \
            + [rr[rcols.index("% of roofline")]]
        want = ["–" if w == "" or w.startswith("refused") else w for w in want]
        if rm[at:at + len(want)] != want:
            bad.append("%s %s %s: README %s, report %s" % (d, rr[0], rr[1], rm[at:at + len(want)], want))
assert rows and not bad, "\n".join(bad) or "no headline rows"
PY

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

# The load column says what made a run busy. busy_reason DESCRIPTION LOAD WANT [ABSENT...]: a
# run with the JSON load LOAD has WANT in its README row, and none of ABSENT.
busy_reason() {
    local what=$1; shift
    check "$what" -- env PYTHONDONTWRITEBYTECODE=1 python3 - "$@" <<'PY'
import json, sys
sys.path.insert(0, "scripts")
import results
load, want, absent = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3:]
doc = {"machine": {"cpu": "Test CPU", "date": "2026-11-27 00:00 UTC"}, "method": {},
       "load": load, "summary": {"against": [], "rows": []}, "results": []}
line = [l for l in results.section([dict(doc=doc, dir="docs/results/test", note="")]).splitlines()
        if l.startswith("| **Test CPU**")][0]
assert want in line and not any(a in line for a in absent), line
PY
}
# Batches preempted, though it hardly waited for its CPU: not "waited 0 %".
busy_reason "results: a run made busy by preempted batches says so in the README" \
    '{"busy": true, "wait_ms": 16.8, "elapsed_s": 5.0, "batches": 765, "preempted": 45}' \
    "busy: 45 of 765 timed batches (6 %) preempted" "waited"
# On a VM whose hypervisor took its CPU: the guest's own counters stay 0, the steal says it.
busy_reason "results: a run made busy by steal time says so in the README" \
    '{"busy": true, "wait_ms": 0.0, "steal_ms": 2400.0, "elapsed_s": 60.0, "batches": 765, "preempted": 0}' \
    "busy: the hypervisor took 4 % of its CPU (steal)" "waited"
# Waiting for its CPU over 1 % of the time (2 % here), and the column names nothing it did not see.
busy_reason "results: a run made busy by waiting for its CPU says so in the README" \
    '{"busy": true, "wait_ms": 1200.0, "steal_ms": 0.0, "elapsed_s": 60.0, "batches": 765, "preempted": 0}' \
    "busy: waited 2 % of the time for its CPU" "steal" "preempted"
# scripts/tune_results.py (make tune-results) against a stand-in csum with known outputs: it
# keeps every output, reads tune's machine line and proposed plan, computes csum_partial /
# linux-6.8 per mode from the short table's CSV, picks the plan that loses at fewest lengths,
# and gates the suggested row by the ISAs of that plan's rows.
stub="$tmp/stub"
mkdir -p "$stub"
cat > "$stub/csum" <<'SH'
#!/bin/sh
case "$1" in
tune)
    echo "csum tune: Test CPU (family 99 model 7), pinned to CPU 1, 2026-11-26 00:00 UTC; gcc 12.2.0; plan in force: x86-scalar@0,avx2@256 (compiled-in defaults: by features (AVX2): test)"
    echo "plan: x86-scalar@0,avx2@192  (cost 1.00 over 2 lengths)"
    echo "(use it now with CSUM_DISPATCH='x86-scalar@0,avx2@192', or store it with 'csum tune --write')" ;;
bench)
    echo "short table under $CSUM_DISPATCH" >&2
    echo "table,impl,variant,mode,len,align,ticks_median,noisy"
    if [ "$CSUM_DISPATCH" = "x86-scalar@0,avx2@256" ]; then a=9; b=11; else a=9; b=9; fi
    for mode in latency throughput; do
        echo "short,csum_partial,,$mode,1,0,$a,0"; echo "short,linux-6.8,,$mode,1,0,10,0"
        echo "short,csum_partial,,$mode,2,0,$b,0"; echo "short,linux-6.8,,$mode,2,0,10,0"
    done ;;
esac
SH
chmod +x "$stub/csum"
if PYTHONDONTWRITEBYTECODE=1 python3 scripts/tune_results.py "$stub" --runs 2 --dest "$tmp/tune" \
        >"$tmp/tune.out" 2>"$tmp/tune.err"; then
    ok "results: tune_results.py runs against a stand-in csum"
else
    fail "results: tune_results.py failed: $(tail -3 "$tmp/tune.err")"
fi
expect_count() { # what pattern n
    local n
    n=$(find "$tmp/tune" -name "$2" | wc -l)
    if [ "$n" -eq "$3" ]; then ok "results: tune_results.py keeps $1"; else fail "results: tune_results.py kept $n $1, not $3"; fi
}
expect_count "both tune outputs" 'tune-*-run[12].txt' 2
expect_count "the short table under both plans, text and CSV" 'short-*-x86-scalar-0_avx2-*.*' 4
for want in "x86-scalar@0,avx2@256 (in force)      *1.10 at 2 B, 1.00, 1 " \
            "best on the short table .*: x86-scalar@0,avx2@192$" \
            "no measured row for this CPU class yet" \
            '^      CSUM_ISA_MASK(avx2),$' \
            '"Test CPU (family 99 model 7), measured [0-9-]* with csum tune and csum bench short" },'; do
    if grep -q -- "$want" "$tmp/tune.out"; then
        ok "results: tune_results.py prints /$want/"
    else
        fail "results: tune_results.py does not print /$want/: $(cat "$tmp/tune.out")"
    fi
done
# make results publishes full runs only: a run of one table with -M (what
# BENCH_ARGS="lenalign -M x86-herbert" makes) is refused, and so is an older run without its
# command that lacks tables, and a run under a forced plan (CSUM_COPY_IMPL here; CSUM_DISPATCH,
# a plan file); the whole lab (with --cpu, --noise, ... that change no case) is published. In a copy of the tree: a publish that should have been refused writes there.
tree="$tmp/tree"
mkdir -p "$tree/scripts" "$tree/docs"
cp scripts/results.py "$tree/scripts/"
cp README.md "$tree/"
cp -r docs/results "$tree/docs/"
run() { # run DIR COMMAND|- TABLES...: a minimal lab run
    local dir=$1 command=$2; shift 2
    mkdir -p "$dir"
    python3 - "$dir" "$command" "$@" <<'PY'
import json, os, sys
d, command, tables = sys.argv[1], sys.argv[2], sys.argv[3:]
doc = {"machine": {"cpu": "Test CPU", "vendor": "Test", "family": 99, "model": 7,
                   "date": "2026-11-27 00:00 UTC", "tick": "CNTVCT ticks",
                   "dispatch_source": "compiled-in defaults: for its features",
                   "copy_dispatch_source": os.environ.get("COPY_SOURCE", "compiled-in defaults")},
       "method": {"quick": False}, "load": {"busy": False},
       "summary": {"against": [], "rows": []},
       "results": [{"table": t, "impl": "generic", "variant": "", "mode": "latency", "len": 40,
                    "ticks_median": 1.0} for t in tables]}
if command != "-":
    doc["command"] = command
json.dump(doc, open(d + "/results.json", "w"))
for f in ("report.md", "results.csv"):
    open(d + "/" + f, "w").write("x\n")
PY
}
tables="lenalign thrash mixed sizes short h40 copy memops iov batch pcap"
run "$tmp/partial" "csum bench --out $tmp/partial lenalign -M x86-herbert" lenalign
run "$tmp/old" - lenalign sizes
run "$tmp/full" "csum bench --out $tmp/full --cpu 1 --noise 5" $tables
COPY_SOURCE="CSUM_COPY_IMPL" run "$tmp/forced" "csum bench --out $tmp/forced" $tables
for r in partial old forced; do
    why="is not a full run"
    [ $r = forced ] && why="csum_partial_copy's plan came from CSUM_COPY_IMPL, not from the compiled-in defaults"
    if python3 "$tree/scripts/results.py" publish "$tmp/$r" >"$tmp/out" 2>&1; then
        fail "results: publish took a run that is not the whole lab under the defaults ($r)"
    elif grep -q "$why" "$tmp/out" && [ ! -e "$tree/docs/results/test-cpu-family-99-model-7" ]; then
        ok "results: publish refuses a run that is not the whole lab under the defaults ($r)"
    else
        fail "results: publish of $r: $(head -c 300 "$tmp/out")"
    fi
done
if python3 "$tree/scripts/results.py" publish "$tmp/full" >"$tmp/out" 2>&1 &&
   [ -f "$tree/docs/results/test-cpu-family-99-model-7/results.json" ]; then
    ok "results: publish takes the whole lab, with options that change no case"
    check "results: the README names every committed run's clock (an arm64 run's CNTVCT)" -- \
        grep -q "Median TSC ticks or CNTVCT ticks per call" "$tree/README.md"
else
    fail "results: publish of a full run: $(head -c 300 "$tmp/out")"
fi

finish results
