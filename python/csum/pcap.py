"""Check and fix the checksums in packet captures, as ``csum pcap`` does.

Captures are pcap or pcapng, plain or gzip/zstd-compressed (found by content), on every link
type and through every tunnel ``csum pcap`` dissects (``csum pcap --help`` lists them). A
capture may be given as

- a path (``str`` or ``os.PathLike``), read by the C code directly: any name os.fsencode()
  takes (one that is not UTF-8 is in the document as os.fsdecode() gives it);
- a bytes-like object (``bytes``, ``bytearray``, ``memoryview``, ``mmap``, ...) holding the
  capture: read in place, without a copy;
- a binary file object (``open(..., 'rb')``, ``io.BytesIO``, ``gzip.open(...)``, a socket's
  ``makefile('rb')``, ``sys.stdin.buffer``), read from its current position to its end.

The last two reach the C code through a pipe, as ``csum pcap verify -`` reads standard input:
memory stays bounded whatever the size, and the GIL is released while the capture is walked.
Ctrl-C still stops a walk within a fraction of a second (however large or slow the capture),
with the usual KeyboardInterrupt: in the main thread, the C code runs the signal handlers that
are due before each read and every 4096 packets, and stops when one raises (whatever it
raises comes out of verify() or fix()); fix() then leaves ``dst`` as after any error.
A ``bytes`` object is always a capture, never a file name (pass ``os.fsdecode(name)``).

A file object may be non-blocking (a pipe or socket after ``os.set_blocking(fd, False)``).
When it says "nothing now" as io streams do (read() returns None; write() raises
BlockingIOError, or returns None from an ``io.RawIOBase``), verify() and fix() wait as a
blocking file would make them wait: on its ``fileno()`` with poll(), else sleeping between
tries from 1 ms doubling to 50 ms, never spinning. The capture is read to its end, fix()'s
output written whole, then flushed. A command that fails ends the wait, and a write() that
keeps returning 0 is an OSError. From an object that is not an io stream, None means what it
always did: the end of the capture from read(), everything written from write().

The results are built from the JSON document that ``csum pcap verify --json`` prints: the
extension runs the command-line tool's own code (compiled in) and parses its output, so what
Python sees is what the CLI reports, member for member. ``result.document`` is that document,
whole, including any member newer than this module.

>>> result = csum.pcap.verify('capture.pcap.gz')              # doctest: +SKIP
>>> result.packets, len(result.bad), result.summary['tcp']['good']  # doctest: +SKIP
(1200, 3, 811)
>>> for c in result.bad:                                      # doctest: +SKIP
...     print(c.frame, c.depth, c.layer, hex(c.stored), hex(c.computed), c.via or '')
12 outer tcp 0x1234 0xb1e5
40 inner udp 0x101 0x77e2 vxlan
>>> [c.note for c in result.offload][:1]                      # doctest: +SKIP
['the pseudo-header sum: a placeholder for checksum offload']
>>> len(csum.pcap.fix('capture.pcap.gz', 'fixed.pcap.gz').fixed)  # doctest: +SKIP
3
"""
from __future__ import annotations

import errno
import io
import json
import os
import re
import select
import stat
import threading
from typing import (TYPE_CHECKING, Any, BinaryIO, Dict, Iterable, List, NamedTuple, Optional,
                    Protocol, Sequence, Tuple, Union)

from . import _csum

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer  # any bytes-like object: mmap, array, NumPy, ...
else:  # for typing.get_type_hints() at run time, where typeshed is not
    ReadableBuffer = Union[bytes, bytearray, memoryview]

__all__ = ["Check", "CutShort", "FcsFix", "FixResult", "PcapError", "PcapResult", "Undissected",
           "VerifyResult", "compressions", "fix", "verify"]


class _Reader(Protocol):
    """A binary file object to read a capture from (gzip.open() gives one that is not a
    BinaryIO). An io stream in non-blocking mode may return None: nothing to read yet."""

    def read(self, size: int = ..., /) -> Optional[bytes]: ...


class _Writer(Protocol):
    """A binary file object to write a capture into: it is given memoryviews. write() returns
    how many bytes it took; None from an io.RawIOBase (its non-blocking mode) took nothing,
    from any other object everything."""

    def write(self, data: memoryview, /) -> Optional[int]: ...


PathLike = Union[str, "os.PathLike[str]", "os.PathLike[bytes]"]
Source = Union[PathLike, ReadableBuffer, BinaryIO, _Reader]
"""A capture: a path, a bytes-like object holding it, or a binary file object."""
Ports = Union[int, Iterable[int]]

LISTINGS = ("problems", "verbose", "all")
"""The values of verify()'s ``checks``."""


class PcapError(OSError):
    """A capture that cannot be walked, for the reason ``kind`` names (the document's
    ``error.kind``): ``"malformed"``, not pcap/pcapng or damaged (``offset`` says where);
    ``"unsupported"``, a file csum does not read (compressed with xz, bzip2 or lz4, with gzip
    or zstd in a build without zlib or libzstd, compressed twice, a zstd window over 128 MiB, a
    pcap version other than 2.x or pcapng other than 1.x: the message says what it is, and for
    a compression how to read it); ``"system"``, reading it failed once open (an I/O error) or
    memory ran out. ``offset``, as the document's, counts bytes of the capture after
    decompression, compressed or not: for a failed read, how much of it was read (and walked).

    A subclass of OSError, like ``gzip.BadGzipFile``, so that one ``except OSError`` catches
    every problem with a capture file; a missing or unreadable file raises the usual OSError
    subclass (FileNotFoundError, PermissionError, ...).

    ``result`` holds what was found before the problem (every complete packet before it, as the
    CLI prints them) when the capture could be opened, else None.
    """

    def __init__(self, message: str, path: Optional[str] = None, offset: Optional[int] = None,
                 result: Optional["PcapResult"] = None, kind: str = "malformed"):
        super().__init__(message)
        self.message = message
        self.path = path
        self.offset = offset
        self.result = result
        self.kind = kind

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path is not None else ""
        if self.offset is not None and self.kind == "malformed":
            return f"{where}malformed capture at byte offset {self.offset}: {self.message}"
        return f"{where}{self.message}"


class Check(NamedTuple):
    """One checksum found in a capture: an entry of the document's ``checks`` list; with
    ``fcs=True``, also a frame's FCS (layer ``"fcs"``)."""

    frame: int
    """Packet number in the file, from 1 (as Wireshark counts)."""
    layer: str
    """``"ipv4"`` (the header checksum), ``"tcp"``, ``"udp"``, ``"icmp"``, ``"icmpv6"``,
    ``"gre"``, ``"icmp-ext"`` (an ICMP/ICMPv6 error's RFC 4884 extension structure),
    ``"igmp"``, ``"pim"``, ``"vrrp"``, ``"ospf"``, ``"rsvp"``, ``"dccp"``, ``"udplite"``,
    ``"mh"`` (the IPv6 Mobility Header); ``"fcs"`` (with ``fcs=True``: the frame check
    sequence of an Ethernet or 802.11 frame, a CRC-32, after the frame's checksums)."""
    depth: str
    """``"outer"``: in the frame's first IP layer; ``"inner"``: in an IP layer inside a
    tunnel, or quoted in an ICMP error; ``"link"``: a frame's FCS."""
    level: int
    """0 for the outer IP layer (and a frame's FCS), 1 and more for inner ones."""
    via: Optional[str]
    """How an inner layer was reached: ``"ip"`` (IP in IP), ``"gre"``, ``"erspan"``,
    ``"vxlan"``, ``"vxlan-gpe"``, ``"geneve"``, ``"icmp"``, ``"icmpv6"``; None when outer."""
    verdict: str
    """``"good"``, ``"bad"``, ``"offload"`` (a placeholder left for the NIC by a sending host
    with checksum or segmentation offload: not corruption), ``"not_checkable"`` (the bytes it
    covers were not all captured, an IP fragment, lengths that disagree, a source route too
    short to say where it ends) or ``"no_checksum"`` (the sender computed none: a UDP checksum
    of 0 over IPv4, or in a packet quoted in an ICMP/ICMPv6 error, as a UDP-Lite one there;
    an RSVP checksum of 0; OSPF
    with cryptographic authentication or an authentication trailer, ``note`` says which)."""
    stored: Optional[int]
    """The checksum in the file, as a big-endian number (what Wireshark shows; an FCS's four
    bytes in capture order, as ``FcsFix`` and tshark's ``eth.fcs`` have them); None when not
    checkable."""
    computed: Optional[int]
    """The correct checksum, same convention; None when not checkable."""
    offset: Optional[int]
    """Byte offset of the checksum field in the capture (after decompression); None when not
    checkable."""
    note: Optional[str]
    """Why it is not checkable (an FCS: the snapshot length cut it off), or offload; a remark
    on some bad ones; else None."""

    @classmethod
    def _from_json(cls, e: Dict[str, Any]) -> "Check":
        offset = e.get("offset")
        return cls(int(e["frame"]), str(e["layer"]), str(e["depth"]), int(e["level"]),
                   e.get("via"), str(e["verdict"]), _hex(e.get("stored")),
                   _hex(e.get("computed")), None if offset is None else int(offset),
                   e.get("note"))


class FcsFix(NamedTuple):
    """A frame check sequence fix() wrote: an entry of its document's ``fcs`` list.

    An Ethernet or 802.11 frame captured with a right FCS (the CRC-32 of IEEE 802.3) whose
    checksums fix() corrected gets its FCS computed again over the corrected frame, as the CLI
    lists it (``frame 12: fcs 0x9a3c61f0 -> 0x4e7b0d15``); a wrong or cut one is left alone,
    but with ``fcs=True``, where every wrong one is corrected too (and is a bad ``Check`` of
    layer ``"fcs"`` in ``checks``)."""

    frame: int
    """Packet number in the file, from 1."""
    stored: int
    """The FCS as captured: its four bytes in capture order as a big-endian number (as
    checksums are, and as tshark's ``eth.fcs`` shows it; ``wlan.fcs`` shows it reversed)."""
    computed: int
    """The FCS written over it, the same convention."""
    offset: int
    """Byte offset of its first byte in the capture (after decompression)."""

    @classmethod
    def _from_json(cls, e: Dict[str, Any]) -> "FcsFix":
        return cls(int(e["frame"]), int(e["stored"], 16), int(e["computed"], 16),
                   int(e["offset"]))


class Undissected(NamedTuple):
    """Packets on a link type ``csum pcap`` does not dissect (not checked)."""

    linktype: int
    """The LINKTYPE_ number."""
    name: Optional[str]
    """Its tcpdump.org name without the prefix (``"IEEE802_15_4_WITHFCS"``), or None."""
    packets: int


class CutShort(NamedTuple):
    """Where a capture that ends inside a record (as an interrupted capture does) was cut."""
    offset: int
    """Byte offset of the problem in the (decompressed) capture, as the CLI's warning names."""
    message: str
    """What was cut: ``"pcap record of 72 bytes, but only 67 bytes remain in the file"``."""


class PcapResult:
    """What a walk over one capture found: the members of the CLI's JSON document."""

    def __init__(self, document: Dict[str, Any], path: Optional[str]):
        self.document: Dict[str, Any] = document
        """The JSON document, parsed: every member, as printed."""
        self.path: Optional[str] = path
        """The capture's path; None for a bytes-like object or a file object (the document's
        ``file`` is then ``"-"``, as for ``csum pcap verify -``)."""
        self.format: str = str(document["format"])
        """``"pcap"`` or ``"pcapng"`` (``"unknown"`` if the file was not one)."""
        self.compression: str = str(document["compression"])
        """``"plain"``, ``"gzip"`` or ``"zstd"``."""
        self.packets: int = int(document["packets"])
        """Frames in the file, numbered as Wireshark numbers them."""
        self.bytes: int = int(document["bytes"])
        """Capture bytes walked (after decompression)."""
        self.summary: Dict[str, Any] = document["summary"]
        """Counts of checks per layer and verdict (``summary['tcp']['bad']``; the FCSs, with
        ``fcs=True``, in ``summary['fcs']``), totals per verdict (``summary['bad']``: of every
        check, FCSs included, where the CLI's text summary leaves them out), ``inner`` (per
        verdict, of inner layers); and counts of packets: ``without_checksum`` (those in which
        no checksum was found at all, as ARP; not the checksums of verdict ``"no_checksum"``,
        which ``summary['no_checksum']`` counts), ``non_packets``, ``undissected`` and
        ``skipped``."""
        self.checks: List[Check] = [Check._from_json(e) for e in document["checks"]]
        """The checksums listed, in file order: every bad and offload one, and more as asked
        (verify()'s ``checks``)."""
        self.undissected: List[Undissected] = [
            Undissected(int(u["linktype"]), u.get("name"), int(u["packets"]))
            for u in document["undissected"]]
        """Packets not checked because their link type is not dissected, by link type (the
        first few kinds; ``summary['undissected']`` counts them all)."""
        self.skipped: Dict[str, int] = {str(k): int(v) for k, v in document["skipped"].items()}
        """Packets not looked into, by why: ``wlan_protected``, ``wlan_fragment``,
        ``macsec_encrypted``, ``nesting``, ``truncated`` (the capture stops inside the headers
        in front of the transport, the link layer's and a tunnel's too), ``malformed`` (such headers that make no sense)."""
        error = document.get("error")
        self.cut_short: Optional[CutShort] = (
            CutShort(int(error["offset"]), str(error["message"]))
            if isinstance(error, dict) and error.get("cut_short") else None)
        """None for a capture that reads to its end. When it ends inside a record, as an
        interrupted capture does, where and what: every whole record before the cut was
        checked (and written by fix(), whose output then reads to its end); the cut one was
        not. Not an error, as for the CLI (a warning there; ``strict`` fails on it)."""

    @property
    def bad(self) -> List[Check]:
        """Every wrong checksum (with ``fcs=True``, and FCS), in file order."""
        return [c for c in self.checks if c.verdict == "bad"]

    @property
    def offload(self) -> List[Check]:
        """Every offload placeholder (not corruption), in file order."""
        return [c for c in self.checks if c.verdict == "offload"]


class VerifyResult(PcapResult):
    """What ``csum pcap verify --json`` reports for one capture."""

    def __init__(self, document: Dict[str, Any], path: Optional[str], status: int,
                 strict: bool = False, fcs: bool = False):
        super().__init__(document, path)
        self.status: int = status
        """The CLI's exit status: 0, or 1 for bad checksums (or FCSs, with ``fcs``; with
        ``strict``, also for anything left unchecked)."""
        self.strict: bool = strict
        self.fcs: bool = fcs
        """Whether the frames' FCSs were checked too (``fcs=True``)."""

    @property
    def ok(self) -> bool:
        """True when the CLI would exit 0: no bad checksum, and with ``strict=True`` also no
        offload placeholder, not-checkable checksum, skipped or undissected packet, and not
        cut short."""
        return self.status == 0

    def __repr__(self) -> str:
        fcs = [c for c in self.bad if c.layer == "fcs"]
        bad_fcs = f", {_count(len(fcs), 'bad FCS')}" if self.fcs else ""
        return (f"<{type(self).__name__} {self.document.get('file')!r}: {self.packets} packets, "
                f"{_count(len(self.bad) - len(fcs), 'bad checksum')}{bad_fcs}, {len(self.offload)} offload>")


class FixResult(PcapResult):
    """What ``csum pcap fix SRC DST`` did. ``checks`` (bad and offload ones) come from the fix
    walk itself: a checksum over another one (a tunnel's UDP checksum, an ICMP error's over the
    quoted header, an FCS over the frame, with ``fcs=True``) is computed after that one was
    fixed. ``fcs`` lists the frame check sequences it wrote, which the CLI lists too."""

    def __init__(self, document: Dict[str, Any], src: Optional[str], dst: Optional[str],
                 dry_run: bool, fix_offload: bool):
        super().__init__(document, src)
        self.src: Optional[str] = src
        """The input's path (None for bytes or a file object)."""
        self.dst: Optional[str] = dst
        """The output's path (None for a file object, or a dry run)."""
        self.dry_run: bool = dry_run
        self.fix_offload: bool = fix_offload
        self.fcs: List[FcsFix] = [FcsFix._from_json(e) for e in document.get("fcs", [])]
        """Every FCS written in ``dst`` (or that would be, in a dry run), in file order: a
        frame's right FCS, after its checksums were fixed, and with ``fcs=True`` every wrong
        one (the document's ``fcs``)."""

    @property
    def fixed(self) -> List[Check]:
        """The checksums rewritten in ``dst`` (or that would be, in a dry run): every bad one,
        and with ``fix_offload`` the offload placeholders; ``computed`` is the new value. Not
        the FCSs, which ``fcs`` lists."""
        return [c for c in self.checks if c.layer != "fcs" and
                (c.verdict == "bad" or (self.fix_offload and c.verdict == "offload"))]

    def __repr__(self) -> str:
        what = "would fix" if self.dry_run else "fixed"
        dst = "" if self.dst is None else f" -> {self.dst!r}"
        return (f"<FixResult {self.document.get('file')!r}{dst}: {self.packets} packets, "
                f"{what} {_count(len(self.fixed), 'checksum')} and {_count(len(self.fcs), 'FCS')}>")


def verify(source: Source, *, checks: str = "problems", strict: bool = False,
           rfc1624: bool = False, ipv6_udp_zero: bool = False, vxlan_ports: Ports = (),
           geneve_ports: Ports = (), fcs: bool = False) -> VerifyResult:
    """Check every IPv4 header, TCP, UDP, UDP-Lite, DCCP, ICMP, ICMPv6, IGMP, PIM, VRRP, OSPF,
    RSVP, IPv6 Mobility Header, GRE and ICMP extension checksum in a capture, as ``csum pcap verify --json`` does.

    ``source``: a path, a bytes-like object holding the capture, or a binary file object
    (read to its end; a non-blocking one is waited for, as the module's documentation says).
    ``checks``: which checksums ``result.checks`` lists: ``"problems"`` the bad and offload
    ones (the CLI's default), ``"verbose"`` also not-checkable ones and those the sender
    computed none of (``-v``), ``"all"`` every one (``--all``; one object per checksum, so memory grows with the
    capture). The counts in ``summary`` are complete whatever the listing.
    ``strict``: ``result.ok`` also requires every packet checked (``--strict``). ``rfc1624``:
    a TCP checksum stored as 0xffff where 0x0000 is computed is good (by default bad, as in
    Wireshark). ``ipv6_udp_zero``: a UDP checksum of 0 over IPv6 means none, as over IPv4
    (tunnels may send it, RFC 6935/6936; by default bad, as in Wireshark). ``vxlan_ports``/``geneve_ports``: UDP destination ports that also carry VXLAN
    or Geneve, besides 4789 and 6081 (a port or an iterable, up to 8 each). ``fcs``: also
    check the FCS (CRC-32) of every Ethernet or 802.11 frame that has one, as tshark's
    ``eth.check_fcs`` and ``wlan.check_checksum`` do (``--fcs``): checks of layer ``"fcs"``,
    counted in ``summary['fcs']``; a bad one makes ``ok`` False, one the snapshot length cut
    off is not checkable. Off by default, as in tshark: a host whose NIC computes the FCS
    captures its own frames with a stale one.

    Raises FileNotFoundError (etc.) when the file cannot be opened, PcapError when it is not a
    well-formed pcap or pcapng capture, is one csum does not read (xz-compressed, say) or
    cannot be read to its end (its ``kind`` says which, and its ``result`` holds the verdicts
    of every packet before the problem), ValueError for bad options. The GIL is released while the capture is walked;
    Ctrl-C (in the main thread) stops the walk promptly, with KeyboardInterrupt (or whatever
    exception a signal handler raises).

    >>> r = csum.pcap.verify('tunnels.pcap', vxlan_ports=8472)     # doctest: +SKIP
    >>> [(c.frame, c.via, c.layer) for c in r.bad if c.depth == 'inner']  # doctest: +SKIP
    [(40, 'vxlan', 'udp')]
    """
    if checks not in LISTINGS:
        raise ValueError(f"csum.pcap.verify(): checks must be one of {', '.join(LISTINGS)}, "
                         f"not {checks!r}")
    args = ["verify", "--json"] + {"problems": [], "verbose": ["-v"], "all": ["--all"]}[checks]
    if strict:
        args.append("--strict")
    args += _policy("verify", rfc1624, ipv6_udp_zero, vxlan_ports, geneve_ports, fcs)
    with _Source(source, "verify") as src:
        status, err_no, usage, out, err, _ = _run(args + [src.arg], src)
    document = _json(out)
    walked = _walked(document)
    if status in (0, 1) and walked is not None:
        return VerifyResult(walked, src.path, status, strict, fcs)
    raise _failure(status, out, document, err, err_no, usage, src.path,
                   lambda d: VerifyResult(d, src.path, 2, strict, fcs))


def fix(src: Source, dst: Union[PathLike, BinaryIO, _Writer, None] = None, *,
        dry_run: bool = False, fix_offload: bool = False, rfc1624: bool = False,
        ipv6_udp_zero: bool = False, vxlan_ports: Ports = (), geneve_ports: Ports = (),
        fcs: bool = False) -> FixResult:
    """Write ``dst``, a copy of the capture ``src`` in the same format and compression in which
    every bad checksum is replaced by the correct one and every other byte is identical (but
    the FCS of an Ethernet or 802.11 frame, computed again when it was right: ``result.fcs``),
    as ``csum pcap fix`` does. Not-checkable checksums and offload placeholders are left alone
    (``fix_offload=True`` replaces the placeholders too).

    ``src``: as for :func:`verify`. ``dst``: a path, written to a temporary file beside it (or
    beside the file a symbolic link of the user's or root's names, which is created when the
    link dangles; another user's link is refused, an OSError) and renamed into place once
    complete (never partial; an existing one keeps its mode, a new one gets ``src``'s less the
    umask, or a new file's for a stream); or, for an existing FIFO or device, opened and written as the fix goes, never replaced (on an error, what was written
    stays); or a writable binary file object, written as the fix goes (likewise; a
    non-blocking one is waited for while it takes nothing, and flushed at the end, as the
    module's documentation says). ``dry_run=True``: nothing is written (``dst`` may be
    omitted), the result says what would change. ``src`` is never modified, and ``dst`` may
    not be ``src``. ``rfc1624``, ``ipv6_udp_zero``, ``vxlan_ports``, ``geneve_ports``: as for
    :func:`verify`. ``fcs=True``: the FCSs are checked too, as by :func:`verify`, over the
    frame with its checksums fixed, and every wrong one is rewritten (``result.fcs``; a bad
    ``Check`` of layer ``"fcs"`` in ``result.checks``): after the fix, none is bad.

    Raises ValueError when ``dst`` is ``src`` or missing, OSError when ``dst`` cannot be
    written (checked before ``src`` is read, and when a write fails on the way: a full disk; a
    file object whose write() returns 0 ten times in a row, or a count it was not given), and
    as :func:`verify`, KeyboardInterrupt included: a path ``dst`` is then left as it was (its
    temporary file removed), as after any error.

    >>> r = csum.pcap.fix('in.pcapng', 'out.pcapng')                  # doctest: +SKIP
    >>> [(c.frame, c.layer, hex(c.stored), hex(c.computed)) for c in r.fixed]  # doctest: +SKIP
    [(7, 'tcp', '0x1234', '0xb1e5')]
    """
    args = ["fix"]
    if dry_run:
        args.append("--dry-run")
    if fix_offload:
        args.append("--fix-offload")
    args += _policy("fix", rfc1624, ipv6_udp_zero, vxlan_ports, geneve_ports, fcs)
    with _Source(src, "fix") as source:
        out_path, out_file = None, None
        if dry_run:
            pass  # the CLI writes nothing, whatever dst is
        elif dst is None:
            raise ValueError("csum.pcap.fix(): no dst given (or dry_run=True)")
        elif isinstance(dst, (str, os.PathLike)):
            out_path = os.fsdecode(os.fspath(dst))
            if os.path.isdir(out_path):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), out_path)
            if source.path is not None and os.path.exists(out_path) and \
                    os.path.samefile(source.path, out_path):
                raise ValueError(f"csum.pcap.fix(): refusing to overwrite the input "
                                 f"({out_path} is {source.path})")
        elif callable(getattr(dst, "write", None)):
            if isinstance(dst, io.TextIOBase):
                raise TypeError("csum.pcap.fix(): dst is a text file: open it in binary mode "
                                "('wb')")
            out_file = dst
        else:
            raise TypeError(f"csum.pcap.fix(): dst must be a path or a binary file object, "
                            f"not {type(dst).__name__}")
        if out_path is not None:
            args += [source.arg, _arg(out_path)]
        else:
            args += [source.arg] + ([] if dry_run else ["-"])
        status, err_no, usage, _, err, doc = _run(args, source, out_file)
    document = _json(doc)
    walked = _walked(document)
    if status == 0 and walked is not None:
        return FixResult(walked, source.path, out_path, dry_run, fix_offload)
    raise _failure(status, doc, document, err, err_no, usage, source.path,
                   lambda d: FixResult(d, source.path, out_path, dry_run, fix_offload),
                   out_path)


def compressions() -> Dict[str, Optional[str]]:
    """The compressed captures this build reads (and ``fix`` writes): ``{'gzip': 'zlib
    1.2.13', 'zstd': None}`` names the library behind each, None when not built in (the
    extension links zlib and libzstd when they were found at build time)."""
    return dict(_csum._pcap_compressions())


# ---- the command's input and output ------------------------------------------------------

_CHUNK = 1 << 20


class _Source:
    """A capture to read: a path (given to the command), or bytes or a file object (fed to
    the command's "-" through a pipe). A context manager: leaving it releases the views of a
    bytes-like object, so that the caller can resize, close or release it again even while
    an exception raised in the block is alive (its traceback still holds this object)."""

    def __init__(self, source: Any, func: str):
        self.path: Optional[str] = None
        self.view: Optional[memoryview] = None
        self.file: Any = None
        self._views: List[memoryview] = []
        if isinstance(source, (str, os.PathLike)):
            self.path = _readable(source)
            return
        try:
            view = memoryview(source)
        except TypeError:
            if not callable(getattr(source, "read", None)):
                raise TypeError(f"csum.pcap.{func}(): expected a path (str or os.PathLike), a "
                                f"bytes-like object or a binary file object, not "
                                f"{type(source).__name__}") from None
            if isinstance(source, io.TextIOBase):
                raise TypeError(f"csum.pcap.{func}(): the capture is a text file: open it in "
                                f"binary mode ('rb')") from None
            self.file = source
            return
        self._views.append(view)
        if _holds_objects(view.format):
            fmt = view.format
            self.release()
            raise TypeError(f"csum.pcap.{func}(): expected a bytes-like object, not a buffer of "
                            f"Python objects (format {fmt!r} of {type(source).__name__})")
        if not view.c_contiguous:
            self.release()
            raise BufferError(f"csum.pcap.{func}(): the buffer is not C-contiguous")
        if not view.nbytes:  # cast() refuses a shape with a 0 in it: (0, 3) is b"" too
            self.release()
            view = memoryview(b"")
        elif view.ndim != 1 or view.format != "B":
            view = view.cast("B")
            self._views.append(view)
        self.view = view

    def __enter__(self) -> "_Source":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release()

    def release(self) -> None:
        for view in reversed(self._views):  # the cast, then the view it was made from
            view.release()

    @property
    def arg(self) -> str:
        return "-" if self.path is None else _arg(self.path)

    def feed(self, fd: int, stop: threading.Event, errors: List[BaseException]) -> None:
        """Write the capture into the pipe fd (closed at the end), until stop is set.

        A non-blocking io stream's read() returns None (or raises BlockingIOError) when it has
        nothing yet: that is not the end of the capture, which b"" is. It is waited for
        (_Waiter), so that a pipe or socket whose writer is slower than the walk is read whole,
        and given up when stop is set (the command stopped reading: it failed). From an object
        that is not an io stream, None is the end, as it always was (its read() has no such
        contract, and waiting would hang on one that returns None at its end)."""
        try:
            if self.view is not None:
                for start in range(0, len(self.view), _CHUNK):
                    if stop.is_set():
                        break
                    _write_all(fd, self.view[start:start + _CHUNK])
            else:
                waiter = _Waiter(self.file, False, stop)
                stream = isinstance(self.file, io.IOBase)
                while not stop.is_set():
                    try:
                        chunk = self.file.read(_CHUNK)
                        blocked = chunk is None and stream
                    except BlockingIOError:
                        chunk, blocked = None, True
                    if blocked:  # non-blocking, and nothing to read yet
                        waiter.wait()
                        continue
                    if not chunk:
                        break
                    if isinstance(chunk, str):
                        raise TypeError("the capture's read() returned str: open it in binary "
                                        "mode ('rb')")
                    waiter.progress()
                    _write_all(fd, memoryview(chunk))
        except BaseException as e:  # re-raised by _run in the caller's thread
            errors.append(e)
        finally:
            os.close(fd)


def _count(n: int, noun: str) -> str:
    """'1 checksum', '2 checksums': as ``csum pcap fix`` counts in its summary."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _holds_objects(fmt: str) -> bool:
    """Whether a buffer's struct format has Python objects ('O') among its items, outside the
    field names between colons: their bytes are addresses, not a capture (the extension's
    functions refuse them alike, python/src/args.c)."""
    return "O" in re.sub(r":[^:]*:", "", fmt)


def _write_all(fd: int, view: memoryview) -> None:
    while view:
        view = view[os.write(fd, view):]


_POLL_PERIOD = 0.05
"""Seconds a wait on a descriptor lasts at most before the stop event is looked at again."""
_BACKOFF = (0.001, 0.05)
"""The first and the longest sleep, in seconds, of a wait without a descriptor to poll."""
_STALLS = 10
"""write() calls in a row that may return 0 before dst counts as taking no more data."""
_GRACE = 0.25
"""Seconds an interrupted call waits for the feeder to end: it may be in the source's
read(), which nothing can interrupt."""


class _Waiter:
    """Waits, without spinning, after a non-blocking file object said "not now" (read() or
    write() returned None, or raised BlockingIOError), until it may be ready or stop is set.

    On the object's descriptor (fileno()) with poll() when it has one, up to _POLL_PERIOD at a
    time, so that stop is looked at even while the peer sends or takes nothing. Without a
    descriptor, or when poll() said ready and the object then still was not (a wrapper whose
    fileno() is not what it reads or writes, a write larger than the room poll() saw), by
    sleeping: from 1 ms, doubling up to 50 ms, back to 1 ms (and to poll()) after progress.
    The sleeps are on the stop event, which ends them at once."""

    def __init__(self, file: Any, writing: bool, stop: threading.Event):
        self.file = file
        self.writing = writing
        self.stop = stop
        self.blocked = False
        """Whether the object ever said "not now": it is non-blocking."""
        self._fd: Optional[int] = None
        self._poller: Any = None
        self._asked = False  # fileno() is asked on the first wait only, if ever
        self._polled_in_vain = False
        self._delay = 0.0

    def progress(self) -> None:
        """The object read or wrote something: the next wait starts afresh."""
        self._polled_in_vain = False
        self._delay = 0.0

    def wait(self) -> bool:
        """Wait until the object may be ready: True to try again, False when stop is set."""
        self.blocked = True
        if not self._asked:
            self._asked = True
            self._fd = _fileno(self.file)
        if self._fd is not None and not self._polled_in_vain:
            try:
                ready = self._poll(self._fd)
            except (OSError, ValueError):  # closed meanwhile, or beyond select()'s FD_SETSIZE
                self._fd = None
            else:
                self._polled_in_vain = ready  # if the next try still blocks, poll() misled
                return not self.stop.is_set()
        return self.sleep()

    def sleep(self) -> bool:
        """The backoff alone (dst.write() returned 0, where poll() would say ready)."""
        self._delay = min(max(2 * self._delay, _BACKOFF[0]), _BACKOFF[1])
        return not self.stop.wait(self._delay)

    def _poll(self, fd: int) -> bool:
        if hasattr(select, "poll"):
            if self._poller is None:
                self._poller = select.poll()
                self._poller.register(fd, select.POLLOUT if self.writing else select.POLLIN)
            return bool(self._poller.poll(int(_POLL_PERIOD * 1000)))
        fds = [fd]
        ready = select.select([] if self.writing else fds, fds if self.writing else [], fds,
                              _POLL_PERIOD)
        return any(ready)


def _fileno(file: Any) -> Optional[int]:
    """file's descriptor, or None when it has none (BytesIO, a class of the caller's)."""
    try:
        fd = file.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        return None
    return fd if isinstance(fd, int) and fd >= 0 else None


def _nonblocking(file: Any) -> bool:
    """Whether file's descriptor is in non-blocking mode (False without one)."""
    fd = _fileno(file)
    if fd is None:
        return False
    try:
        return not os.get_blocking(fd)
    except OSError:
        return False


def _write_file(dst: Any, view: memoryview, waiter: _Waiter) -> bool:
    """Write all of view into the file object dst: True, or False when the waiter gave up (the
    command failed while dst could not take more).

    A non-blocking dst says "not now" by raising BlockingIOError (a buffered writer, which
    kept ``characters_written`` bytes of view: they are not written again) or, as io's raw
    streams do, by returning None: both are waited for. From another object, None means
    everything was written (a writer that does not count, as before). 0 is no progress: a few
    in a row are waited out, then OSError, rather than calling write() forever."""
    raw = isinstance(dst, io.RawIOBase)
    stalls = 0
    while view:
        blocked = False
        try:
            n = dst.write(view)
        except BlockingIOError as e:
            n, blocked = _characters_written(e), True
        else:
            if n is None:
                n, blocked = (0, True) if raw else (len(view), False)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= len(view):
            raise OSError(f"csum.pcap.fix(): {type(dst).__name__}.write() of {len(view)} bytes "
                          f"returned {n!r}, not the number of bytes written")
        if n:
            view = view[n:]
            waiter.progress()
            stalls = 0
            if not blocked:
                continue
        elif not blocked:
            stalls += 1
            if stalls >= _STALLS:
                raise OSError(f"csum.pcap.fix(): {type(dst).__name__}.write() "
                              f"returned 0 (nothing written) {stalls} times in a row: the "
                              f"file object takes no more data")
            if not waiter.sleep():
                return False
            continue
        if view and not waiter.wait():
            return False
    return True


def _characters_written(e: BlockingIOError) -> int:
    """How much of its data a write that raised e kept (0 when it does not say)."""
    try:
        return int(e.characters_written)
    except (AttributeError, TypeError, ValueError):
        return 0


def _flush(dst: Any, waiter: _Waiter) -> None:
    """Flush dst, waiting while it would block (as _write_file waits), unless told to stop."""
    flush = getattr(dst, "flush", None)
    if not callable(flush):
        return
    while True:
        try:
            flush()
            return
        except BlockingIOError as e:
            if _characters_written(e):
                waiter.progress()
            if not waiter.wait():
                return


def _drain(fd: int, dst: Any, errors: List[BaseException], abort: threading.Event) -> None:
    """Copy the pipe fd (closed at the end) into the file object dst. After an error, keep
    reading, so that the command never blocks on a full pipe.

    A non-blocking dst is waited for while it takes nothing (see _write_file), as long as a
    blocking write would wait: the whole output reaches it, whatever the reader's pace. Only
    abort (set when the command failed) ends the wait; the rest is then read and dropped. Such a
    dst is flushed at the end, so that no byte stays in its buffer for a close() that would
    raise BlockingIOError."""
    waiter = _Waiter(dst, True, abort)
    given_up = False
    try:
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            if errors or given_up:
                continue
            try:
                given_up = not _write_file(dst, memoryview(chunk), waiter)
            except BaseException as e:
                errors.append(e)
        if not errors and not given_up and (waiter.blocked or _nonblocking(dst)):
            try:
                _flush(dst, waiter)
            except BaseException as e:
                errors.append(e)
    finally:
        os.close(fd)


def _pipe() -> Tuple[int, int]:
    r, w = os.pipe()
    try:  # fewer, larger transfers (Linux; the default is 64 KiB)
        import fcntl
        fcntl.fcntl(w, getattr(fcntl, "F_SETPIPE_SZ", 1031), _CHUNK)
    except (ImportError, OSError):
        pass
    return r, w


def _start(target: Any, fd: int, args: Tuple[Any, ...], name: str) -> threading.Thread:
    """A started thread that owns (and closes) fd; fd closed here if it cannot start."""
    try:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        thread.start()
    except BaseException:
        os.close(fd)
        raise
    return thread


def _run(args: List[str], source: _Source, dst: Any = None
         ) -> Tuple[int, int, int, bytes, bytes, bytes]:
    """Run `csum pcap ARGS...`: "-" as IN is source's bytes or file object, "-" as OUT the file
    object dst. The command runs with the GIL released; threads move the bytes. In the main
    thread, a signal handler's exception (Ctrl-C's KeyboardInterrupt) stops it and comes
    through, instead of the result."""
    in_fd = out_fd = -1
    feeder = drainer = None
    feed_errors: List[BaseException] = []
    drain_errors: List[BaseException] = []
    stop = threading.Event()  # the command is over: the feeder stops reading the source
    abort = threading.Event()  # and it failed: the drainer stops waiting for dst to take more
    done = False
    try:
        if source.path is None:
            in_fd, w = _pipe()
            feeder = _start(source.feed, w, (w, stop, feed_errors), "csum.pcap input")
        if dst is not None:
            r, out_fd = _pipe()
            drainer = _start(_drain, r, (r, dst, drain_errors, abort), "csum.pcap output")
        try:
            result = _csum._pcap(args, in_fd, out_fd,
                                 threading.current_thread() is threading.main_thread())
        except BaseException:
            # Interrupted (Ctrl-C): the pipe is closed, so that the feeder's next write fails
            # (EPIPE) instead of waiting for a reader.
            if feeder is not None:
                os.close(in_fd)
                in_fd = -1
            raise
        done = result[0] == 0  # fix, the one command with a dst, succeeds with 0
    finally:
        stop.set()
        if not done:
            abort.set()
        if feeder is not None and in_fd >= 0:
            # The command may stop early: let the feeder finish its write.
            while os.read(in_fd, _CHUNK):
                pass
            feeder.join()
        elif feeder is not None:
            # Interrupted: a feeder still in the source's read() (a stalled socket) is not
            # waited for long; it ends once that returns.
            feeder.join(_GRACE)
        if in_fd >= 0:
            os.close(in_fd)
        if out_fd >= 0:
            os.close(out_fd)
        if drainer is not None:
            _join(drainer, abort)
    for e in feed_errors + drain_errors:  # the cause of whatever the command then said
        raise e
    return result


def _join(drainer: threading.Thread, abort: threading.Event) -> None:
    """Wait for the drainer, which may wait long for a non-blocking dst whose reader is slow:
    interrupted (Ctrl-C), it is told to give up, and joined again before the exception goes
    on, so that it does not outlive the call holding its descriptor."""
    try:
        drainer.join()
    except BaseException:
        abort.set()
        drainer.join()
        raise


# ---- the document ------------------------------------------------------------------------

def _json(text: bytes) -> Optional[Dict[str, Any]]:
    text = text.strip()
    if not text.startswith(b"{"):
        return None
    try:
        document = json.loads(text)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


def _walked(document: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The document when it is of a capture that was opened and walked (to its end or to an
    error), else None (typed so, not as a bool: a type checker then knows it is a dict)."""
    if document is not None and "checks" in document and "summary" in document:
        return document
    return None


def _failure(status: int, text: bytes, document: Optional[Dict[str, Any]], err: bytes,
             err_no: int, usage: int, path: Optional[str], make_result: Any,
             dst: Optional[str] = None) -> Exception:
    """The exception for a failed command: from the document's error member when it printed
    one for the capture, else from what it printed on stderr. ``text`` is the document as
    printed. Every error in a capture that was opened is in the document, with its kind and
    offset (the CLI's own --json member): stderr names only a file that could not be opened or
    written, and is never searched for a malformed capture (a file name may say anything)."""
    message = err.decode("utf-8", errors="replace").strip()
    error = document.get("error") if document else None
    if isinstance(error, dict) and error.get("offset") is not None:
        result = make_result(document) if _walked(document) is not None else None
        return PcapError(str(error.get("message", "")), path, int(error["offset"]), result,
                         str(error.get("kind", "malformed")))
    if usage:  # the options were checked here first: a bug if reached
        return ValueError(message.replace("csum: ", "", 1))
    if status != 2:  # the walk went through: what failed is reading its document (a bug)
        return RuntimeError(f"csum.pcap: `csum pcap` exited {status}, but its JSON document "
                            f"{_unreadable(text)}")
    # Opening IN, or writing OUT (checked before IN is read, and at the rename). errno is the
    # cause when the message ends with its text, as the command reports a failed system call.
    target = dst if dst is not None and ": cannot write" in message else path
    if err_no and message.endswith(os.strerror(err_no)):
        return OSError(err_no, os.strerror(err_no), target)
    return PcapError(message.replace("csum: ", "", 1) or "csum pcap failed", target,
                     kind="system")


def _unreadable(text: bytes) -> str:
    """Why text is not a document _walked() accepts."""
    try:
        json.loads(text)
    except ValueError as e:
        return f"does not parse: {e}"
    return "lacks its checks or summary"


# ---- arguments ---------------------------------------------------------------------------

def _policy(func: str, rfc1624: bool, ipv6_udp_zero: bool, vxlan_ports: Ports,
            geneve_ports: Ports, fcs: bool) -> List[str]:
    args = ["--rfc1624"] if rfc1624 else []
    args += ["--ipv6-udp-zero"] if ipv6_udp_zero else []
    args += ["--fcs"] if fcs else []
    for option, name, ports in (("--vxlan-port", "vxlan_ports", vxlan_ports),
                                ("--geneve-port", "geneve_ports", geneve_ports)):
        for port in _ports(func, name, ports):
            args.append(f"{option}={port}")
    return args


def _ports(func: str, name: str, ports: Ports) -> Sequence[int]:
    if isinstance(ports, int) and not isinstance(ports, bool):
        ports = (ports,)
    try:
        ports = list(ports)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"csum.pcap.{func}(): {name} must be a port or an iterable of ports, "
                        f"not {type(ports).__name__}") from None
    for port in ports:
        if not isinstance(port, int) or isinstance(port, bool):
            raise TypeError(f"csum.pcap.{func}(): {name} holds {type(port).__name__}, "
                            f"not a port number")
        if not 1 <= port <= 65535:
            raise ValueError(f"csum.pcap.{func}(): {name}: {port} is not a UDP port "
                             f"(1 to 65535)")
    if len(ports) > _csum._PCAP_MAX_PORTS:
        raise ValueError(f"csum.pcap.{func}(): {name}: at most {_csum._PCAP_MAX_PORTS} ports")
    return ports


def _hex(value: Any) -> Optional[int]:
    if value is None:
        return None
    return int(value, 16) if isinstance(value, str) else int(value)


def _readable(path: PathLike) -> str:
    """The path as str; the usual OSError subclass now if the file cannot be read. Only a
    regular file is opened to find out: opening and closing a FIFO would be a reader come and
    gone for its writer (`tcpdump -w FIFO` waiting for one), whose next write could then fail
    with EPIPE, or kill it with SIGPIPE, before the walk opens the FIFO for good."""
    name = os.fsdecode(os.fspath(path))
    mode = os.stat(name).st_mode  # FileNotFoundError, a directory on the way that is no search
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    if stat.S_ISREG(mode):
        os.close(os.open(name, os.O_RDONLY))
    elif not os.access(name, os.R_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), name)
    return name


def _arg(path: str) -> str:
    """A path the CLI cannot take for an option (or for standard input)."""
    return "./" + path if path.startswith("-") else path
