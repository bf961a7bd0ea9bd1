#!/usr/bin/env python3
"""The measurements behind a compiled-in dispatch plan, recorded, never typed.

  tune_results.py BUILD_DIR [--runs N] [--quick] [--dest DIR]

What a row of src/dispatch_defaults.c rests on, measured the way the rows there were: `csum tune`
N times (default 2; one run can pick a threshold out of noise), then the lab's `short` table
(every length 1..256 B, csum_partial against linux-6.8, both modes) under the plan in force and
under each plan tune proposed. Every output is kept under docs/results/<cpu>/tune/ (the machine
class's directory, as `make results` names it), named by the UTC time and the plan; nothing is
overwritten. Then a comparison of the plans on the short table and, for a CPU without a
measured row, the row to add, with the features its rows need.

Standard library only. The commands run pinned, one after another: run it on an idle machine.
"""
import argparse
import csv
import glob
import io
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import RESULTS, ROOT, machine_slug  # noqa: E402  (one naming of machine classes)

FIRST_LINE = re.compile(r"^csum tune: (?P<cpu>.*?), pinned to CPU .*?; plan in force: "
                        r"(?P<plan>\S+) \((?P<source>.*)\)$", re.M)
PROPOSED = re.compile(r"CSUM_DISPATCH='([^']+)'")


def run(cmd, env=None):
    """stdout, stderr and status of a command; a command that cannot start ends the script."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    except OSError as e:
        raise SystemExit("tune_results: cannot run %s: %s" % (cmd[0], e))
    return p.stdout, p.stderr, p.returncode


def save(path, text):
    if os.path.exists(path):
        raise SystemExit("tune_results: %s exists; not overwriting it" % path)
    with open(path, "w") as f:
        f.write(text)


def plan_slug(plan):
    return plan.replace("@", "-").replace(",", "_")


def parse_tune(out):
    """(cpu, plan in force, its source, proposed plan, verified) from `csum tune`'s output."""
    first = FIRST_LINE.search(out)
    proposed = PROPOSED.findall(out)
    if not first or not proposed:
        raise SystemExit("tune_results: csum tune's output has no %s (the output follows)\n%s"
                         % ("machine line" if not first else "plan", out))
    verified = "the new plan is slower than the current one" not in out
    return first.group("cpu"), first.group("plan"), first.group("source"), proposed[-1], verified


def short_ratios(csv_text):
    """{mode: [(len, csum_partial / linux-6.8, noisy)]} from `csum bench short --csv`."""
    cells = {}
    for r in csv.DictReader(io.StringIO(csv_text)):
        if r["table"] == "short" and r["impl"] in ("csum_partial", "linux-6.8"):
            cells.setdefault((r["mode"], int(r["len"])), {})[r["impl"]] = r
    out = {}
    for (mode, n), c in sorted(cells.items()):
        if len(c) == 2:
            ours, linux = c["csum_partial"], c["linux-6.8"]
            noisy = ours["noisy"] == "1" or linux["noisy"] == "1"
            out.setdefault(mode, []).append(
                (n, float(ours["ticks_median"]) / float(linux["ticks_median"]), noisy))
    return out


def verdict(ratios):
    """Per mode: worst ratio and its length, median ratio, lengths above 1.00."""
    v = {}
    for mode, rs in ratios.items():
        worst = max(rs, key=lambda x: x[1])
        v[mode] = dict(worst=worst[1], at=worst[0], median=statistics.median(r for _, r, _ in rs),
                       losses=sum(1 for _, r, _ in rs if r > 1.0), lengths=len(rs))
    return v


def row_isas():
    """{row name: ISA} from the kernel files (CSUM_KERNEL_ISA and CSUM_KERNEL_NAME in each)."""
    isas = {}
    for path in glob.glob(os.path.join(ROOT, "src", "*", "*.c")):
        with open(path) as f:
            text = f.read()
        isa = re.search(r"#\s*define CSUM_KERNEL_ISA (\w+)", text)
        name = re.search(r'CSUM_KERNEL_NAME\("([^"]+)"\)', text)
        if isa and name:
            isas[name.group(1)] = isa.group(1)
    return isas


def features_of(plan, isas):
    """The CSUM_ISA_MASK expression that gates a plan: the ISAs of its rows, baseline aside."""
    needed = dict.fromkeys(isas.get(row.split("@")[0], "?") for row in plan.split(","))
    return " | ".join("CSUM_ISA_MASK(%s)" % n for n in needed if n != "baseline") or "0"


def cpuinfo():
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, val = line.partition(":")
                fields.setdefault(key.strip(), val.strip())
    except OSError:
        pass
    return fields


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="the build directory (its csum is run)")
    ap.add_argument("--runs", type=int, default=2, help="csum tune runs (default 2)")
    ap.add_argument("--quick", action="store_true", help="quick tune and short table: a check "
                    "of this script, not data to commit")
    ap.add_argument("--dest", help="where to keep the outputs (default docs/results/<cpu>/tune/)")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    csum = os.path.join(args.build, "csum")
    if not os.access(csum, os.X_OK):
        raise SystemExit("tune_results: no csum in %s (build first: make)" % args.build)
    quick = ["--quick"] if args.quick else []
    stamp = time.strftime("%Y-%m-%d-%H%M%S", time.gmtime())

    tunes = []
    for k in range(1, args.runs + 1):
        print("tune_results: csum tune, run %d of %d ..." % (k, args.runs), file=sys.stderr)
        out, err, status = run([csum, "tune"] + quick)
        tunes.append((parse_tune(out), "# %s tune%s  (run %d of %d)\n%s%s"
                      % (csum, "".join(" " + q for q in quick), k, args.runs, out, err)))
        if status not in (0, 1):
            raise SystemExit("tune_results: csum tune failed (exit %d):\n%s" % (status, err))
    cpu, in_force, source = tunes[0][0][:3]
    dest = args.dest or os.path.join(RESULTS, machine_slug({"cpu": cpu}), "tune")
    os.makedirs(dest, exist_ok=True)
    for k, (_, text) in enumerate(tunes, 1):
        save(os.path.join(dest, "tune-%s-run%d.txt" % (stamp, k)), text)

    plans = list(dict.fromkeys([in_force] + [t[0][3] for t in tunes]))
    verdicts = {}
    for plan in plans:
        print("tune_results: csum bench short under %s ..." % plan, file=sys.stderr)
        env = dict(os.environ, CSUM_DISPATCH=plan)
        out, err, status = run([csum, "bench", "short", "--csv"] + quick, env=env)
        if status != 0 or not out:
            raise SystemExit("tune_results: csum bench short under %s failed (exit %d):\n%s"
                             % (plan, status, err))
        head = "# CSUM_DISPATCH=%s %s bench short%s\n" % (plan, csum, " --quick" if quick else "")
        save(os.path.join(dest, "short-%s-%s.txt" % (stamp, plan_slug(plan))), head + err)
        save(os.path.join(dest, "short-%s-%s.csv" % (stamp, plan_slug(plan))), out)
        verdicts[plan] = verdict(short_ratios(out))

    print("\n%s; plan in force: %s (%s)" % (cpu, in_force, source))
    for k, t in enumerate(tunes, 1):
        print("csum tune run %d proposed %s%s" % (k, t[0][3], "" if t[0][4] else
                                                  " (slower than the plan in force somewhere)"))
    print("\ncsum_partial / linux-6.8 over 1..256 B (csum bench short):")
    print("%-44s %-28s %s" % ("plan", "latency: worst, median, >1", "throughput: worst, median, >1"))
    for plan in plans:
        cols = []
        for mode in ("latency", "throughput"):
            v = verdicts[plan].get(mode)
            cols.append("%.2f at %d B, %.2f, %d" % (v["worst"], v["at"], v["median"], v["losses"])
                        if v else "-")
        print("%-44s %-28s %s" % (plan + (" (in force)" if plan == in_force else ""), *cols))
    # Fewest lengths where linux-6.8 wins, then the lower medians: what the issue's "short
    # lengths never lose" asks, then speed.
    best = min(plans, key=lambda p: (sum(v["losses"] for v in verdicts[p].values()),
                                     sum(v["median"] for v in verdicts[p].values())))
    print("\nbest on the short table (fewest lengths above 1.00, then the lower medians): %s" % best)
    where = os.path.abspath(dest)
    print("outputs: %s" % (os.path.relpath(where, ROOT) if where.startswith(ROOT + os.sep) else where))
    if source.startswith("compiled-in defaults: by features"):
        print("\nno measured row for this CPU class yet; the row to add to "
              "src/dispatch_defaults.c (check the curves in the outputs first, and the lab's "
              "sizes table beyond 256 B):")
    else:
        print("\nthe plan in force comes from %s; if the outputs say it should change, its row "
              "in src/dispatch_defaults.c would read:" % source)
    info = cpuinfo()
    if "vendor_id" in info and "cpu family" in info and "model" in info:
        model = int(info["model"])
        print('    { "%s", %s, 0x%02x, 0x%02x,\n      %s,\n      "%s",\n'
              '      "%s, measured %s with csum tune and csum bench short" },'
              % (info["vendor_id"], info["cpu family"], model, model,
                 features_of(best, row_isas()), best, cpu, stamp[:10]))
    else:  # rows name a vendor, family and model on x86-64 only
        print('    { NULL, 0, 0, 0, %s, "%s", "%s, measured %s with csum tune and csum bench '
              'short" },' % (features_of(best, row_isas()), best, cpu, stamp[:10]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
