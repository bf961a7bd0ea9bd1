# Type stubs for the C extension csum._csum (re-exported by the csum package; docstrings and
# examples are in the extension itself: help(csum.checksum)). Integer arguments are
# SupportsIndex: the extension takes any object with __index__ (NumPy integers, bool).
import array
from ipaddress import IPv4Address, IPv6Address
from typing import Iterable, List, Optional, Sequence, SupportsIndex, Tuple, Union

from _typeshed import ReadableBuffer, WriteableBuffer

_V4 = Union[ReadableBuffer, str, IPv4Address]
_V6 = Union[ReadableBuffer, str, IPv6Address]

library_version: str
GIL_THRESHOLD_DEFAULT: int

def checksum(data: ReadableBuffer, initial: SupportsIndex = 0) -> int:
    """Internet checksum (RFC 1071) of `data` as stored in a header: 0..0xffff, big-endian bytes on the wire."""

def partial(data: ReadableBuffer, initial: SupportsIndex = 0) -> int:
    """Ones'-complement sum of `data`'s big-endian 16-bit words plus `initial`, carried into 16 bits, not complemented."""

def partial_copy(dst: WriteableBuffer, src: ReadableBuffer, initial: SupportsIndex = 0) -> int:
    """Copy `src` to the start of `dst` and return partial(src, initial), in one pass."""

def iov(buffers: Iterable[ReadableBuffer], initial: SupportsIndex = 0) -> int:
    """partial() of the concatenation of `buffers`, each read in place, never joined."""

def iov_range(buffers: Iterable[ReadableBuffer], offset: SupportsIndex, length: SupportsIndex,
              initial: SupportsIndex = 0) -> int:
    """partial() of bytes offset .. offset + length of the concatenation of `buffers`."""

def fold(sum: SupportsIndex) -> int:
    """Fold a 32-bit partial sum to 16 bits and complement it: the checksum to store."""

def unfold(check: SupportsIndex) -> int:
    """A stored checksum widened to a partial sum: the value itself (the kernel's csum_unfold)."""

def add(a: SupportsIndex, b: SupportsIndex) -> int:
    """Ones'-complement sum of two partial sums."""

def sub(a: SupportsIndex, b: SupportsIndex) -> int:
    """Remove partial sum `b` from `a`."""

def block_add(sum: SupportsIndex, block: SupportsIndex, offset: SupportsIndex) -> int:
    """Add the partial sum of a block that starts at byte `offset` of the message summed in `sum`."""

def block_sub(sum: SupportsIndex, block: SupportsIndex, offset: SupportsIndex) -> int:
    """Remove the partial sum of a block that starts at byte `offset` of the message summed in `sum`."""

def ipv4_header(hdr: ReadableBuffer) -> int:
    """Checksum of the IPv4 header at the start of `hdr` (IHL * 4 bytes): 0 when intact."""

def ipv4_header_batch(buffer: ReadableBuffer, offsets: Iterable[SupportsIndex]) -> "array.array[int]":
    """ipv4_header() of the headers at each offset of `buffer`, as array('H')."""

def tcpudp_v4(src: _V4, dst: _V4, proto: SupportsIndex, length: SupportsIndex,
              payload_sum: SupportsIndex = 0) -> int:
    """TCP/UDP checksum over IPv4: pseudo-header plus `payload_sum`, folded."""

def tcpudp_v4_nofold(src: _V4, dst: _V4, proto: SupportsIndex, length: SupportsIndex,
                     payload_sum: SupportsIndex = 0) -> int:
    """Partial sum of the IPv4 pseudo-header plus `payload_sum`."""

def ipv6(src: _V6, dst: _V6, proto: SupportsIndex, length: SupportsIndex,
         payload_sum: SupportsIndex = 0) -> int:
    """Upper-layer checksum over IPv6: pseudo-header plus `payload_sum`, folded."""

def udp_fixup(check: SupportsIndex) -> int:
    """0 -> 0xffff (UDP's transmitted form of a computed 0), anything else unchanged."""

def replace2(check: SupportsIndex, old: SupportsIndex, new: SupportsIndex) -> int:
    """RFC 1624 update of `check` after a 16-bit field changed from `old` to `new`."""

def replace4(check: SupportsIndex, old: Union[_V4, SupportsIndex],
             new: Union[_V4, SupportsIndex]) -> int:
    """RFC 1624 update after a 32-bit field (an IPv4 address, a port pair) changed."""

def replace16(check: SupportsIndex, old: Union[_V6, SupportsIndex],
              new: Union[_V6, SupportsIndex]) -> int:
    """RFC 1624 update after a 128-bit field (an IPv6 address) changed."""

def replace_by_diff(check: SupportsIndex, diff: SupportsIndex) -> int:
    """RFC 1624 update of `check` by `diff`, the change of the covered data's partial sum."""

def dispatch() -> str:
    """The dispatch plan: which implementation handles which lengths."""

def _impls() -> List[Tuple[str, str, str, bool]]: ...
def _active() -> Tuple[str, str, str, bool]: ...
def _gil_threshold(bytes: Optional[SupportsIndex] = None, /) -> int: ...
def _pcap(args: Sequence[Union[str, bytes]], input_fd: SupportsIndex = ...,
          output_fd: SupportsIndex = ..., signals: bool = ...,
          /) -> Tuple[int, int, int, bytes, bytes, bytes]: ...
def _pcap_compressions() -> Tuple[Tuple[str, Optional[str]], ...]: ...
_PCAP_MAX_PORTS: int
