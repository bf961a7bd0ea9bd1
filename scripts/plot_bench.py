#!/usr/bin/env python3
"""Plots for a csum lab run: reads DIR/results.json, writes DIR/*.png and appends a Plots
section to DIR/report.md. Needs matplotlib; `make bench` installs it into .venv."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# tab20 without its reds: red is csum_partial's colour, the line that matters most.
PALETTE = [c for i, c in enumerate(plt.get_cmap("tab20").colors) if i not in (6, 7)]


def rows(doc, table, **match):
    return [r for r in doc["results"]
            if r["table"] == table and all(r.get(k) == v for k, v in match.items())]


def plot_sizes(doc, out_dir, mode):
    data = rows(doc, "sizes", mode=mode)
    if not data:
        return None
    impls = []
    for r in data:
        if r["impl"] not in impls:
            impls.append(r["impl"])
    fig, ax = plt.subplots(figsize=(11, 6))
    palette = PALETTE
    for k, impl in enumerate(impls):
        pts = sorted((r["len"], r["bytes_per_tick"]) for r in data
                     if r["impl"] == impl and r["bytes_per_tick"] is not None)
        if not pts:
            continue
        xs, ys = zip(*pts)
        if impl == "roofline":  # the load limit, at its best batch
            style = dict(color="black", linestyle="--", linewidth=2)
        elif impl == "csum_partial":  # what users call: the one line that matters most
            style = dict(color="crimson", linewidth=3, marker=".")
        else:
            style = dict(color=palette[k % len(palette)], linewidth=1, marker=".", markersize=3)
        ax.plot(xs, ys, label=impl, **style)
    levels = {r["variant"]: r["len"] for r in data if r["variant"] in ("L2", "L3", "DRAM")}
    for name, x in levels.items():
        ax.axvline(x, color="grey", linewidth=0.5)
        ax.text(x, ax.get_ylim()[1] * 0.97, name, ha="center", va="top", fontsize=8, color="grey")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("buffer length (bytes, log scale)")
    ax.set_ylabel("bytes per %s (median)" % doc["machine"]["tick"].rstrip("s"))
    ax.set_title("csum_partial speed by length, %s mode (%s, %s)"
                 % (mode, doc["machine"]["cpu"], doc["machine"]["date"]))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    name = "sizes-%s.png" % mode
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


def plot_bars(doc, out_dir, name, title, data, groups, group_key, series, series_key, value,
              ylabel, log=False):
    """Grouped bars: one group per `groups` entry, one bar per `series` entry in each."""
    groups = [g for g in groups if any(group_key(r) == g for r in data)]
    series = [x for x in series if any(series_key(r) == x for r in data)]
    if not groups or not series:
        return None
    fig, ax = plt.subplots(figsize=(min(16, 2 + 0.22 * len(groups) * len(series)), 6))
    width = 0.8 / len(series)
    palette = PALETTE
    for i, x in enumerate(series):
        ys = []
        for g in groups:
            v = [value(r) for r in data if series_key(r) == x and group_key(r) == g]
            ys.append(v[0] if v and v[0] is not None else 0)
        color = "crimson" if x == "csum_partial" else palette[i % len(palette)]
        ax.bar([k + i * width for k in range(len(groups))], ys, width, label=x, color=color)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(groups))])
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    if log:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title("%s (%s, %s)" % (title, doc["machine"]["cpu"], doc["machine"]["date"]))
    ax.grid(True, axis="y", alpha=0.3, which="both")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


def ordered(values):
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def main():
    out_dir = sys.argv[1]
    with open(os.path.join(out_dir, "results.json")) as f:
        doc = json.load(f)
    made = []
    for mode in ("latency", "throughput"):
        made.append(plot_sizes(doc, out_dir, mode))
    tick = doc["machine"]["tick"]
    case = lambda r: "%d/%d%s" % (r["len"], r["align"], " straddle" if r["variant"] == "page-straddle" else "")
    lenalign = [r for r in rows(doc, "lenalign", mode="latency") if r["len"] <= 1500]
    made.append(plot_bars(
        doc, out_dir, "lenalign.png", "lenalign (seed 000), latency mode, cases up to 1500 bytes",
        lenalign, ordered(case(r) for r in lenalign), case,
        ["csum_partial", "x86-scalar", "linux-6.8", "x86-herbert", "x86-2002", "generic", "dpdk"],
        lambda r: r["impl"], lambda r: r["ns_median"], "ns per call (median, log scale)", log=True))
    h40 = [r for r in rows(doc, "h40") if r["variant"].startswith("even")]
    made.append(plot_bars(
        doc, out_dir, "h40.png", "h40 (seed 003): 40 bytes at an even address", h40,
        ordered(r["impl"] for r in h40), lambda r: r["impl"], ["throughput", "latency", "fenced"],
        lambda r: r["mode"], lambda r: r["ticks_median"], "%s per call (median)" % tick))
    thrash = rows(doc, "thrash")
    made.append(plot_bars(
        doc, out_dir, "thrash.png", "thrash (seed 000): two (length, alignment) cases", thrash,
        ordered(r["impl"] for r in thrash), lambda r: r["impl"], ["grouped", "interleaved", "random"],
        lambda r: r["variant"], lambda r: r["ticks_median"], "%s per call (median)" % tick))
    memops = rows(doc, "memops")
    op = lambda r: "%s %s" % (r["variant"].split(",")[0], r["impl"])  # e.g. "zero avx512-nt"
    level = lambda r: r["variant"].split(", ")[-1]
    made.append(plot_bars(
        doc, out_dir, "memops.png", "memops (seed 002): cached 4 KiB vs uncached 400 MB", memops,
        ordered(op(r) for r in memops), op, ["cached", "uncached"], level, lambda r: r["gbps"],
        "GB/s (median, log scale)", log=True))
    made = [m for m in made if m]
    with open(os.path.join(out_dir, "report.md"), "a") as f:
        f.write("\n## Plots\n\n")
        for m in made:
            f.write("![%s](%s)\n\n" % (m[:-4], m))
    print("plots: " + ", ".join(made))


if __name__ == "__main__":
    main()
