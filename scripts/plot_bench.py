#!/usr/bin/env python3
"""Plots for a csum lab run: reads DIR/results.json, writes DIR/*.png and appends a Plots
section to DIR/report.md. Needs matplotlib; `make bench` (scripts/plot.sh) installs it into
.venv and keeps its config there.

Conventions for every plot: csum_partial (what users call) is the thick crimson line, the
peers (DPDK, as DPDK builds it and with -march=native) are thick blues, the kernel's algorithm
(linux-6.8) is black, the roofline a dashed grey limit; other rows are thin, each in its own
colour and marker. Axes over lengths are log scale so short lengths stay visible, and log axes
are labelled with plain numbers (1, 2, 5, 10, ...)."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

EMPHASIS = {
    "csum_partial": dict(color="#c8102e", linewidth=3.0, marker="o", markersize=4, zorder=10),
    "dpdk": dict(color="#1f4e9c", linewidth=2.4, marker="s", markersize=4, zorder=9),
    "dpdk-native": dict(color="#4aa3df", linewidth=2.4, marker="D", markersize=4, zorder=9,
                        linestyle="-."),
    "linux-6.8": dict(color="black", linewidth=2.0, marker="^", markersize=4, zorder=8),
    "roofline": dict(color="#777777", linewidth=2.0, linestyle="--", zorder=7),
}
# Distinct hues for the other rows (no reds, no blues: those are taken above).
OTHERS = ["#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
          "#7f7f00", "#006d5b", "#d4a017", "#5e3c99", "#a6611a", "#66a61e", "#e7298a"]
MARKERS = ["v", "<", ">", "p", "h", "*", "X", "P", "d", "1", "2", "3", "4", "+"]


def style_for(name, k):
    if name in EMPHASIS:
        return dict(EMPHASIS[name])
    return dict(color=OTHERS[k % len(OTHERS)], linewidth=1.0, marker=MARKERS[k % len(MARKERS)],
                markersize=3, alpha=0.85, zorder=3)


def colour_for(name, k):
    return style_for(name, k)["color"]


def plain(v, _pos=None):
    if v >= 1:
        return "%g" % v
    return ("%.3f" % v).rstrip("0").rstrip(".")


def bytes_label(v, _pos=None):
    v = int(round(v))
    if v >= 1 << 20 and v % (1 << 20) == 0:
        return "%dM" % (v >> 20)
    if v >= 1 << 10 and v % (1 << 10) == 0:
        return "%dK" % (v >> 10)
    return str(v)


def log_axis(axis, base=10):
    """Log scale with readable labels at 1, 2, 5 x 10^k."""
    axis.set_major_locator(LogLocator(base=base, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(plain))
    axis.set_minor_formatter(NullFormatter())


def bytes_axis(ax):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=4))
    ax.xaxis.set_major_formatter(FuncFormatter(bytes_label))
    ax.xaxis.set_minor_formatter(NullFormatter())


def rows(doc, table, **match):
    return [r for r in doc["results"]
            if r["table"] == table and all(r.get(k) == v for k, v in match.items())]


def ordered(values):
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def title(doc, text):
    m = doc["machine"]
    kind = "--quick run" if doc["method"].get("quick") else "full run"
    return "%s\n%s, %s, %s" % (text, m["cpu"], m["date"], kind)


def save(fig, out_dir, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)
    return name


def refused_ranges(doc, table, mode):
    """{impl: (min_len, max_len)} of the cases where a subject was refused."""
    spans = {}
    for r in doc.get("refused", []):
        if r["table"] == table and r["mode"] == mode:
            lo, hi = spans.get(r["impl"], (r["len"], r["len"]))
            spans[r["impl"]] = (min(lo, r["len"]), max(hi, r["len"]))
    return spans


def plot_sizes(doc, out_dir, mode):
    data = rows(doc, "sizes", mode=mode)
    if not data:
        return None
    impls = ordered(r["impl"] for r in data)
    # Draw the thin lines first, the emphasised ones on top.
    impls.sort(key=lambda i: (i in EMPHASIS, i == "csum_partial"))
    fig, ax = plt.subplots(figsize=(12, 7))
    for k, impl in enumerate(impls):
        pts = sorted((r["len"], r["bytes_per_tick"], r.get("noisy")) for r in data
                     if r["impl"] == impl and r["bytes_per_tick"])
        if not pts:
            continue
        xs, ys, noisy = zip(*pts)
        st = style_for(impl, k)
        label = impl + (" (best batch: a limit)" if impl == "roofline" else "")
        ax.plot(xs, ys, label=label, **st)
        nx = [x for x, n in zip(xs, noisy) if n]
        ny = [y for y, n in zip(ys, noisy) if n]
        if nx:
            ax.scatter(nx, ny, s=40, facecolors="none", edgecolors=st["color"], linewidths=0.8,
                       zorder=11)
    ax.set_yscale("log")
    log_axis(ax.yaxis)
    bytes_axis(ax)
    for k, (impl, (lo, hi)) in enumerate(sorted(refused_ranges(doc, "sizes", mode).items())):
        st = style_for(impl, impls.index(impl) if impl in impls else k)
        ax.axvspan(lo / 1.15, hi * 1.15, color=st["color"], alpha=0.06, hatch="//")
        ax.text(lo, 0.03 + 0.05 * k, " %s: refused from %s B (wrong sum)" % (impl, bytes_label(lo)),
                color=st["color"], fontsize=8, va="bottom", transform=ax.get_xaxis_transform())
    levels = {r["variant"]: r["len"] for r in data if r["variant"] in ("L2", "L3", "DRAM")}
    for name, x in levels.items():
        ax.axvline(x, color="grey", linewidth=0.5)
        ax.text(x, ax.get_ylim()[1], name, ha="center", va="bottom", fontsize=8, color="grey")
    ax.set_xlabel("buffer length, bytes (log scale)")
    ax.set_ylabel("bytes per %s, median (log scale; higher is faster)"
                  % doc["machine"]["tick"].rstrip("s"))
    ax.set_title(title(doc, "csum_partial and every subject by length, %s mode "
                       "(open circles: noisy)" % mode), fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, ncol=3, loc="upper left")
    return save(fig, out_dir, "sizes-%s.png" % mode)


def plot_ratio(doc, out_dir):
    """csum_partial's time divided by linux-6.8's and each peer's, by length, both modes."""
    data = rows(doc, "sizes")
    mine = {(r["mode"], r["len"]): r["ticks_median"] for r in data
            if r["impl"] == "csum_partial" and not r["variant"]}
    if not mine:
        return None
    against = ["linux-6.8"] + [s for s in doc.get("summary", {}).get("against", []) if s != "linux-6.8"]
    fig, ax = plt.subplots(figsize=(12, 6))
    for k, other in enumerate(against):
        for mode, dash in (("latency", "-"), ("throughput", ":")):
            pts = sorted((r["len"], mine[(mode, r["len"])] / r["ticks_median"]) for r in data
                         if r["impl"] == other and r["mode"] == mode and not r["variant"]
                         and (mode, r["len"]) in mine)
            if not pts:
                continue
            xs, ys = zip(*pts)
            st = style_for(other, k)
            st["linestyle"] = dash
            ax.plot(xs, ys, label="÷ %s, %s" % (other, mode), **st)
    ax.axhline(1.0, color="#c8102e", linewidth=1.2)
    ax.text(1, 1.02, "equal", color="#c8102e", fontsize=8, va="bottom")
    ax.set_yscale("log")
    log_axis(ax.yaxis)
    bytes_axis(ax)
    ax.set_xlabel("buffer length, bytes (log scale)")
    ax.set_ylabel("csum_partial time ÷ other's time (log scale; below 1: csum_partial faster)")
    ax.set_title(title(doc, "csum_partial against the kernel's algorithm and the peers "
                       "(solid: latency, dotted: throughput)"), fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    return save(fig, out_dir, "ratio.png")


def plot_bars(doc, out_dir, name, text, data, groups, group_key, series, series_key, value,
              ylabel, log=False):
    """Grouped bars: one group per `groups` entry, one bar per `series` entry in each."""
    groups = [g for g in groups if any(group_key(r) == g for r in data)]
    series = [x for x in series if any(series_key(r) == x for r in data)]
    if not groups or not series:
        return None
    fig, ax = plt.subplots(figsize=(min(16, 3 + 0.25 * len(groups) * len(series)), 6))
    width = 0.8 / len(series)
    for i, x in enumerate(series):
        ys = []
        for g in groups:
            v = [value(r) for r in data if series_key(r) == x and group_key(r) == g]
            ys.append(v[0] if v and v[0] is not None else 0)
        ax.bar([k + i * width for k in range(len(groups))], ys, width, label=x,
               color=colour_for(x, i), edgecolor="black" if x in EMPHASIS else "none",
               linewidth=0.6)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(groups))])
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    if log:
        ax.set_yscale("log")
        log_axis(ax.yaxis)
    ax.set_ylabel(ylabel)
    ax.set_title(title(doc, text), fontsize=10)
    ax.grid(True, axis="y", alpha=0.3, which="major")
    ax.legend(fontsize=8, ncol=2)
    return save(fig, out_dir, name)


def plot_h40(doc, out_dir):
    """One panel per column of the h40 table, subjects down the side, even and odd address."""
    data = rows(doc, "h40")
    if not data:
        return None
    subjects = ordered(r["impl"] for r in data)
    panels = [("throughput", "throughput", False), ("latency", "latency", False),
              ("latency, seed added after", "latency", True), ("fenced (lfence)", "fenced", False)]
    panels = [p for p in panels if any(r["mode"] == p[1] and ("seed-after" in r["variant"]) == p[2]
                                       for r in data)]
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels) + 2, 0.32 * len(subjects) + 2),
                             sharey=True)
    if len(panels) == 1:
        axes = [axes]
    ys = range(len(subjects))
    for ax, (label, mode, after) in zip(axes, panels):
        for j, parity in enumerate(("even", "odd")):
            vals = []
            for s in subjects:
                v = [r["ticks_median"] for r in data if r["impl"] == s and r["mode"] == mode
                     and r["variant"].split(",")[0] == parity
                     and ("seed-after" in r["variant"]) == after]
                vals.append(v[0] if v else 0)
            colours = [colour_for(s, i) if s in EMPHASIS
                       else "#d95f02" if s.endswith("/first")  # seed enters first: orange
                       else "#4d8f4d" for i, s in enumerate(subjects)]
            ax.barh([y + (0.4 if j else 0) for y in ys], vals, 0.4, color=colours,
                    hatch="///" if parity == "odd" else None, edgecolor="white",
                    label="%s address" % parity)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("%s per call (median)" % doc["machine"]["tick"])
        ax.grid(True, axis="x", alpha=0.3)
    axes[0].set_yticks([y + 0.2 for y in ys])
    axes[0].set_yticklabels(subjects, fontsize=8)
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=8, loc="lower right")
    fig.suptitle(title(doc, "h40 (van de Ven 2021): 40 bytes; hatched = odd address; orange = initial "
                       "sum enters the chain first (/first), green = other kernels and rows"), fontsize=10)
    return save(fig, out_dir, "h40.png")


def plot_lines(doc, out_dir, name, text, data, series_key, x, y, xlabel, ylabel, xbytes=True,
               styles=None):
    series = ordered(series_key(r) for r in data)
    if not series:
        return None
    fig, ax = plt.subplots(figsize=(11, 6))
    for k, s in enumerate(series):
        pts = sorted((x(r), y(r)) for r in data if series_key(r) == s and y(r))
        if not pts:
            continue
        xs, ys = zip(*pts)
        st = styles(s, k) if styles else style_for(s, k)
        ax.plot(xs, ys, label=s, **st)
    if xbytes:
        bytes_axis(ax)
    else:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(plain))
    ax.set_yscale("log")
    log_axis(ax.yaxis)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title(doc, text), fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    return save(fig, out_dir, name)


def plot_copy(doc, out_dir):
    data = [r for r in rows(doc, "copy") if r["variant"] == "idle" and r["impl"] != "(timer only)"]
    if not data:
        return None
    memcpy = {r["len"]: r["ns_median"] for r in data if r["impl"] == "memcpy"}
    data = [dict(r, ratio=r["ns_median"] / memcpy[r["len"]]) for r in data
            if r["impl"] != "memcpy" and r["len"] in memcpy]
    emph = lambda s, k: (dict(EMPHASIS["csum_partial"]) if s == "csum_partial_copy"
                         else dict(EMPHASIS["linux-6.8"]) if s == "memcpy+csum_partial"
                         else style_for(s, k))
    return plot_lines(doc, out_dir, "copy.png",
                      "copy (Gerum 2021): fused copy+checksum and memcpy+csum_partial, "
                      "time relative to memcpy alone", data, lambda r: r["impl"],
                      lambda r: r["len"], lambda r: r["ratio"], "length, bytes (log scale)",
                      "time ÷ memcpy's (log scale; 1 = as fast as a plain copy)", styles=emph)


def plot_iov(doc, out_dir):
    data = rows(doc, "iov")
    if not data:
        return None
    emph = lambda s, k: dict(EMPHASIS["csum_partial"]) if s == "csum_iov" else style_for(s, k)
    return plot_lines(doc, out_dir, "iov.png",
                      "iov (Viro/Laight 2020): 16 segments; ticks per 64-bit word", data,
                      lambda r: r["impl"], lambda r: r["len"] // 16,
                      lambda r: r["ticks_median"] / (r["len"] / 8.0),
                      "segment size, bytes (log scale)",
                      "%s per 64-bit word (log scale; lower is faster)" % doc["machine"]["tick"],
                      styles=emph)


def plot_batch(doc, out_dir):
    data = rows(doc, "batch")
    if not data:
        return None
    variants = ordered(r["variant"] for r in data)
    dashes = ["-", "--", ":", "-."]

    def styles(s, k):
        impl, variant = s.split(" | ")
        st = dict(EMPHASIS["csum_partial"]) if impl == "csum_ipv4_header_batch" else dict(EMPHASIS["linux-6.8"])
        st["linestyle"] = dashes[variants.index(variant) % len(dashes)]
        st["linewidth"] = 2
        return st

    return plot_lines(doc, out_dir, "batch.png",
                      "batch: IPv4 header checksums, csum_ipv4_header_batch (red) vs a loop of "
                      "csum_ipv4_header (black)", data, lambda r: "%s | %s" % (r["impl"], r["variant"]),
                      lambda r: r["len"], lambda r: r["ticks_median"], "headers per call",
                      "%s per header (log scale)" % doc["machine"]["tick"], xbytes=False,
                      styles=styles)


def plot_pcap(doc, out_dir):
    """The pcap table's rows, each labelled with where its capture was: csum_pcap_verify_buffer
    on a capture in memory, and whole commands (csum pcap verify, tshark, tcpdump -vv) on files
    in the page cache, one bar per command and file size. GB/s on a log axis: the commands
    differ by up to four orders of magnitude."""
    data = [r for r in rows(doc, "pcap") if r.get("gbps")]
    if not data:
        return None

    def where(r):  # "in memory, 268 MB" or "file 100 MB" (the variant up to its RSS)
        if r["variant"] == "in memory":
            return "in memory, %.0f MB" % (r["len"] / 1e6)
        return r["variant"].split(",")[0]

    gbps = [r["gbps"] for r in data]
    fig, ax = plt.subplots(figsize=(9, 1.6 + 0.4 * len(data)))
    ax.barh(range(len(data)), gbps,
            color=["#c8102e" if r["impl"].startswith("csum") else "#555555" for r in data])
    for i, r in enumerate(data):
        ax.text(r["gbps"], i, "  %.3g GB/s" % r["gbps"], va="center", fontsize=8)
    ax.set_yticks(range(len(data)))
    ax.set_yticklabels(["%s (%s)" % (r["impl"], where(r)) for r in data], fontsize=8)
    ax.invert_yaxis()  # the table's order, top to bottom
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(LogLocator(base=10))  # decades: 1, 2, 5 would crowd five of them
    ax.xaxis.set_major_formatter(FuncFormatter(plain))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlim(min(gbps) / 2, max(gbps) * 8)
    ax.set_xlabel("GB/s of capture, median (log scale; higher is faster)")
    ax.set_title(title(doc, "pcap: csum_pcap_verify_buffer on a capture in memory; whole commands\n"
                            "(csum pcap verify, tshark, tcpdump -vv) on files in the page cache"),
                 fontsize=10)
    return save(fig, out_dir, "pcap.png")


def main():
    out_dir = sys.argv[1]
    with open(os.path.join(out_dir, "results.json")) as f:
        doc = json.load(f)
    made = []
    for mode in ("latency", "throughput"):
        made.append(plot_sizes(doc, out_dir, mode))
    made.append(plot_ratio(doc, out_dir))
    case = lambda r: "%d/%d%s" % (r["len"], r["align"], " straddle" if r["variant"] == "page-straddle" else "")
    lenalign = [r for r in rows(doc, "lenalign", mode="latency") if r["len"] <= 1500]
    made.append(plot_bars(
        doc, out_dir, "lenalign.png", "lenalign (Herbert 2016), latency mode, cases up to 1500 bytes",
        lenalign, ordered(case(r) for r in lenalign), case,
        ["csum_partial", "linux-6.8", "dpdk", "dpdk-native", "x86-scalar", "x86-herbert",
         "x86-2002", "generic"],
        lambda r: r["impl"], lambda r: r["ns_median"], "ns per call (median, log scale)", log=True))
    made.append(plot_h40(doc, out_dir))
    thrash = rows(doc, "thrash")
    made.append(plot_bars(
        doc, out_dir, "thrash.png", "thrash (Herbert 2016): two (length, alignment) cases", thrash,
        ordered(r["impl"] for r in thrash), lambda r: r["impl"], ["grouped", "interleaved", "random"],
        lambda r: r["variant"], lambda r: r["ticks_median"], "%s per call (median)" % doc["machine"]["tick"]))
    mixed = rows(doc, "mixed", mode="throughput")
    kind = lambda r: " ".join(r["variant"].split()[:2])  # "1..64 random", "1..64 fixed"
    made.append(plot_bars(
        doc, out_dir, "mixed.png", "mixed: lengths drawn at random every call vs the mean length "
        "alone, throughput mode", mixed, ordered(kind(r) for r in mixed), kind,
        ["csum_partial", "linux-6.8", "dpdk-native", "x86-scalar", "x86-herbert", "avx512-vnni",
         "avx2", "neon", "generic"],
        lambda r: r["impl"], lambda r: r["ticks_median"], "%s per call (median)" % doc["machine"]["tick"]))
    made.append(plot_copy(doc, out_dir))
    memops = rows(doc, "memops")
    op = lambda r: "%s %s" % (r["variant"].split(",")[0], r["impl"])  # e.g. "zero avx512-nt"
    level = lambda r: r["variant"].split(", ")[-1]
    made.append(plot_bars(
        doc, out_dir, "memops.png", "memops (Evans 2003): cached 4 KiB vs uncached 400 MiB", memops,
        ordered(op(r) for r in memops), op, ["cached", "uncached"], level, lambda r: r["gbps"],
        "GB/s (median, log scale)", log=True))
    made.append(plot_iov(doc, out_dir))
    made.append(plot_batch(doc, out_dir))
    made.append(plot_pcap(doc, out_dir))
    made = [m for m in made if m]
    with open(os.path.join(out_dir, "report.md"), "a") as f:
        f.write("\n## Plots\n\n")
        for m in made:
            f.write("![%s](%s)\n\n" % (m[:-4], m))
    print("plots: " + ", ".join(made))


if __name__ == "__main__":
    main()
