"""Check and fix the checksums in packet captures (pcap, pcapng), as ``csum pcap`` does.

The results are built from the JSON document that ``csum pcap verify --json FILE`` prints:
the extension runs the command-line tool's own code (compiled in) and parses its output, so
what Python sees is what the CLI reports, member for member. ``result.document`` is that
document, whole, including any member newer than this module.

>>> result = csum.pcap.verify('capture.pcap')            # doctest: +SKIP
>>> result.packets, len(result.bad), result.summary['tcp']['good']  # doctest: +SKIP
(1200, 3, 811)
>>> for b in result.bad:                                  # doctest: +SKIP
...     print(b.frame, b.layer, hex(b.stored), hex(b.computed))
>>> csum.pcap.fix('capture.pcap', 'fixed.pcap').fixed     # doctest: +SKIP
3
"""
from __future__ import annotations

import errno
import json
import os
import re
from typing import Any, Dict, List, NamedTuple, Optional, Union

from . import _csum

__all__ = ["BadChecksum", "FixResult", "PcapError", "VerifyResult", "fix", "verify"]

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class PcapError(OSError):
    """A capture that cannot be walked: not pcap/pcapng, or malformed (``offset`` says where).

    A subclass of OSError, like ``gzip.BadGzipFile``, so that one ``except OSError`` catches
    every problem with a capture file; a missing or unreadable file raises the usual OSError
    subclass (FileNotFoundError, PermissionError, ...).
    """

    def __init__(self, message: str, path: Optional[str] = None, offset: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.offset = offset

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path is not None else ""
        if self.offset is not None:
            return f"{where}malformed capture at byte offset {self.offset}: {self.message}"
        return f"{where}{self.message}"


class BadChecksum(NamedTuple):
    """One wrong checksum: an entry of the document's ``bad`` list."""

    frame: int
    """Packet number in the file, from 1 (as Wireshark counts)."""
    layer: str
    """``"ipv4"``, ``"tcp"``, ``"udp"``, ``"icmp"``, ``"icmpv6"``, ..."""
    stored: int
    """The checksum in the file, as a big-endian number (what Wireshark shows)."""
    computed: int
    """The correct checksum, same convention."""
    offset: int
    """Byte offset of the checksum field in the file."""

    @classmethod
    def _from_json(cls, entry: Dict[str, Any]) -> "BadChecksum":
        return cls(int(entry["frame"]), str(entry["layer"]), _hex16(entry["stored"]),
                   _hex16(entry["computed"]), int(entry["offset"]))


class VerifyResult:
    """What ``csum pcap verify --json`` reports for one capture."""

    def __init__(self, document: Dict[str, Any], path: str):
        self.document: Dict[str, Any] = document
        """The CLI's JSON document, parsed: every member, as printed."""
        self.path: str = path
        self.packets: int = int(document["packets"])
        """Frames in the file, numbered as Wireshark numbers them."""
        self.summary: Dict[str, Any] = document["summary"]
        """Counts per layer and verdict (``summary['tcp']['bad']``), totals per verdict
        (``summary['bad']``), ``unsupported_link``, ``non_packets``."""
        self.bad: List[BadChecksum] = [BadChecksum._from_json(e) for e in document["bad"]]
        """Every wrong checksum, in file order."""

    @property
    def ok(self) -> bool:
        """True when every checkable checksum is correct (the CLI's exit status 0)."""
        return not self.bad

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.path!r}: {self.packets} packets, "
                f"{len(self.bad)} bad checksums>")


class FixResult(VerifyResult):
    """What ``csum pcap fix SRC DST`` did: the verify result of ``src``, whose ``bad`` list is
    exactly the checksums rewritten in ``dst`` (every other byte of ``dst`` is ``src``'s)."""

    def __init__(self, document: Dict[str, Any], src: str, dst: str):
        super().__init__(document, src)
        self.src: str = src
        self.dst: str = dst

    @property
    def fixed(self) -> int:
        """Number of checksums corrected."""
        return len(self.bad)

    def __repr__(self) -> str:
        return f"<FixResult {self.src!r} -> {self.dst!r}: {self.fixed} checksums fixed>"


def verify(path: PathLike) -> VerifyResult:
    """Check every IPv4, TCP, UDP, ICMP and ICMPv6 checksum in the capture at ``path``.

    Raises FileNotFoundError (etc.) when the file cannot be read, PcapError when it is not a
    well-formed pcap or pcapng capture. The capture is read with the GIL released.
    """
    name = _readable(path)
    return VerifyResult(_run_json(["verify", "--json", _arg(name)], name), name)


def fix(src: PathLike, dst: PathLike) -> FixResult:
    """Write ``dst``, a copy of the capture ``src`` in which every bad checksum is corrected
    (not-checkable ones, e.g. of truncated packets, are left alone). ``dst`` is written to a
    temporary file beside it and renamed into place; ``src`` is never modified.

    ValueError when ``dst`` is ``src``; otherwise raises as :func:`verify`, and OSError when
    ``dst`` cannot be written.
    """
    name, out = _readable(src), os.fsdecode(os.fspath(dst))
    if os.path.exists(out) and os.path.samefile(name, out):
        raise ValueError(f"csum.pcap.fix(): refusing to overwrite the input ({out} is {name})")
    document = _run_json(["verify", "--json", _arg(name)], name)
    status, err_no, _, err = _csum._pcap(["fix", _arg(name), _arg(out)])
    if status != 0:
        raise _error(err, err_no, name if "malformed" in err.decode(errors="replace") else out)
    return FixResult(document, name, out)


# ---- the document ------------------------------------------------------------------------

def _run_json(args: List[str], path: str) -> Dict[str, Any]:
    status, err_no, out, err = _csum._pcap(args)
    text = out.decode("utf-8", errors="replace").strip()
    document = None
    if text.startswith("{"):
        try:
            document = json.loads(text)
        except ValueError:
            document = None
    if isinstance(document, dict) and "error" in document:
        raise _error_member(document["error"], path)
    if status in (0, 1) and isinstance(document, dict):
        return document
    raise _error(err, err_no, path)


def _error_member(error: Any, path: str) -> PcapError:
    """A PcapError from the document's ``error`` member: a string or {message, offset}."""
    if isinstance(error, dict):
        offset = error.get("offset")
        return PcapError(str(error.get("message", error)), path,
                         int(offset) if offset is not None else None)
    return PcapError(str(error), path)


_MALFORMED = re.compile(r"malformed capture at byte offset (\d+): (.*)", re.S)


def _error(err: bytes, err_no: int, path: str) -> OSError:
    """The exception for a failed command, from what it printed on stderr."""
    message = err.decode("utf-8", errors="replace").strip()
    m = _MALFORMED.search(message)
    if m:
        return PcapError(m.group(2).strip(), path, int(m.group(1)))
    if err_no:
        return OSError(err_no, os.strerror(err_no), path)
    return PcapError(message.replace("csum: ", "", 1) or "csum pcap failed", path)


def _hex16(value: Any) -> int:
    return int(value, 16) if isinstance(value, str) else int(value)


def _readable(path: PathLike) -> str:
    """The path as str; the usual OSError subclass now if the file cannot be opened."""
    name = os.fsdecode(os.fspath(path))
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)  # O_NONBLOCK: a FIFO must not hang here
    try:
        if os.path.isdir(name):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), name)
    finally:
        os.close(fd)
    return name


def _arg(path: str) -> str:
    """A path the CLI cannot take for an option."""
    return "./" + path if path.startswith("-") else path


