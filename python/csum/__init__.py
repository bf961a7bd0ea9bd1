"""csum: the Internet checksum (RFC 1071) for Python, computed by the csum C library.

The functions take any bytes-like object (bytes, bytearray, memoryview, mmap, array, NumPy
arrays, scapy's ``raw(pkt)``) and read it in place, without copying; large buffers are
summed with the GIL released. Names follow the Linux kernel's ``include/net/checksum.h``.

Two kinds of numbers:

- a **checksum** is the 16-bit value stored in a header, as an int whose two big-endian
  bytes are the bytes on the wire (``struct.pack("!H", c)`` writes it);
- a **partial sum** is the ones'-complement sum of the data's big-endian 16-bit words,
  end-around carried into 16 bits, not complemented: pass it back as ``initial``, or to
  :func:`add`, :func:`block_add`, :func:`block_sub`, :func:`fold`, :func:`replace_by_diff` and
  the pseudo-header helpers; :func:`unfold` widens a checksum to one.

>>> import csum
>>> hdr = bytes.fromhex('450000730000400040110000c0a80001c0a800c7')
>>> hex(csum.checksum(hdr))
'0xb861'

Submodules: :mod:`csum.pcap` (check and fix captures, as ``csum pcap``), :mod:`csum.scapy`
(make scapy compute its checksums with csum), :mod:`csum.bench` (``python -m csum.bench``).
After ``import csum`` each is imported the first time it is named (``csum.pcap.verify(...)``),
so ``import csum`` itself loads only the extension.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, List, NamedTuple

from ._csum import (
    add,
    block_add,
    block_sub,
    checksum,
    dispatch,
    fold,
    ipv4_header,
    ipv4_header_batch,
    iov,
    iov_range,
    ipv6,
    library_version,
    partial,
    partial_copy,
    replace2,
    replace4,
    replace16,
    replace_by_diff,
    sub,
    tcpudp_v4,
    tcpudp_v4_nofold,
    udp_fixup,
    unfold,
)
from . import _csum

if TYPE_CHECKING:  # for type checkers only; at run time __getattr__ below imports them
    from . import bench, pcap, scapy

__version__: str = library_version
"""The package's version, which is the C library's (one version, set in csum_version.h)."""

__all__ = [
    "Impl",
    "__version__",
    "active",
    "add",
    "block_add",
    "block_sub",
    "checksum",
    "dispatch",
    "fold",
    "impls",
    "iov",
    "iov_range",
    "ipv4_header",
    "ipv4_header_batch",
    "ipv6",
    "partial",
    "partial_copy",
    "replace16",
    "replace2",
    "replace4",
    "replace_by_diff",
    "sub",
    "tcpudp_v4",
    "tcpudp_v4_nofold",
    "udp_fixup",
    "unfold",
]


class Impl(NamedTuple):
    """One compiled-in implementation of csum_partial, as ``csum impls`` lists it."""

    name: str
    """Short name: ``"generic"``, ``"avx2"``, ``"avx512-vnni"``, ..."""
    description: str
    """One line, including where the algorithm comes from."""
    requires: str
    """CPU features it needs, space-separated (``""`` for none)."""
    supported: bool
    """Whether this CPU can run it."""


def impls() -> List[Impl]:
    """Every compiled-in implementation, in the library's table order (csum.h's
    csum_impl_get() order, as ``csum impls`` lists them): not a speed ranking; the plan by
    length that :func:`dispatch` returns says which rows run.

    >>> any(i.name == 'generic' and i.supported for i in csum.impls())
    True
    """
    return [Impl(*row) for row in _csum._impls()]


def active() -> Impl:
    """The implementation csum uses for the longest buffers on this CPU (see :func:`dispatch`
    for the whole plan by length).

    >>> csum.active().supported
    True
    """
    return Impl(*_csum._active())


_SUBMODULES = ("bench", "pcap", "scapy")


def __getattr__(name: str) -> object:
    """``csum.pcap``, ``csum.scapy`` and ``csum.bench`` after a plain ``import csum`` (PEP 562):
    the submodule is imported on first use, and the import binds it in this module, so this
    runs once per submodule."""
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    """What ``dir(csum)`` and tab completion show: the submodules too, before their first use."""
    return sorted(set(globals()) | set(_SUBMODULES))
