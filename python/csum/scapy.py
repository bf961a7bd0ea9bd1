"""Make scapy compute its Internet checksums with csum.

>>> import csum.scapy
>>> csum.scapy.install()      # IP, TCP, UDP, ICMP, ICMPv6 checksums now come from csum
>>> csum.scapy.uninstall()    # scapy's own functions again

:func:`install` replaces three functions wherever scapy's modules hold them:

- ``scapy.utils.checksum``, which every layer calls on bytes (IP and ICMP headers, and all
  that the two below do not handle), by :func:`csum.checksum`;
- ``scapy.layers.inet.in4_chksum`` (TCP and UDP over IPv4) and
  ``scapy.layers.inet6.in6_chksum`` (TCP, UDP, ICMPv6 over IPv6) by functions that sum the
  pseudo-header from the addresses and the payload in place with :func:`csum.tcpudp_v4` and
  :func:`csum.ipv6`, instead of building the pseudo-header as a packet and concatenating it
  with the payload. Packets those do not cover in the common way (IPv4 source-route
  options, IPv6 extension headers between IPv6 and the upper layer, no IP layer below,
  segments above 64 KiB over IPv4, addresses that are not plain literals) go to scapy's own
  function, so the results are scapy's in every case (the test suite compares them byte for
  byte over a corpus of built packets and ``show2()``).

Nothing is imported from scapy until :func:`install` is called.
"""
from __future__ import annotations

import sys
from typing import Any, Callable, Dict, List, Optional

import csum

__all__ = ["install", "installed", "uninstall"]

# scapy's functions -> ours, filled by install().
_replacements: Dict[Callable[..., Any], Callable[..., Any]] = {}
_original_in4: Optional[Callable[..., int]] = None
_original_in6: Optional[Callable[..., int]] = None
_IP: Any = None
_IPv6: Any = None


def _in4_chksum(proto: int, u: Any, p: bytes) -> int:
    """scapy's in4_chksum(proto, underlayer, payload) for an IP layer without options."""
    if isinstance(u, _IP) and not u.options:
        try:
            if u.len is None:
                length = len(p)
            else:  # the length the IP header claims, as scapy's pseudo-header takes it
                length = max(u.len - 4 * (5 if u.ihl is None else u.ihl), 0)
            if length <= 0xFFFF:
                return csum.tcpudp_v4(u.src, u.dst, proto, length, csum.partial(p))
        except (TypeError, ValueError):
            pass  # an address csum does not parse (e.g. a Net): scapy decides
    return _original_in4(proto, u, p)  # type: ignore[misc]


def _in6_chksum(nh: int, u: Any, p: bytes) -> int:
    """scapy's in6_chksum(next_header, underlayer, payload) right above an IPv6 header."""
    if isinstance(u, _IPv6):
        try:
            return csum.ipv6(u.src, u.dst, nh, len(p), csum.partial(p))
        except (TypeError, ValueError):
            pass
    return _original_in6(nh, u, p)  # type: ignore[misc]


def _scapy_modules() -> List[Any]:
    return [m for name, m in list(sys.modules.items())
            if m is not None and (name == "scapy" or name.startswith("scapy."))]


def _swap(mapping: Dict[Callable[..., Any], Callable[..., Any]]) -> None:
    """In every loaded scapy module, rebind each name bound to a key to its value."""
    for module in _scapy_modules():
        namespace = getattr(module, "__dict__", {})
        for name, value in list(namespace.items()):
            try:
                target = mapping.get(value)
            except TypeError:  # unhashable module attribute
                continue
            if target is not None:
                setattr(module, name, target)


def install() -> None:
    """Make scapy's IP, TCP, UDP, ICMP and ICMPv6 checksums (when building packets and in
    ``show2()``) come from csum. Idempotent; :func:`uninstall` undoes it. Modules of scapy
    imported later pick csum's functions up from ``scapy.utils`` and the layers too."""
    global _original_in4, _original_in6, _IP, _IPv6
    if _replacements:
        return
    import scapy.layers.inet as inet
    import scapy.layers.inet6 as inet6
    import scapy.utils as utils

    _IP, _IPv6 = inet.IP, inet6.IPv6
    _original_in4, _original_in6 = inet.in4_chksum, inet6.in6_chksum
    _replacements.update({utils.checksum: csum.checksum, inet.in4_chksum: _in4_chksum,
                          inet6.in6_chksum: _in6_chksum})
    _swap(_replacements)


def uninstall() -> None:
    """Give scapy its own checksum functions back (no-op if :func:`install` was not called)."""
    if not _replacements:
        return
    _swap({ours: theirs for theirs, ours in _replacements.items()})
    _replacements.clear()


def installed() -> bool:
    """True between :func:`install` and :func:`uninstall`."""
    return bool(_replacements)
