"""``python -m csum.bench``: csum from Python against the checksums Python code uses today.

Tables (Markdown, ready for a README):

1. ``csum.checksum`` against ``scapy.utils.checksum``, dpkt's ``in_cksum`` and a pure-Python
   RFC 1071 loop, at 20 B, 1500 B, 64 KiB and 1 MiB: the median and minimum time per call over
   repeated runs (``timeit``, each run long enough to dwarf the timer), and csum's speed-up
   over each, as ratios of medians measured in the same run.
2. scapy building TCP packets (``raw(IP()/TCP()/payload)``), without and with
   ``csum.scapy.install()``, runs interleaved.
3. What releasing the GIL costs, at sizes around the threshold the extension uses.

Peers that are not installed are left out (``pip install scapy dpkt``). Times depend on the
machine and on what else runs on it: compare the ratios of one run, not times across runs.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import timeit
from typing import Any, Callable, Dict, List, Optional, Tuple

import csum
from . import _csum

SIZES = [("20 B", 20), ("1500 B", 1500), ("64 KiB", 64 << 10), ("1 MiB", 1 << 20)]
TARGETS = {"overhead_ns_20": 150.0, "vs_scapy_1500": 50.0, "vs_scapy_65536": 500.0}


def pure_python_checksum(data: bytes) -> int:
    """RFC 1071 the way it is usually written in Python: a loop over 16-bit words."""
    s = 0
    n = len(data) - 1
    for i in range(0, n, 2):
        s += (data[i] << 8) + data[i + 1]
    if len(data) & 1:
        s += data[-1] << 8
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def machine() -> Dict[str, str]:
    """The CPU's model line as lscpu prints it, and what else a reader needs to place a number."""
    model = ""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = " ".join(line.split())
                break
        # "AMD EPYC" names Zen 4 and Zen 5 alike: the family and model tell them apart.
        fields = dict(l.split(":", 1) for l in out.splitlines() if ":" in l)
        family, number = (fields.get(k, "").strip() for k in ("CPU family", "Model"))
        if model and family and number:
            model += f" (family {family} model {number})"
        hypervisor = next((" ".join(l.split()) for l in out.splitlines()
                           if l.startswith("Hypervisor vendor:")), "")
    except OSError:
        hypervisor = ""
    if not model:
        try:
            with open("/proc/cpuinfo") as f:
                model = next(("Model name: " + l.split(":", 1)[1].strip() for l in f
                              if l.startswith("model name")), platform.processor())
        except OSError:
            model = platform.processor() or platform.machine()
    return {
        "cpu": model,
        "cpus": str(os.cpu_count()),
        "hypervisor": hypervisor,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "csum": f"{csum.__version__}, {csum.active().name} ({csum.dispatch()})",
        "date": datetime.date.today().isoformat(),
    }


def time_call(fn: Callable[[Any], Any], arg: Any, repeat: int, min_run_s: float) -> Tuple[float, float]:
    """(median, minimum) seconds per call of fn(arg) over `repeat` runs of >= min_run_s each."""
    timer = timeit.Timer(lambda: fn(arg))
    number = 1
    while True:  # calls per run: enough to last min_run_s
        t = timer.timeit(number)
        if t >= min_run_s or number >= 1 << 24:
            break
        number = max(number * 2, int(number * min_run_s / max(t, 1e-9) * 1.1))
    runs = [timer.timeit(number) / number for _ in range(repeat)]
    return statistics.median(runs), min(runs)


def peers() -> List[Tuple[str, Callable[[bytes], int]]]:
    found: List[Tuple[str, Callable[[bytes], int]]] = []
    try:
        import logging
        logging.getLogger("scapy").setLevel(logging.ERROR)
        from scapy.utils import checksum as scapy_checksum
        found.append(("scapy.utils.checksum", scapy_checksum))
    except ImportError:
        pass
    try:
        from dpkt.dpkt import in_cksum  # type: ignore  # dpkt ships no type information
        found.append(("dpkt in_cksum", in_cksum))
    except ImportError:
        pass
    found.append(("pure Python", pure_python_checksum))
    return found


def fmt_time(s: float) -> str:
    if s < 1e-6:
        return f"{s * 1e9:.0f} ns"
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    return f"{s * 1e3:.2f} ms"


def bench_sizes(repeat: int, min_run_s: float, pure_max: int) -> Dict[str, Any]:
    rows = []
    others = peers()
    for label, n in SIZES:
        data = bytes((i * 7 + (i >> 8) * 13 + 1) & 0xFF for i in range(n))  # aperiodic-ish
        expect = pure_python_checksum(data) if n <= pure_max else None
        row: Dict[str, Any] = {"size": label, "bytes": n}
        med, mn = time_call(csum.checksum, data, repeat, min_run_s)
        row["csum"] = (med, mn)
        for name, fn in others:
            if name == "pure Python" and n > pure_max:
                continue
            got = fn(data)
            if expect is not None and got != expect:
                raise SystemExit(f"{name} disagrees at {label}: {got:#06x} != {expect:#06x}")
            row[name] = time_call(fn, data, repeat, min_run_s)
        if expect is not None and csum.checksum(data) != expect:
            raise SystemExit(f"csum.checksum disagrees at {label}")
        rows.append(row)
    return {"rows": rows, "peers": [name for name, _ in others]}


def bench_scapy(packets: int, repeat: int, payload: int) -> Optional[Dict[str, Any]]:
    try:
        import logging
        logging.getLogger("scapy").setLevel(logging.ERROR)
        from scapy.layers import inet
        from scapy.compat import raw
    except ImportError:
        return None
    # Any: scapy types `/` with typing.Self from Python 3.11 on, and before with a stand-in
    # that mypy cannot use ("Unsupported left operand type for /" under 3.9 and 3.10).
    IP: Any = inet.IP
    TCP: Any = inet.TCP
    import csum.scapy as cs

    body = bytes((i * 31 + 7) & 0xFF for i in range(payload))

    def build() -> float:
        t0 = timeit.default_timer()
        for i in range(packets):
            raw(IP(src="192.0.2.1", dst="198.51.100.2") /
                TCP(sport=1024 + i % 50000, dport=443, seq=i) / body)
        return timeit.default_timer() - t0

    same = all(raw(IP(dst="198.51.100.2", id=i) / TCP(seq=i) / body) ==
               _with_install(cs, lambda: raw(IP(dst="198.51.100.2", id=i) / TCP(seq=i) / body))
               for i in range(20))
    plain, fast = [], []
    for _ in range(repeat):  # interleaved, so drift on a busy machine hits both alike
        cs.uninstall()
        plain.append(build())
        cs.install()
        fast.append(build())
    cs.uninstall()
    return {"packets": packets, "payload": payload, "identical": same,
            "scapy": (statistics.median(plain), min(plain)),
            "install": (statistics.median(fast), min(fast))}


def _with_install(cs: Any, fn: Callable[[], bytes]) -> bytes:
    cs.install()
    try:
        return fn()
    finally:
        cs.uninstall()


def _two_threads(data: bytes, calls: int) -> float:
    """Seconds for two threads to make `calls` csum.checksum(data) calls each."""
    import threading

    def work() -> None:
        fn = csum.checksum
        for _ in range(calls):
            fn(data)

    threads = [threading.Thread(target=work) for _ in range(2)]
    t0 = timeit.default_timer()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return timeit.default_timer() - t0


def bench_gil(repeat: int, min_run_s: float) -> Dict[str, Any]:
    """One thread: what a release/reacquire pair adds to a call. Two threads summing at once:
    whether releasing pays (they can then run on two cores) or costs (the GIL's hand-over)."""
    rows = []
    saved = _csum._gil_threshold()
    try:
        for n in (4 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20):
            data = bytes(n)
            row: Dict[str, Any] = {"bytes": n}
            calls = max(20, int(min_run_s * 4e10 / n))
            for mode, threshold in (("held", 1 << 62), ("released", 0)):
                _csum._gil_threshold(threshold)
                row[mode] = time_call(csum.checksum, data, repeat, min_run_s)[0]
                row[mode + "_2t"] = min(_two_threads(data, calls) for _ in range(repeat)) / (2 * calls)
            rows.append(row)
    finally:
        _csum._gil_threshold(saved)
    return {"rows": rows, "threshold": saved}


def report(result: Dict[str, Any]) -> str:
    m = result["machine"]
    out = [f"- {m['cpu']}; {m['cpus']} CPUs" + (f"; {m['hypervisor']}" if m["hypervisor"] else ""),
           f"- csum {m['csum']}; {m['python']}; {m['date']}",
           f"- median (minimum) per call over {result['repeat']} runs (timeit); "
           f"speed-up = ratio of medians in this run", ""]
    sizes = result["sizes"]
    names = ["csum"] + sizes["peers"]
    head = ["size"] + [f"`{n}`" if n != "pure Python" else n for n in
                       ["csum.checksum"] + sizes["peers"]] + \
           [f"csum vs {n.split()[0] if n != 'pure Python' else 'pure Python'}" for n in sizes["peers"]]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|")
    for row in sizes["rows"]:
        cells = [row["size"]]
        for n in names:
            cells.append(f"{fmt_time(row[n][0])} ({fmt_time(row[n][1])})" if n in row else "-")
        for n in sizes["peers"]:
            cells.append(f"{row[n][0] / row['csum'][0]:,.0f}×" if n in row else "-")
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.extend(targets(result))
    sc = result.get("scapy")
    if sc:
        p, f = sc["scapy"], sc["install"]
        out += ["", f"scapy building {sc['packets']:,} TCP packets "
                f"(`raw(IP()/TCP()/payload)`, {sc['payload']}-byte payload), "
                f"{result['scapy_repeat']} interleaved runs:", "",
                "| | total, median (min) | per packet |", "|---|---:|---:|",
                f"| scapy | {p[0]:.2f} s ({p[1]:.2f} s) | {p[0] / sc['packets'] * 1e6:.1f} µs |",
                f"| scapy + `csum.scapy.install()` | {f[0]:.2f} s ({f[1]:.2f} s) | "
                f"{f[0] / sc['packets'] * 1e6:.1f} µs |", "",
                f"With install(): {p[1] / f[1]:.2f}× as fast by the fastest runs "
                f"({(1 - f[1] / p[1]) * 100:.0f}% less time), {p[0] / f[0]:.2f}× by the medians "
                f"(a run a few seconds long is easily disturbed on a shared machine: when the two "
                f"differ, the fastest runs are the less disturbed); packets byte-identical: "
                f"{'yes' if sc['identical'] else 'NO'}."]
    g = result.get("gil")
    if g:
        out += ["", f"Releasing the GIL (the extension releases it from {g['threshold']:,} bytes): "
                "one thread, time per call; two threads calling at once, time per call of the pair "
                "(minimum of the runs):", "",
                "| bytes | 1 thread, held | released | release costs | 2 threads, held | released | gain |",
                "|---:|---:|---:|---:|---:|---:|---:|"]
        for r in g["rows"]:
            cost = r["released"] - r["held"]
            out.append(f"| {r['bytes']:,} | {fmt_time(r['held'])} | {fmt_time(r['released'])} | "
                       f"{cost * 1e9:+.0f} ns ({cost / r['held'] * 100:+.0f}%) | "
                       f"{fmt_time(r['held_2t'])} | {fmt_time(r['released_2t'])} | "
                       f"{r['held_2t'] / r['released_2t']:.2f}× |")
    return "\n".join(out)


def targets(result: Dict[str, Any]) -> List[str]:
    rows = {r["bytes"]: r for r in result["sizes"]["rows"]}
    lines = []
    if 20 in rows:
        ns = rows[20]["csum"][0] * 1e9
        lines.append(f"- call overhead at 20 B: {ns:.0f} ns (target ≤ {TARGETS['overhead_ns_20']:.0f} ns: "
                     f"{'met' if ns <= TARGETS['overhead_ns_20'] else 'NOT met'})")
    for n, key in ((1500, "vs_scapy_1500"), (65536, "vs_scapy_65536")):
        r = rows.get(n)
        if r and "scapy.utils.checksum" in r:
            x = r["scapy.utils.checksum"][0] / r["csum"][0]
            lines.append(f"- vs scapy at {r['size']}: {x:,.0f}× (target ≥ {TARGETS[key]:.0f}×: "
                         f"{'met' if x >= TARGETS[key] else 'NOT met'})")
    return lines


MARK_BEGIN, MARK_END = "<!-- csum.bench:begin -->", "<!-- csum.bench:end -->"


def readme_block(text: str, raw: str) -> str:
    """The README's block: the report, and where its raw results are (relative to the README),
    so that every figure in it can be traced to a committed file and made again from it."""
    return (f"{MARK_BEGIN}\n<!-- written by `python -m csum.bench --update-readme`; do not edit -->\n"
            f"{text}\n\nRaw results: [`{raw}`]({raw}) "
            f"(`python -m csum.bench --from-json {raw}` reports them again).\n")


def readme_block_in(doc: str, path: str) -> Tuple[int, int]:
    start, end = doc.find(MARK_BEGIN), doc.find(MARK_END)
    if start < 0 or end < start:
        raise SystemExit(f"{path}: no {MARK_BEGIN} ... {MARK_END} block")
    return start, end


def update_readme(path: str, text: str, raw_file: str) -> None:
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    start, end = readme_block_in(doc, path)
    raw = os.path.relpath(raw_file, os.path.dirname(os.path.abspath(path)))
    with open(path, "w", encoding="utf-8") as f:
        f.write(doc[:start] + readme_block(text, raw) + doc[end:])


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m csum.bench", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer runs and packets (a smoke test)")
    ap.add_argument("--packets", type=int, default=None, help="scapy packets per run (100000)")
    ap.add_argument("--no-scapy-build", action="store_true", help="skip the packet-building table")
    ap.add_argument("--json", metavar="FILE", help="also write the raw results as JSON")
    ap.add_argument("--from-json", metavar="FILE",
                    help="measure nothing: report the results saved by an earlier --json")
    ap.add_argument("--update-readme", metavar="FILE",
                    help=f"replace the text between {MARK_BEGIN} and {MARK_END} in FILE with "
                         "the report (how the README's table is made), with a link to the raw "
                         "results: needs --json or --from-json")
    args = ap.parse_args(argv)
    raw_file = args.from_json or args.json
    if args.update_readme and not raw_file:
        ap.error("--update-readme needs --json FILE (or --from-json FILE): a README figure must "
                 "come from raw results that are kept (commit them under docs/results/)")
    repeat, min_run = (3, 0.02) if args.quick else (9, 0.2)
    packets = args.packets or (2000 if args.quick else 100_000)
    scapy_repeat = 1 if args.quick else 3
    if args.from_json:
        with open(args.from_json) as f:
            result: Dict[str, Any] = json.load(f)
    else:
        result = {"machine": machine(), "repeat": repeat, "scapy_repeat": scapy_repeat}
        result["sizes"] = bench_sizes(repeat, min_run, pure_max=1 << 20)
        if not args.no_scapy_build:
            result["scapy"] = bench_scapy(packets, scapy_repeat, payload=1460)
        result["gil"] = bench_gil(repeat, min_run)
    text = report(result)
    print(text)
    if args.json and not args.from_json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if args.update_readme:
        update_readme(args.update_readme, text, raw_file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
