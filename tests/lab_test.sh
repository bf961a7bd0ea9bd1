#!/usr/bin/env bash
# The lab's options, output directories and report, from the command line: every numeric
# option is bounded and refused (exit 2, a message naming the range) before any timing; an
# earlier run's directory is never overwritten; a run's JSON carries the spread and load of
# its results and the summary, and its report opens with the machine line and the summary.
# Usage: tests/lab_test.sh BUILD_DIR
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
build=${1:?usage: lab_test.sh BUILD_DIR}
csum="$build/csum"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# refused "what" "message regex" -- args...: exit 2, the message and the --help hint, no table
# printed (with with_env="VAR=VALUE ..." before it: run in that environment).
refused() {
    local what=$1 want=$2 status; shift 3
    env ${with_env:-} "$csum" bench "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ "$status" -eq 2 ] && grep -qE -- "$want" "$tmp/err" && ! grep -q "^==" "$tmp/out" &&
       grep -q "^Try 'csum bench --help'.\$" "$tmp/err"; then
        ok "lab: refuses $what"
    else
        fail "lab: $what: exit $status, stderr: $(head -c 300 "$tmp/err")"
    fi
}
refused "-c 0" "option -c takes a count from 1 to 1000000000, not '0'" -- sizes -c 0
refused "a count that would run for hours" "from 1 to 1000000000" -- sizes -c 99999999999999
refused "a negative count" "option -c takes a count" -- sizes -c -5
refused "a length that cannot be allocated" "option -l takes a length in bytes from 0 to" -- sizes -l 20000000000
refused "an alignment above 63" "option -a takes an alignment" -- sizes -a 64
refused "an empty lenalign case set" "lenalign has no case with -l 40 -a 63" -- lenalign -l 40 -a 63
refused "-l for a table that ignores it" "h40 does not take -l" -- h40 -l 100
refused "--dst-align without the copy table" "--dst-align is the copy table's" -- sizes --dst-align 2
# Every other option a named table would ignore is refused too, not dropped: -M for a table
# that times its own subjects, a mode the table does not time, an option of another table.
refused "-M for a table with its own subjects" "batch does not take -M \(it measures its own subjects\)" -- batch -M generic
refused "--latency for a throughput-only table" "copy times throughput mode only, not latency" -- copy --latency
refused "--throughput for thrash" "thrash times latency mode only, not throughput" -- thrash --throughput
refused "-I without thrash" "-I is the thrash table's: name it too" -- sizes -I
refused "--zero-sum without h40" "--zero-sum is the h40 table's" -- sizes --zero-sum
refused "--busy without copy" "--busy is the copy table's" -- sizes --busy
refused "--zero-sum with --latency alone (h40 would time nothing)" "--zero-sum times no latency column" -- h40 --zero-sum --latency
check "lab: h40 --zero-sum says why its latency columns are empty" -- \
    sh -c '"$1" bench --quick h40 --zero-sum -M generic -c 1000 2>&1 | grep -q "note: --zero-sum: the latency columns are not timed"' _ "$csum"
check "lab: short -l names its one length, not a range of one" -- \
    sh -c '"$1" bench --quick short -l 40 --latency 2>&1 | grep -q "^== short: latency mode, at 40 B (-l): median ticks per call"' _ "$csum"
# The text a reviewer pastes names the build, as the report's machine line does.
check "lab: the text's first lines name the build" -- \
    sh -c '"$1" bench --quick h40 -M generic -c 1000 2>&1 | grep -qE "^build: csum [0-9]+\.[0-9]+\.[0-9]+ \([^)]+\), [^,]+, [^,]+, flags "' _ "$csum"
check "lab: h40 says what its fenced column times" -- \
    sh -c '"$1" bench --quick h40 -M generic -c 1000 2>&1 | grep -q "note: fenced = independent calls, each between two fences"' _ "$csum"
# ... and explains only the columns it has: no latency note under --throughput, and the
# other way round.
check "lab: h40 --throughput explains the throughput column, not the latency ones" -- \
    sh -c '"$1" bench --quick h40 --throughput -M generic -c 1000 >"$2" 2>&1 &&
           grep -q "note: throughput = independent calls" "$2" && ! grep -q "latency = " "$2"' _ "$csum" "$tmp/h40-throughput"
check "lab: h40 --latency explains the latency columns, not the throughput one" -- \
    sh -c '"$1" bench --quick h40 --latency -M generic -c 1000 >"$2" 2>&1 &&
           grep -q "note: latency = each result" "$2" && ! grep -q "throughput = " "$2"' _ "$csum" "$tmp/h40-latency"
check "lab: thrash says what len its results carry" -- \
    sh -c '"$1" bench --quick thrash -M generic 2>&1 | grep -q "note: len in the results (JSON, CSV) = 62, the two lengths. mean (half the calls take 100 bytes, half 24); align = the first.s, 0"' _ "$csum"
# A -M name that none of the tables named times is refused, not dropped: h40's 40-byte
# subjects elsewhere (sizes timed nothing, exit 0), csum_partial subjects in copy (which times
# copy rows), copy rows in h40; and short, whose subjects are timed together, takes at most 8.
refused "-M naming an h40 subject for sizes" "-M inline-40: sizes does not time it \\(h40 does" -- sizes -l 40 -M inline-40
refused "-M naming an h40 subject for copy" "-M inline-40: copy does not time it" -- copy -l 64 -M generic,inline-40
refused "-M naming a copy row for h40" "-M csum_partial_copy: h40 does not time it \\(copy does" -- h40 -M csum_partial_copy
refused "-M naming an h40 subject for two tables" "-M inline-40: none of sizes, short times it" -- sizes short -l 40 -M inline-40
many=$("$csum" bench --list | awk '/^Subjects/ { on = 1; next } /^[^ ]/ { on = 0 } on && /^  [^ ]/ && !/REFUSED/ { print $1 }' |
       head -n 9 | paste -sd, -)
if [ "$(printf '%s\n' "$many" | awk -F, '{ print NF }')" -eq 9 ]; then
    refused "short -M with more subjects than it times together" "short times at most 8 subjects together" -- short -l 40 -M "$many"
else
    printf 'SKIPPED lab: short -M with 9 subjects (this CPU has fewer)\n'
fi
refused "--baseline without lenalign" "--baseline is the lenalign table's" -- sizes --baseline generic
# An option given twice would drop its first value without a word ('-l 40 -l 100' timed 100
# bytes alone): refused.
refused "--out followed by an option" "option --out needs a value, not the option '--quick'" -- sizes --out --quick
refused "-M followed by an option" "option -M needs a value, not the option '--latency'" -- sizes -M --latency
refused "-l given twice" "option -l given twice \('40', then '100'\): it takes one value" -- sizes -l 40 -l 100
refused "-M given twice" "option -M given twice .* \(a list: -M IMPL,IMPL\)" -- sizes -M generic -M csum_partial
# -M with an empty name ('-M generic,' dropped it without a word, '-M ,' said "unknown
# implementation ''") or a name twice ('-M mine,mine' for 'mine,linux-6.8' timed one subject,
# and short showed no ratio); a number that is not plain digits (strtol took ' 5' and '+5').
for m in , generic, ,generic generic,,csum_partial; do
    refused "-M '$m'" "option -M: an empty name in '$m' \(names are separated by single commas\)" -- sizes -M "$m"
done
refused "-M naming a subject twice" "option -M names 'generic' twice in 'generic,csum_partial,generic'" -- \
    short -M generic,csum_partial,generic
long=$(printf 'x%.0s' $(seq 100))
refused "-M with a name longer than any, named whole" "unknown implementation '$long' \\(see" -- sizes -M "generic,$long"
for v in " 5" +5 "5 " 12x 0x10; do
    refused "-l '$v'" "option -l takes a length in bytes from 0 to 1073741824, not '${v/+/\\+}'" -- sizes -l "$v"
done
# '--' ends the options, as in csum sum, verify and pcap ("unknown option '--'" before): tables
# only after it, an option there refused by name.
refused "an option after --" "'-l' after '--' is not a table \(options go before '--'\)" -- sizes -- -l 40
refused "an unknown table after --" "unknown table 'bogus'" -- -- bogus
check "lab: -- ends the options, tables after it" -- sh -c '"$1" bench --list -- sizes short >/dev/null' _ "$csum"
refused "--dst-align above 63" "option --dst-align takes an alignment" -- copy --dst-align 64
refused "a thrash count that is not whole passes over its schedule" \
    "thrash times whole passes over its 1048576-call schedule: -c takes a multiple of 1048576" -- thrash -c 1000
# CPUs are numbered from 0: the count of online CPUs is one past the last (it was refused only
# by the pinning, with no range and no hint). Every refused value gets that range, as in csum
# tune (-1, a word and 4096 were told "from 0 to 4095").
online=$(getconf _NPROCESSORS_ONLN)
refused "--cpu equal to the number of online CPUs" \
    "option --cpu takes a CPU number from 0 to $((online - 1)) \(online CPUs\), not '$online'" -- --cpu "$online" h40
for cpu in 4096 -1 x; do
    refused "--cpu $cpu with the online range" \
        "option --cpu takes a CPU number from 0 to $((online - 1)) \(online CPUs\), not '$cpu'\$" -- --cpu "$cpu" h40
done
refused "--noise 0" "option --noise takes a percentage from 1 to 100" -- --noise 0 h40
refused "--repeats 9" "option --repeats takes a number of repeats from 0 to 5" -- --repeats 9 h40
# A CSUM_IMPL, CSUM_DISPATCH, CSUM_COPY_IMPL or CSUM_BATCH_IMPL the library ignored (a row
# that does not exist, or that this CPU cannot run) is refused before anything is timed: the
# csum_partial column timed the automatic plan, and only the JSON said CSUM_IMPL was ignored.
# The last: a row this CPU cannot run, avx2 with AVX2 hidden (off x86, no row of that name).
for settings in CSUM_IMPL=no-such-row CSUM_DISPATCH=no-such-row@0 CSUM_COPY_IMPL=no-such-row \
                CSUM_BATCH_IMPL=no-such-row "CSUM_IMPL=avx2 CSUM_CPU_DISABLE=avx2"; do
    with_env=$settings refused "$settings, which the library ignored" \
        "^csum: bench: ${settings%% *} is ignored \(.*\): csum_[a-z0-9_]* would run " -- \
        --quick sizes -l 40 -M generic -c 1000
done
# One it takes is named where the tables are: the csum_partial column is that row.
check "lab: the text names csum_partial's plan, and a copy plan CSUM_COPY_IMPL set" -- \
    sh -c 'env CSUM_IMPL=generic CSUM_COPY_IMPL=generic "$1" bench --quick sizes -l 40 -M csum_partial -c 1000 --throughput 2>&1 |
           grep -q "^csum_partial'"'"'s plan: generic@0 (" &&
           env CSUM_COPY_IMPL=generic "$1" bench --quick sizes -l 40 -M csum_partial -c 1000 --throughput 2>&1 |
           grep -q "^csum_partial_copy'"'"'s plan: generic@0 (CSUM_COPY_IMPL)"' _ "$csum"
# copy keeps the time of each of its -c single calls: a count whose times cannot be held is
# refused before anything runs (it used to print and record a distribution of zeros).
(ulimit -v 600000; exec "$csum" bench --quick copy -l 32 -M generic -c 100000000) >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 2 ] && grep -q "copy cannot allocate the 800000000 bytes" "$tmp/err" &&
   ! grep -q "^32 " "$tmp/out"; then
    ok "lab: refuses a copy count whose single-call times cannot be held"
else
    fail "lab: copy -c 10^8 under a 600 MB address space: exit $status, $(head -c 300 "$tmp/err"), $(grep '^32 ' "$tmp/out" | head -2)"
fi
# A count within range that would still take too long here is refused after the warm-up has
# measured one call (the table's title may be out), before its timed batches: no figure.
"$csum" bench sizes -l 65536 -M generic --latency -c 1000000000 >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 2 ] && grep -q "one measurement would take about" "$tmp/err" &&
   ! grep -qE '^65536 +[0-9]' "$tmp/out"; then
    ok "lab: refuses a count whose measurement would outlast 60 s, before timing it"
else
    fail "lab: -c 10^9 at 64 KiB: exit $status, stderr: $(head -c 300 "$tmp/err")"
fi
"$csum" bench --help >"$tmp/help"
for opt in "-l LEN" "-a ALIGN" "-c COUNT" "--noise PCT" "--repeats N" "--cpu N"; do
    line=$(grep -A2 -- "^  $opt" "$tmp/help" | tr '\n' ' ')
    if printf '%s' "$line" | grep -qE '[0-9]+\.\.[0-9(]'; then ok "lab: --help gives the range of $opt"
    else fail "lab: --help gives no range for $opt: $line"; fi
done

# Every field of the JSON document is documented in docs/METHOD.md ("Output"), which a
# program reading it goes by: a run of sizes, short and copy has them all but short's targets.
if command -v python3 >/dev/null; then
    check "lab: every field of --json is named in docs/METHOD.md" -- \
        sh -c '"$1" bench --quick sizes short copy -l 40 -c 1000 -M csum_partial,generic --json 2>/dev/null |
               python3 -c "
import json, re, sys
doc = json.load(sys.stdin)
spans = re.findall(r\"\`([^\`]+)\`\", open(\"docs/METHOD.md\").read())
words = {w for span in spans for w in re.findall(r\"[A-Za-z0-9_]+\", span)}
against = set(doc[\"summary\"][\"against\"]) | {\"csum_partial\"}
missing = set()
def walk(o, where):
    if isinstance(o, list):
        for v in o:
            walk(v, where)
    elif isinstance(o, dict):
        for k, v in o.items():
            if where == \"rows\" and (k in against or k[6:] in against and k.startswith(\"ratio_\")):
                continue  # <subject> and ratio_<subject>: named by the subjects compared
            if k not in words:
                missing.add(k)
            walk(v, k)
walk(doc, \"\")
assert doc[\"results\"] and any(\"dist_ns\" in r for r in doc[\"results\"]), \"no copy results\"
assert not missing, sorted(missing)
"' _ "$csum"
fi
# --csv: nothing but RFC 4180 CSV on stdout (the tables on stderr), every row as wide as the
# header, a variant with a comma quoted (batch's "mbuf, ihl 5"); and every column is named in
# docs/METHOD.md ("Output"), which said only "the same rows" (dist_min_ns, clock: named nowhere).
if command -v python3 >/dev/null; then
    check "lab: --csv is CSV alone, its columns named in docs/METHOD.md" -- \
        sh -c '"$1" bench --quick batch -c 1000 --csv 2>/dev/null | python3 -c "
import csv, re, sys
rows = list(csv.reader(sys.stdin))
header, body = rows[0], rows[1:]
assert header[:3] == [\"table\", \"impl\", \"variant\"], header
assert body and all(len(r) == len(header) for r in body), [r for r in body if len(r) != len(header)]
assert any(r[0] == \"batch\" and \",\" in r[2] for r in body), \"no quoted variant\"
assert {r[0] for r in body} == {\"batch\"}, {r[0] for r in body}
text = open(\"docs/METHOD.md\").read()
out = text[text.index(\"## Output\"):]
out = out[out.index(\"- \`--csv\`\"):]
out = out[:out.index(\"\n- \")]
named = set(re.findall(r\"\`([A-Za-z0-9_]+)\`\", out))
assert set(header) <= named, sorted(set(header) - named)
"' _ "$csum"
fi
# The default CPU is the last one the lab may run on: under `taskset -c 0` it stays on CPU 0
# (it moved itself to the last online CPU, out of the set the user chose).
if command -v taskset >/dev/null && command -v python3 >/dev/null &&
   [ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ] && taskset -c 0 true 2>/dev/null; then
    check "lab: keeps to the CPUs taskset allows when --cpu is not given" -- \
        sh -c 'taskset -c 0 "$1" bench --quick sizes -l 40 -M generic --throughput -c 1000 --json 2>"$2" |
               python3 -c "
import json, sys
assert json.load(sys.stdin)[\"machine\"][\"pinned_cpu\"] == 0
" && grep -qE "pinned to CPU 0[ ;]" "$2"' _ "$csum" "$tmp/taskset"
else
    printf 'SKIPPED lab: the default CPU under taskset (no taskset, python3 or second CPU)\n'
fi
# A run: JSON with spread, load, summary; report opening with machine line and summary.
out="$tmp/run"
check "lab: a --quick sizes run with --out" -- "$csum" bench --quick sizes -l 1500 \
    -M csum_partial,linux-6.8 --out "$out"
refused "an --out directory that exists" "already exists: an earlier run is never overwritten" -- \
    --quick sizes -l 40 -M generic --out "$out"
# A run that stops before writing its files leaves no --out directory behind: an empty one made
# the same --out "already exist", and the rerun was refused though nothing had been written.
# A count refused after the warm-up, Ctrl-C mid-table (SIGINT, the default action restored:
# a background job ignores it) and a reader gone (SIGPIPE) each left an empty directory.
"$csum" bench sizes -l 65536 -M generic --latency -c 1000000000 --out "$tmp/late" >/dev/null 2>&1
status=$?
if [ "$status" -eq 2 ] && [ ! -e "$tmp/late" ]; then
    ok "lab: a count refused after the warm-up leaves no --out directory"
else
    fail "lab: -c refused late with --out: exit $status, $(ls -a "$tmp/late" 2>&1 | paste -sd' ' -)"
fi
if command -v python3 >/dev/null; then
    python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$csum" bench --quick lenalign -M generic --out "$tmp/int" \
        >"$tmp/int.out" 2>&1 &
    pid=$!
    for _ in $(seq 300); do
        grep -q '^== lenalign' "$tmp/int.out" 2>/dev/null && break
        sleep 0.05
    done
    had=$([ -d "$tmp/int" ] && echo 1 || echo 0)
    kill -INT "$pid"
    wait "$pid"
    status=$?
    if [ "$had" -eq 1 ] && [ "$status" -eq 130 ] && [ ! -e "$tmp/int" ]; then
        ok "lab: Ctrl-C mid-table removes the --out directory it created"
    else
        fail "lab: SIGINT mid-table: directory there before: $had, exit $status, left: $(ls -a "$tmp/int" 2>&1 | paste -sd' ' -)"
    fi
fi
(trap - PIPE; "$csum" bench --quick lenalign -M generic --out "$tmp/pipe" 2>/dev/null | head -n 1 >/dev/null)
if [ ! -e "$tmp/pipe" ]; then
    ok "lab: a reader gone (SIGPIPE) removes the --out directory it created"
else
    fail "lab: SIGPIPE mid-run left: $(ls -a "$tmp/pipe" 2>&1 | paste -sd' ' -)"
fi
# --json with --out, stdout's reader gone: the files are written before the JSON on stdout
# (SIGPIPE there left the directory empty).
(trap - PIPE; "$csum" bench --quick sizes -l 40 -M generic -c 1000 --json --out "$tmp/json-gone" 2>/dev/null | true)
if [ -s "$tmp/json-gone/results.json" ] && [ -s "$tmp/json-gone/results.csv" ] && [ -s "$tmp/json-gone/report.md" ]; then
    ok "lab: --out's files are written before --json's stdout, whose reader may be gone"
else
    fail "lab: --json --out, reader gone: $(ls -a "$tmp/json-gone" 2>&1 | paste -sd' ' -)"
fi
# Text that cannot be written while --out keeps the run going: each line is flushed, so the
# failed write is the last and main()'s final flush has nothing to fail on; the cause is kept
# when the write fails (it said "cannot write output" alone, with glibc and musl).
if [ -w /dev/full ]; then
    "$csum" bench --quick sizes -l 40 -M generic -c 1000 --out "$tmp/full" >/dev/full 2>"$tmp/err"
    status=$?
    if [ "$status" -eq 1 ] && grep -q "^csum: bench: cannot write output: No space left on device\$" "$tmp/err" &&
       [ -s "$tmp/full/results.json" ]; then
        ok "lab: text into /dev/full with --out: the files written, the cause named"
    else
        fail "lab: text into /dev/full with --out: exit $status, stderr: $(head -c 300 "$tmp/err")"
    fi
fi
if command -v python3 >/dev/null; then
    check "lab: results.json has spread, load, subjects' flags and the summary" -- python3 - "$out/results.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["results"] if r["table"] == "sizes"]
assert rows, "no sizes rows"
for r in rows:
    assert r["ticks_p10"] <= r["ticks_median"] <= r["ticks_p90"], r
    assert r["batches"] >= 1 and isinstance(r["noisy"], bool), r
    # cycles are ticks x a calibrated ratio: named an estimate (METHOD.md promises it)
    assert r["cycles_est_median"] > 0 and "cycles_median" not in r, r
    assert isinstance(r["group"], int) and r["group"] >= 1, r
# the summary's pair shares its group (timed together, interleaved); the roofline is timed alone
for mode in ("latency", "throughput"):
    group = {r["impl"]: r["group"] for r in rows if r["mode"] == mode}
    assert group["csum_partial"] == group["linux-6.8"] != group["roofline"], (mode, group)
assert {"busy", "wait_ms", "steal_ms", "preempted"} <= set(doc["load"]), doc["load"]
assert doc["load"]["steal_ms"] is None or doc["load"]["steal_ms"] >= 0, doc["load"]
flags = {s["name"]: s["flags"] for s in doc["subjects"]}
assert flags["csum_partial"], flags
if "dpdk" in flags:
    assert "-O3" in flags["dpdk"], flags["dpdk"]
s = doc["summary"]
assert s["against"][0] == "linux-6.8", s
lat = [r for r in s["rows"] if r["len"] == 1500 and r["mode"] == "latency"][0]
want = lat["csum_partial"]["ticks"] / lat["linux-6.8"]["ticks"]
assert abs(lat["ratio_linux-6.8"] - want) < 1e-3, (lat, want)
assert {r["mode"] for r in s["rows"]} == {"latency", "throughput"}, s["rows"]
assert doc["machine"]["build_type"] and doc["machine"]["dispatch"], doc["machine"]
# what the copy and batch tables ran through their public entry points, and how to run it again
assert doc["machine"]["copy_dispatch"] and doc["machine"]["copy_dispatch_source"], doc["machine"]
assert doc["machine"]["batch_dispatch"] and doc["machine"]["batch_dispatch_source"], doc["machine"]
assert doc["command"].startswith("csum bench --quick sizes -l 1500 -M csum_partial,linux-6.8 --out "), doc["command"]
PY
fi
# The % of roofline is the roofline's best batch over the subject's median (not the inverse),
# and the report's summary table says what the JSON says: each ratio is csum_partial's ticks
# over the other's, each noisy median carries its \*.
if command -v python3 >/dev/null; then
    check "lab: % of roofline, and the report's ratios and noise marks, agree with results.json" -- \
        python3 - "$out/results.json" "$out/report.md" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
sizes = [r for r in doc["results"] if r["table"] == "sizes"]
roof = {(r["mode"], r["len"]): r for r in sizes if r["impl"] == "roofline"}
assert roof, "no roofline rows"
for r in sizes:
    if r["impl"] == "roofline" or (r["mode"], r["len"]) not in roof:
        continue
    want = 100 * roof[r["mode"], r["len"]]["ticks_min"] / r["ticks_median"]
    assert abs(r["roofline_pct"] - want) <= 1e-3 * want, (r["impl"], r["roofline_pct"], want)
cell = {(r["impl"], r["mode"], r["len"]): r for r in sizes}
lines = [l for l in open(sys.argv[2]) if re.match(r"\| 1500 B \| (latency|throughput) \|", l)]
assert len(lines) == 2, lines
for line in lines:
    f = [c.strip() for c in line.strip().strip("|").split("|")]
    mode = f[1]
    me, k = cell["csum_partial", mode, 1500], cell["linux-6.8", mode, 1500]
    for text, r in ((f[2], me), (f[3], k)):
        assert text.endswith("\\*") == r["noisy"], (text, r["impl"], r["noisy"])
        assert abs(float(text.rstrip("\\*")) - r["ticks_median"]) <= 0.051, (text, r["ticks_median"])
    ratio = me["ticks_median"] / k["ticks_median"]
    assert abs(float(f[4]) - ratio) <= 0.006, (line, ratio)
    assert f[-1] == "%.0f %%" % me["roofline_pct"], (f[-1], me["roofline_pct"])
PY
fi
header=$(head -n1 "$out/results.csv")
if printf '%s' "$header" | grep -q ',cycles_est_median,' && ! printf '%s' "$header" | grep -q ',cycles_median,'; then
    ok "lab: results.csv names its cycles column an estimate"
else
    fail "lab: results.csv header: $header"
fi
# copy at an offset: the source where -a puts it (the align column), the destination where
# --dst-align does (named in the variant), every row there and none refused.
if command -v python3 >/dev/null; then
    check "lab: copy -a 14 --dst-align 2 measures every row at those offsets" -- \
        sh -c '"$1" bench --quick copy -l 1500 -a 14 --dst-align 2 -c 1000 --json 2>"$2" | python3 -c "
import json, sys
doc = json.load(sys.stdin)
rows = [r for r in doc[\"results\"] if r[\"table\"] == \"copy\"]
impls = {r[\"impl\"] for r in rows}
assert {\"memcpy\", \"csum_partial_copy\", \"generic\"} <= impls, impls
assert all(r[\"align\"] == 14 and r[\"variant\"] == \"idle, dst +2\" and r[\"len\"] == 1500
           for r in rows), rows
" && grep -q "src +14, dst +2 from a 64-byte boundary" "$2" && ! grep -q "refused" "$2" &&
   grep -q "^   (clock: " "$2" && ! grep -q "^   ([A-Z]* ticks;" "$2"' _ "$csum" "$tmp/copy-err"
fi
# sizes' rows name the length only: with -a, its titles say where the buffers start (the text
# showed the same table for -a 2 as for none: only the JSON's align column told them apart).
check "lab: sizes -a names the buffers' offset in its titles" -- \
    sh -c '"$1" bench --quick sizes -l 100 -a 3 -M generic -c 1000 >"$2" 2>&1 &&
           [ "$(grep -c "^== sizes: .*buffers 3 bytes past a 64-byte boundary" "$2")" -eq 2 ] &&
           "$1" bench --quick sizes -l 100 -M generic -c 1000 --throughput 2>&1 |
           grep "^== sizes: " | grep -qv "past a 64-byte boundary"' _ "$csum" "$tmp/sizes-a"
# lenalign's % column compares two subjects: one against itself (here named as its own
# baseline) is no comparison, said in the title, not a column of 0 % (nor a p10..p90 range:
# blank, the column's width kept).
check "lab: lenalign has no % column for a subject against itself" -- \
    sh -c '"$1" bench --quick lenalign -l 40 -a 0 -M generic --baseline generic -c 1000 >"$2" 2>&1 &&
           grep -q "no % column: generic would be compared with itself" "$2" &&
           grep -qE "^40/0 +[0-9.]+/[0-9]+\*? +- +IPv6 header" "$2"' _ "$csum" "$tmp/self"
# short honours -M: the subjects named, in the order named, the ratio the first's time over
# the last's (-M mine,linux-6.8 for a change to the algorithm, -M csum_partial,dpdk for a
# peer); one subject alone is timed too. It used to time only its own three and say "not
# timed" with exit 0 when -M named any other.
if command -v python3 >/dev/null; then
    check "lab: short -M times the subjects named, in that order, ratio first / last" -- \
        sh -c '"$1" bench --quick short -l 40 -c 1000 -M generic,csum_partial --json 2>"$2" | python3 -c "
import json, sys
rows = [r for r in json.load(sys.stdin)[\"results\"] if r[\"table\"] == \"short\"]
assert {(r[\"impl\"], r[\"mode\"]) for r in rows} == {(i, m) for i in (\"generic\", \"csum_partial\")
        for m in (\"latency\", \"throughput\")}, rows
" && grep -q "and generic / csum_partial$" "$2" && grep -qE "^len +generic +csum_partial +ratio$" "$2" &&
   grep -q "^worst generic / csum_partial: " "$2" &&
   "$1" bench --quick short -l 40 -c 1000 -M generic --latency --json 2>"$2" | python3 -c "
import json, sys
rows = [r for r in json.load(sys.stdin)[\"results\"] if r[\"table\"] == \"short\"]
assert [(r[\"impl\"], r[\"mode\"]) for r in rows] == [(\"generic\", \"latency\")], rows
" && ! grep -q "not timed" "$2"' _ "$csum" "$tmp/short-m"
fi
# copy honours -M: the rows named (a copy-only row, csum_partial_copy, is a name -M takes;
# csum_partial picks its copy), with memcpy and memcpy+csum_partial always, the ratios' base.
if command -v python3 >/dev/null; then
    check "lab: copy -M times the copy rows named, and memcpy" -- \
        sh -c '"$1" bench --quick copy -l 64 -c 1000 -M generic,csum_partial_copy --json 2>/dev/null | python3 -c "
import json, sys
got = {r[\"impl\"] for r in json.load(sys.stdin)[\"results\"] if r[\"table\"] == \"copy\"}
want = {\"memcpy\", \"memcpy+csum_partial\", \"generic\", \"csum_partial_copy\", \"(timer only)\"}
assert got == want, (sorted(got - want), sorted(want - got))
" && "$1" bench --quick copy -l 64 -c 1000 -M csum_partial --json 2>/dev/null | python3 -c "
import json, sys
got = {r[\"impl\"] for r in json.load(sys.stdin)[\"results\"] if r[\"table\"] == \"copy\"}
assert got == {\"memcpy\", \"memcpy+csum_partial\", \"csum_partial_copy\", \"(timer only)\"}, got
"' _ "$csum"
fi
# The summary states its targets for aligned buffers: a copy run at an offset (its variant
# plain "idle" when both buffers share it) gives it no copy figure.
if command -v python3 >/dev/null; then
    check "lab: the summary takes no copy figure from buffers off a boundary" -- \
        sh -c '"$1" bench --quick copy -l 1500 -a 14 -c 1000 --json 2>/dev/null | python3 -c "
import json, sys
doc = json.load(sys.stdin)
assert any(r[\"table\"] == \"copy\" and r[\"variant\"] == \"idle\" and r[\"align\"] == 14
           for r in doc[\"results\"]), doc[\"results\"]
assert doc[\"summary\"][\"targets\"][\"copy_vs_memcpy_1500\"] is None, doc[\"summary\"]
"' _ "$csum"
fi
# A noisy result carries its * in every table's text, as the JSON's "noisy" says (METHOD.md):
# single-call batches (-c 1) and a 1 % limit make some results noisy whatever the machine.
if command -v python3 >/dev/null; then
    for args in "lenalign -l 40 -M generic" "copy -l 64 -M generic" "iov" "batch"; do
        check "lab: ${args%% *}'s text marks exactly its noisy results with *" -- \
            sh -c '"$1" bench --quick $2 -c 1 --noise 1 --repeats 0 --json 2>"$3" | python3 -c "
import json, re, sys
table = sys.argv[1]
noisy = sum(r[\"noisy\"] for r in json.load(sys.stdin)[\"results\"] if r[\"table\"] == table)
assert noisy > 0, \"no noisy result: the test needs some\"
header = {\"lenalign\": \"Len/Aln \", \"copy\": \"len \", \"iov\": \"segment \", \"batch\": \"layout \"}[table]
marks, rows = 0, False
for line in open(sys.argv[2]):
    if line.startswith(header):
        rows = True
    elif rows and re.match(r\"[0-9a-z]\", line) and not line.startswith(\"load\"):
        marks += line.count(\"*\")
    else:
        rows = False
assert marks == noisy, (marks, noisy)
" "${2%% *}" "$3"' _ "$csum" "$args" "$tmp/noise-text"
    done
fi
# mixed: every range, both modes, random and fixed rows for each subject, no bytes per tick.
if command -v python3 >/dev/null; then
    check "lab: a --quick mixed run gives each subject's random and fixed rows, every range" -- \
        sh -c '"$1" bench --quick mixed -M csum_partial,generic --json 2>/dev/null | python3 -c "
import json, sys
rows = [r for r in json.load(sys.stdin)[\"results\"] if r[\"table\"] == \"mixed\"]
got = {(r[\"impl\"], r[\"mode\"], r[\"variant\"].split()[0], r[\"variant\"].split()[1]) for r in rows}
want = {(i, m, g, k) for i in (\"csum_partial\", \"generic\") for m in (\"latency\", \"throughput\")
        for g in (\"1..64\", \"1..256\", \"64..1518\") for k in (\"random\", \"fixed\")}
assert got == want, sorted(want - got)
assert all(r[\"ticks_median\"] > 0 and r[\"bytes_per_tick\"] is None for r in rows), rows
# lengths drawn uniformly from lo..hi (2^20 of them): the fixed rows time their mean
for r in rows:
    lo, hi = map(int, r[\"variant\"].split()[0].split(\"..\"))
    assert abs(r[\"len\"] - (lo + hi) / 2) <= 1 + 0.01 * (lo + hi) / 2, (r[\"variant\"], r[\"len\"])
    if r[\"variant\"].split()[1] == \"fixed\":
        assert int(r[\"variant\"].split()[2]) == r[\"len\"], r
"' _ "$csum"
fi
# thrash: every timed batch is whole passes over the 2^20-call schedule, so that the grouped
# order times both of its halves (an auto-sized batch of ~180,000 calls timed the first alone).
if command -v python3 >/dev/null; then
    check "lab: thrash times whole passes over its schedule in every order" -- \
        sh -c '"$1" bench --quick thrash -M csum_partial --json 2>/dev/null | python3 -c "
import json, sys
rows = [r for r in json.load(sys.stdin)[\"results\"] if r[\"table\"] == \"thrash\"]
assert {r[\"variant\"] for r in rows} == {\"grouped\", \"interleaved\", \"random\"}, rows
for r in rows:
    assert r[\"iters\"] >= 1 << 20 and r[\"iters\"] % (1 << 20) == 0, (r[\"variant\"], r[\"iters\"])
"' _ "$csum"
fi

first=$(grep -m1 -n '^| length | mode | csum_partial |' "$out/report.md" | cut -d: -f1)
machine=$(grep -m1 -n '^\*\*Machine:\*\*' "$out/report.md" | cut -d: -f1)
tables=$(grep -m1 -n '^## Tables' "$out/report.md" | cut -d: -f1)
if [ -n "$first" ] && [ -n "$machine" ] && [ -n "$tables" ] && [ "$machine" -lt "$first" ] &&
   [ "$first" -lt "$tables" ] && grep -q '^| 1500 B | throughput |' "$out/report.md" &&
   grep -q '^\*\*Command:\*\* `csum bench --quick sizes -l 1500 ' "$out/report.md"; then
    ok "lab: report.md opens with the machine line, then the summary table (both modes)"
else
    fail "lab: report.md does not open with the machine line and the summary table"
fi
# Which source the lab was built from: `git describe --always --dirty` of this tree when it is
# a git checkout of its own (as at build time: make test builds first), else that it is none;
# in the text's build line, the report's machine line and the JSON.
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
    source="git $(git describe --always --dirty --abbrev=12)"
else
    source="unknown (not a git checkout)"
fi
check "lab: the text's build line names the source ($source)" -- \
    sh -c '"$1" bench --quick short -l 8 -M generic 2>&1 | grep -qF "build: $("$1" --version) ($2), "' _ "$csum" "$source"
check "lab: report.md's machine line names the source" -- grep -qF "**source:** $source" "$out/report.md"
check "lab: results.json's machine.source_revision" -- \
    grep -qF "\"source_revision\": \"$source\"" "$out/results.json"
# ... and of a tree that is not the top of its own checkout (a release tarball unpacked inside
# another project's repository), not that repository's revision.
source_of() { # source_of DIR: the header cmake/source_revision.cmake writes for DIR
    cmake -DSOURCE_DIR="$1" -DOUT="$tmp/revision.h" -P cmake/source_revision.cmake &&
        sed -n 's/^#define CSUM_LAB_SOURCE_REVISION "\(.*\)"$/\1/p' "$tmp/revision.h"
}
if command -v git >/dev/null; then
    mkdir -p "$tmp/repo/unpacked" && git -C "$tmp/repo" init -q &&
        git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m t
    head=$(git -C "$tmp/repo" rev-parse --short=12 HEAD)
    check "lab: the source of a checkout's top is its revision ($(source_of "$tmp/repo"))" -- \
        test "$(source_of "$tmp/repo")" = "git $head"
    check "lab: the source of a tree inside another checkout is unknown ($(source_of "$tmp/repo/unpacked"))" -- \
        test "$(source_of "$tmp/repo/unpacked")" = "unknown (not a git checkout)"
fi
# --quick repeats a noisy result once: "up to 1 time", not "1 times".
check "lab: report.md's method line counts one repeat as one time" -- \
    grep -q "is measured again (up to 1 time) and marked" "$out/report.md"
# The pcap table's settings are checked before anything runs, as options are: a value that
# is not one (CSUM_BENCH_PCAP_RUNS=abc ran 3 times, CSUM_BENCH_PCAP_LIMIT=10s stopped at 10 s,
# a size list that does not parse ran 100 MB), out of range or too long a list is refused.
pcap_env_refused() { # pcap_env_refused VAR=VALUE "message regex" [tables...]
    local setting=$1 want=$2 status; shift 2
    env "$setting" "$csum" bench --quick "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ "$status" -eq 2 ] && grep -qE -- "$want" "$tmp/err" && ! grep -q "^==" "$tmp/out"; then
        ok "lab: refuses $setting${1:+ ($*)}"
    else
        fail "lab: $setting: exit $status, stderr: $(head -c 300 "$tmp/err")"
    fi
}
pcap_env_refused CSUM_BENCH_PCAP_RUNS=abc "CSUM_BENCH_PCAP_RUNS takes a number of runs from 1 to 15, not 'abc'" pcap
pcap_env_refused CSUM_BENCH_PCAP_RUNS=0 "CSUM_BENCH_PCAP_RUNS takes a number of runs from 1 to 15, not '0'" pcap
pcap_env_refused CSUM_BENCH_PCAP_LIMIT=10s "CSUM_BENCH_PCAP_LIMIT takes seconds from 1 to 86400, not '10s'" pcap
pcap_env_refused CSUM_BENCH_PCAP_SIZES=lots "CSUM_BENCH_PCAP_SIZES takes up to 8 sizes such as 100M,1G" pcap
pcap_env_refused CSUM_BENCH_PCAP_SIZES=1M,1M,1M,1M,1M,1M,1M,1M,1M "CSUM_BENCH_PCAP_SIZES takes up to 8 sizes" pcap
# With no table named the pcap table runs too, last: refused before the first.
pcap_env_refused CSUM_BENCH_PCAP_RUNS=99 "CSUM_BENCH_PCAP_RUNS takes a number of runs from 1 to 15, not '99'"
check "lab: the pcap settings do not concern a run without the pcap table" -- \
    env CSUM_BENCH_PCAP_RUNS=abc "$csum" bench --quick sizes -l 40 -M generic -c 1000 --throughput
# A peer still running at CSUM_BENCH_PCAP_LIMIT is stopped, and shown as a bound, not a time:
# stand-ins for tshark and tcpdump that sleep, first on PATH.
mkdir -p "$tmp/slow"
for tool in tshark tcpdump; do
    printf '#!/bin/sh\nexec sleep 30\n' >"$tmp/slow/$tool"
    chmod +x "$tmp/slow/$tool"
done
start=$(date +%s)
PATH="$tmp/slow:$PATH" CSUM_BENCH_PCAP_SIZES=1M CSUM_BENCH_PCAP_LIMIT=1 \
    "$csum" bench --quick pcap --json >"$tmp/pcap.json" 2>"$tmp/pcap.err"
status=$?
took=$(( $(date +%s) - start ))
if [ "$status" -eq 0 ] && [ "$took" -lt 20 ] &&
   grep -q "tshark stopped after 1 s on the 1 MB capture (CSUM_BENCH_PCAP_LIMIT): not timed" "$tmp/pcap.err" &&
   grep -qE '^tcpdump -vv +file .* > 1 s +< [0-9.]+ GB/s  csum > [0-9]+x faster' "$tmp/pcap.err" &&
   ! grep -q '"impl": "tshark"\|"impl": "tcpdump' "$tmp/pcap.json" &&
   grep -q '"impl": "csum pcap verify"' "$tmp/pcap.json"; then
    ok "lab: pcap stops a peer at CSUM_BENCH_PCAP_LIMIT and shows a bound, no time"
else
    fail "lab: pcap with slow peers and a 1 s limit: exit $status in $took s; $(grep -E 'stopped|^tshark|^tcpdump' "$tmp/pcap.err" | head -c 400)"
fi
# A file run's estimated cycles are its median ticks times the clock's ratio, as every
# result's (they were 0).
if grep '"impl": "csum pcap verify"' "$tmp/pcap.json" | grep -qE '"cycles_est_median": [1-9]'; then
    ok "lab: pcap file runs carry their estimated cycles"
else
    fail "lab: pcap file run: $(grep -o '"impl": "csum pcap verify".*"cycles_est_median": [^,]*' "$tmp/pcap.json" | head -c 300)"
fi

# With SIGPIPE ignored (a parent passes that on), a reader gone stops the run at the next line
# (exit 1, said once), as SIGPIPE itself would: it timed every table for no reader, lenalign's
# for seconds; and the pcap table's capture goes with it.
start=$(date +%s)
( (trap '' PIPE; exec "$csum" bench lenalign -M generic 2>"$tmp/gone.err") | head -n 1 >/dev/null
  exit "${PIPESTATUS[0]}" )
status=$?
took=$(( $(date +%s) - start ))
if [ "$status" -eq 1 ] && [ "$took" -lt 10 ] &&
   [ "$(grep -c "^csum: bench: cannot write output: Broken pipe (the run stops)$" "$tmp/gone.err")" -eq 1 ]; then
    ok "lab: with SIGPIPE ignored, a reader gone stops the run"
else
    fail "lab: SIGPIPE ignored, reader gone: exit $status after $took s; $(head -c 300 "$tmp/gone.err")"
fi
mkdir -p "$tmp/gone-tmp"
( (trap '' PIPE; TMPDIR="$tmp/gone-tmp" CSUM_BENCH_PCAP_SIZES=1M PATH="$tmp/slow:$PATH" CSUM_BENCH_PCAP_LIMIT=1 \
       exec "$csum" bench --quick pcap 2>/dev/null) | sed '/^csum_pcap_verify_buffer/q' >/dev/null
  exit "${PIPESTATUS[0]}" )
status=$?
if [ "$status" -eq 1 ] && [ -z "$(ls "$tmp/gone-tmp")" ]; then
    ok "lab: a pcap table stopped for a reader gone removes its capture"
else
    fail "lab: pcap, reader gone: exit $status, left in TMPDIR: $(ls "$tmp/gone-tmp" | paste -sd' ' -)"
fi

# An interrupted pcap table removes its capture (up to a gigabyte in $TMPDIR): killed while a
# stand-in tshark runs on it, the lab dies of the signal and leaves no csum-lab-*.pcap, nor the
# --out directory it created (the pcap table's handler passes the signal on to the lab's).
mkdir -p "$tmp/pcaptmp" "$tmp/hold"
for tool in tshark tcpdump; do
    printf '#!/bin/sh\necho $$ >"%s/%s.pid"\nexec sleep 30\n' "$tmp/hold" "$tool" >"$tmp/hold/$tool"
    chmod +x "$tmp/hold/$tool"
done
PATH="$tmp/hold:$PATH" TMPDIR="$tmp/pcaptmp" CSUM_BENCH_PCAP_SIZES=1M CSUM_BENCH_PCAP_LIMIT=20 \
    "$csum" bench --quick pcap --out "$tmp/pcap-out" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
    [ -s "$tmp/hold/tshark.pid" ] && break
    sleep 0.1
done
had=$(ls "$tmp/pcaptmp" | grep -c '^csum-lab-')
kill -TERM "$pid"
wait "$pid"
status=$?
left=$(ls "$tmp/pcaptmp" | grep -c '^csum-lab-')
if [ "$had" -eq 1 ] && [ "$status" -eq 143 ] && [ "$left" -eq 0 ] && [ ! -e "$tmp/pcap-out" ]; then
    ok "lab: pcap removes its capture and the --out directory when the lab is killed"
else
    fail "lab: pcap killed: exit $status, $had capture(s) before, $left left in TMPDIR, --out: $(ls -a "$tmp/pcap-out" 2>&1 | paste -sd' ' -)"
fi
[ -s "$tmp/hold/tshark.pid" ] && kill "$(cat "$tmp/hold/tshark.pid")" 2>/dev/null
# A signal the lab ignores stays ignored in the pcap table: under nohup (SIGHUP ignored) a
# hangup while a peer runs killed the lab (the table's handler replaced SIG_IGN and died of it).
rm -f "$tmp/hold/"*.pid
(trap '' HUP; PATH="$tmp/hold:$PATH" TMPDIR="$tmp/pcaptmp" CSUM_BENCH_PCAP_SIZES=1M CSUM_BENCH_PCAP_LIMIT=2 \
    exec "$csum" bench --quick pcap >/dev/null 2>&1) &
pid=$!
for _ in $(seq 300); do
    [ -s "$tmp/hold/tshark.pid" ] && break
    sleep 0.1
done
kill -HUP "$pid"
wait "$pid"
status=$?
left=$(ls "$tmp/pcaptmp" | grep -c '^csum-lab-')
if [ -s "$tmp/hold/tshark.pid" ] && [ "$status" -eq 0 ] && [ "$left" -eq 0 ]; then
    ok "lab: a hangup under nohup does not end the pcap table"
else
    fail "lab: pcap under nohup, SIGHUP: exit $status, $left capture(s) left in TMPDIR"
fi
[ -s "$tmp/hold/tshark.pid" ] && kill "$(cat "$tmp/hold/tshark.pid")" 2>/dev/null

finish lab
