#!/usr/bin/env python3
"""Plots for a csum lab run: reads DIR/results.json, writes DIR/*.png and appends a Plots
section to DIR/report.md. Needs matplotlib; `make bench` installs it into .venv."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


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
    palette = plt.get_cmap("tab20").colors
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


def plot_bars(doc, out_dir, table, title, value, ylabel, groups, group_key):
    data = rows(doc, table)
    if not data:
        return None
    impls = []
    for r in data:
        if r["impl"] not in impls:
            impls.append(r["impl"])
    groups = [g for g in groups if any(group_key(r) == g for r in data)]
    if not groups:
        return None
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(groups) * max(1, len(impls)) / 2), 5.5))
    width = 0.8 / max(1, len(impls))
    for i, impl in enumerate(impls):
        ys = []
        for g in groups:
            v = [value(r) for r in data if r["impl"] == impl and group_key(r) == g]
            ys.append(v[0] if v and v[0] is not None else 0)
        ax.bar([k + i * width for k in range(len(groups))], ys, width, label=impl)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(groups))])
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title("%s (%s, %s)" % (title, doc["machine"]["cpu"], doc["machine"]["date"]))
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    name = "%s.png" % table
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


def main():
    out_dir = sys.argv[1]
    with open(os.path.join(out_dir, "results.json")) as f:
        doc = json.load(f)
    made = []
    for mode in ("latency", "throughput"):
        made.append(plot_sizes(doc, out_dir, mode))
    lenalign = rows(doc, "lenalign", mode="latency")
    cases = []
    for r in lenalign:
        label = "%d/%d%s" % (r["len"], r["align"], " straddle" if r["variant"] == "page-straddle" else "")
        if label not in cases and r["len"] <= 1500:
            cases.append(label)
    made.append(plot_bars(
        {**doc, "results": [r for r in doc["results"] if r["table"] != "lenalign" or r["mode"] == "latency"]},
        out_dir, "lenalign", "lenalign, latency mode, cases up to 1500 bytes", lambda r: r["ns_median"],
        "ns per call (median)", cases,
        lambda r: "%d/%d%s" % (r["len"], r["align"], " straddle" if r["variant"] == "page-straddle" else "")))
    made.append(plot_bars(doc, out_dir, "h40", "h40: 40 bytes", lambda r: r["ticks_median"],
                          "%s per call (median)" % doc["machine"]["tick"],
                          ["throughput even", "throughput odd", "latency even", "latency odd",
                           "fenced even", "fenced odd"],
                          lambda r: "%s %s" % (r["mode"], r["variant"].split(",")[0])))
    made.append(plot_bars(doc, out_dir, "thrash", "thrash: branch prediction, 2 combinations",
                          lambda r: r["ticks_median"], "%s per call (median)" % doc["machine"]["tick"],
                          ["grouped", "interleaved", "random"], lambda r: r["variant"]))
    made = [m for m in made if m]
    with open(os.path.join(out_dir, "report.md"), "a") as f:
        f.write("\n## Plots\n\n")
        for m in made:
            f.write("![%s](%s)\n\n" % (m[:-4], m))
    print("plots: " + ", ".join(made))


if __name__ == "__main__":
    main()
