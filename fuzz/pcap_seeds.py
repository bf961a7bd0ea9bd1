#!/usr/bin/env python3
"""Seed corpora of the pcap fuzz targets, cut from csum-pcapgen's test corpus.

    build/csum-pcapgen DIR && fuzz/pcap_seeds.py DIR [--into FUZZDIR]

rewrites its seeds in fuzz/corpus/pcap/ (the first records of every capture, its malformed,
unsupported-version and cut-short files, and a gzip- and a zstd-compressed capture), fuzz/corpus/pcap_packet/ (frames
of every link type, tunnel and policy case, in fuzz_pcap_packet.c's layout) and
fuzz/corpus/pcap_stream/ (small captures with read-ahead and compression bytes,
fuzz_pcap_stream.c's layout). The seeds it wrote are listed in fuzz/pcap_seeds.generated; only
those are removed on the next run, so inputs added by hand (a fixed fuzz failure, a regression
case) stay. --into writes into FUZZDIR/corpus/ and FUZZDIR/pcap_seeds.generated instead (a copy,
to compare: tests/pcap_seeds_test.sh).

The output depends on csum-pcapgen's corpus only: a file whose bytes are unchanged is not
touched, and a compressed seed that still decompresses to the same capture is kept as it is
(another zlib or zstd writes other bytes for the same input; without the zstd tool the .zst
seed is kept). Run it after every change to csum-pcapgen's captures: the pcap-seeds test fails
until the committed seeds are those of the corpus.
"""
import gzip
import os
import shutil
import struct
import subprocess
import sys

FUZZ = os.path.dirname(os.path.abspath(__file__))
# fuzz_pcap_packet.c's table of link types, in order.
# Captures whose 802.11 frames end with an FCS, and the number of the first frame whose FCS is
# wrong (`csum pcap verify --fcs` on csum-pcapgen's capture), for the pcap_stream seeds.
FCS_FRAMES = {"radiotap.pcap": 15, "ppi.pcap": 12}
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


def gunzip(data):
    try:
        return gzip.decompress(data)
    except (OSError, EOFError):
        return None


def unzstd(data):
    if not shutil.which("zstd"):
        return None
    r = subprocess.run(["zstd", "-q", "-d", "-c"], input=data, capture_output=True)
    return r.stdout if r.returncode == 0 else None


def zstd(data):
    if not shutil.which("zstd"):
        return None
    return subprocess.run(["zstd", "-q", "-c"], input=data, capture_output=True,
                          check=True).stdout


def seeds(src):
    """{path relative to the corpus root: bytes, or a (raw, compress, decompress) triple for a
    compressed seed} of the captures in src."""
    out = {}
    manifest = [l.split() for l in open(os.path.join(src, "MANIFEST"))]
    small = None
    fcs_captures = {}  # captures whose frames end with an FCS, right and wrong
    for kind, name, *rest in manifest:
        data = open(os.path.join(src, name), "rb").read()
        stem = name.rsplit(".", 1)[0]
        if kind in ("malformed", "unsupported", "cut"):
            out["pcap/" + name] = data
            continue
        if kind != "capture":
            continue
        if name.endswith(".pcapng"):
            out["pcap/" + stem + "-first12.pcapng"] = pcapng_prefix(data, 12)
            continue
        header, records, end = pcap_records(data)
        first = header + b"".join(h + p for h, p in records[:4] if len(p) < 4000)
        out["pcap/" + stem + "-first4.pcap"] = first
        if small is None and name == "tunnel-gre-csum.pcap":
            small = first
        if name in FCS_FRAMES:  # the first three frames and the first one with a wrong FCS
            fcs_captures[stem] = header + b"".join(
                h + p for h, p in records[:3] + [records[FCS_FRAMES[name] - 1]])
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
                    out["pcap_packet/%s-frame%d" % (stem, n)] = bytes([index, options]) + packet
    out["pcap/tunnel-gre-csum-first4.pcap.gz"] = (small, lambda b: gzip.compress(b, mtime=0), gunzip)
    out["pcap/tunnel-gre-csum-first4.pcap.zst"] = (small, zstd, unzstd)
    out["pcap_stream/plain-window1"] = bytes([0, 0]) + small
    out["pcap_stream/gzip-window7"] = bytes([6, 1]) + small
    out["pcap_stream/zstd-window64"] = bytes([63, 2]) + small
    out["pcap_stream/cut-record-window3"] = bytes([2, 1]) + small[:-30]
    # Byte 1's bit 7 checks the FCSs (--fcs), bit 6 keeps right ones right when fixing.
    out["pcap_stream/radiotap-fcs-checked-gzip-window5"] = bytes([4, 0xC1]) + fcs_captures["radiotap"]
    out["pcap_stream/radiotap-fcs-kept-zstd-window9"] = bytes([8, 0x42]) + fcs_captures["radiotap"]
    out["pcap_stream/ppi-fcs-checked-window3"] = bytes([2, 0xC0]) + fcs_captures["ppi"]
    return out


def main():
    args = sys.argv[1:]
    fuzz = FUZZ
    if len(args) == 3 and args[1] == "--into":
        fuzz = args[2]
    elif len(args) != 1:
        sys.exit("usage: pcap_seeds.py CAPTURE_DIR [--into FUZZDIR]")
    root = os.path.join(fuzz, "corpus")
    listing = os.path.join(fuzz, "pcap_seeds.generated")
    new = seeds(args[0])
    old = open(listing).read().split() if os.path.exists(listing) else []
    for rel in old:
        if rel not in new and os.path.exists(os.path.join(root, rel)):
            os.remove(os.path.join(root, rel))
    for rel, data in sorted(new.items()):
        path = os.path.join(root, rel)
        current = open(path, "rb").read() if os.path.exists(path) else None
        if isinstance(data, tuple):
            raw, compress, decompress = data
            if current is not None and decompress(current) == raw:
                continue  # the same capture, whoever compressed it
            data = compress(raw)
            if data is None:
                print("pcap_seeds.py: %s kept: no compressor" % rel, file=sys.stderr)
                continue
        if data != current:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
    text = "".join(rel + "\n" for rel in sorted(new))
    if not os.path.exists(listing) or open(listing).read() != text:
        with open(listing, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
