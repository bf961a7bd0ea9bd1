#!/usr/bin/env python3
"""Seed corpora of the pcap fuzz targets, cut from csum-pcapgen's test corpus.

    build/csum-pcapgen DIR && fuzz/pcap_seeds.py DIR

rewrites its seeds in fuzz/corpus/pcap/ (the first records of every capture, its malformed
files, and a gzip- and a zstd-compressed capture), fuzz/corpus/pcap_packet/ (frames of every
link type, tunnel and policy case, in fuzz_pcap_packet.c's layout) and fuzz/corpus/pcap_stream/
(small captures with read-ahead and compression bytes, fuzz_pcap_stream.c's layout). The seeds
it wrote are listed in fuzz/pcap_seeds.generated; only those are removed on the next run, so
inputs added by hand (a fixed fuzz failure, a regression case) stay.
"""
import gzip
import os
import shutil
import struct
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
# What the last run wrote (paths relative to ROOT), one per line.
GENERATED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pcap_seeds.generated")
written = []
# fuzz_pcap_packet.c's table of link types, in order.
LINKTYPES = [0, 1, 8, 9, 12, 14, 50, 51, 101, 104, 105, 107, 108, 113, 119, 127, 163, 192,
             204, 205, 206, 228, 229, 239, 258, 276, 147]


def pcap_records(data):
    """(header, [(record header, packet bytes)], big-endian?) of a pcap file."""
    big = data[:4] in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d")
    end = ">" if big else "<"
    out, off = [], 24
    while off + 16 <= len(data):
        caplen = struct.unpack(end + "I", data[off + 8:off + 12])[0]
        out.append((data[off:off + 16], data[off + 16:off + 16 + caplen]))
        off += 16 + caplen
    return data[:24], out, end


def pcapng_prefix(data, blocks):
    """The first `blocks` blocks of a pcapng file (one byte order throughout is assumed)."""
    end = "<" if data[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
    off = 0
    for _ in range(blocks):
        if off + 8 > len(data):
            break
        off += struct.unpack(end + "I", data[off + 4:off + 8])[0]
    return data[:off]


def write(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        f.write(data)
    written.append(os.path.relpath(path, ROOT))


def main():
    src = sys.argv[1]
    manifest = [l.split() for l in open(os.path.join(src, "MANIFEST"))]
    dirs = {t: os.path.join(ROOT, t) for t in ("pcap", "pcap_packet", "pcap_stream")}
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)
    if os.path.exists(GENERATED):
        for rel in open(GENERATED).read().split("\n"):
            if rel and os.path.exists(os.path.join(ROOT, rel)):
                os.remove(os.path.join(ROOT, rel))
    small = None
    for kind, name, *rest in manifest:
        data = open(os.path.join(src, name), "rb").read()
        stem = name.rsplit(".", 1)[0]
        if kind == "malformed":
            write(dirs["pcap"], name, data)
            continue
        if kind != "capture":
            continue
        if name.endswith(".pcapng"):
            write(dirs["pcap"], stem + "-first12.pcapng", pcapng_prefix(data, 12))
            continue
        header, records, end = pcap_records(data)
        first = header + b"".join(h + p for h, p in records[:4] if len(p) < 4000)
        write(dirs["pcap"], stem + "-first4.pcap", first)
        if small is None and name == "tunnel-gre-csum.pcap":
            small = first
        linktype = struct.unpack(end + "I", header[20:24])[0] & 0xffff
        index = LINKTYPES.index(linktype)
        options = 4 if "--vxlan-port=8472" in rest or "--geneve-port=6082" in rest else 0
        expect = open(os.path.join(src, name + ".expect")).read().split("\n")
        # Frames with something to say: inner layers, bad and offload verdicts, the first.
        wanted = {1}
        for line in expect:
            w = line.split()
            if w and (w[1] == "inner" or w[3] in ("bad", "offload", "none")):
                wanted.add(int(w[0]))
        for n in sorted(wanted)[:3]:
            if n <= len(records):
                packet = records[n - 1][1]
                if len(packet) <= 70000:
                    write(dirs["pcap_packet"], "%s-frame%d" % (stem, n),
                          bytes([index, options]) + packet)
    write(dirs["pcap"], "tunnel-gre-csum-first4.pcap.gz", gzip.compress(small, mtime=0))
    write(dirs["pcap_stream"], "plain-window1", bytes([0, 0]) + small)
    write(dirs["pcap_stream"], "gzip-window7", bytes([6, 1]) + small)
    write(dirs["pcap_stream"], "zstd-window64", bytes([63, 2]) + small)
    write(dirs["pcap_stream"], "cut-record-window3", bytes([2, 1]) + small[:-30])
    if shutil.which("zstd"):
        z = subprocess.run(["zstd", "-q", "-c"], input=small, capture_output=True, check=True)
        write(dirs["pcap"], "tunnel-gre-csum-first4.pcap.zst", z.stdout)
    with open(GENERATED, "w") as f:
        f.write("".join(rel + "\n" for rel in sorted(set(written))))


if __name__ == "__main__":
    main()
