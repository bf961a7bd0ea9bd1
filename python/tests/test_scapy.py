"""csum.scapy.install(): scapy's packets and show2() output are byte-identical to scapy's own,
and csum really computes them."""
import contextlib
import logging
import random
import struct

import pytest

logging.getLogger("scapy").setLevel(logging.ERROR)
pytest.importorskip("scapy")

from scapy.compat import raw  # noqa: E402
from scapy.layers.inet import ICMP, IP, TCP, UDP, IPOption_LSRR, IPOption_RR  # noqa: E402
from scapy.layers.inet6 import (  # noqa: E402
    ICMPv6EchoReply, ICMPv6EchoRequest, ICMPv6ND_NA, ICMPv6ND_NS, IPv6, IPv6ExtHdrDestOpt,
    IPv6ExtHdrFragment, IPv6ExtHdrHopByHop, IPv6ExtHdrRouting,
)
from scapy.layers.l2 import Ether  # noqa: E402
import scapy.layers.inet as inet  # noqa: E402
import scapy.layers.inet6 as inet6  # noqa: E402
import scapy.utils as utils  # noqa: E402

import csum  # noqa: E402
import csum.scapy  # noqa: E402

RNG = random.Random(2024)
ORIGINAL = (utils.checksum, inet.in4_chksum, inet6.in6_chksum)


def payload(n):
    return RNG.randbytes(n)


def v4():
    return ".".join(str(RNG.randrange(1, 255)) for _ in range(4))


def v6():
    return ":".join(f"{RNG.getrandbits(16):x}" for _ in range(8))


def corpus():
    """(name, packet factory): fresh packets, so that nothing computed is cached."""
    cases = []
    for n in (0, 1, 2, 3, 20, 21, 100, 1460, 1461, 9000):
        body = payload(n)
        s, d, s6, d6 = v4(), v4(), v6(), v6()
        sp, dp = RNG.randrange(65536), RNG.randrange(65536)
        cases += [
            (f"ip-tcp-{n}", lambda s=s, d=d, b=body, sp=sp, dp=dp:
                IP(src=s, dst=d) / TCP(sport=sp, dport=dp, flags="PA", seq=n) / b),
            (f"ip-udp-{n}", lambda s=s, d=d, b=body, sp=sp, dp=dp: IP(src=s, dst=d) / UDP(sport=sp, dport=dp) / b),
            (f"ip-icmp-{n}", lambda s=s, d=d, b=body: IP(src=s, dst=d) / ICMP(id=n, seq=3) / b),
            (f"ether-ip-tcp-{n}", lambda s=s, d=d, b=body: Ether() / IP(src=s, dst=d, ttl=3) / TCP() / b),
            (f"ipv6-tcp-{n}", lambda s=s6, d=d6, b=body: IPv6(src=s, dst=d) / TCP(sport=80) / b),
            (f"ipv6-udp-{n}", lambda s=s6, d=d6, b=body: IPv6(src=s, dst=d) / UDP() / b),
            (f"ipv6-icmpv6-echo-{n}", lambda s=s6, d=d6, b=body: IPv6(src=s, dst=d) / ICMPv6EchoRequest(data=b)),
        ]
    s, d, s6, d6 = v4(), v4(), v6(), v6()
    cases += [
        ("ip-options-rr-tcp", lambda: IP(src=s, dst=d, options=[IPOption_RR()]) / TCP() / b"x"),
        ("ip-lsrr-udp", lambda: IP(src=s, dst=d, options=[IPOption_LSRR(routers=["10.9.9.9"])]) / UDP() / b"xy"),
        ("ip-len-set-tcp", lambda: IP(src=s, dst=d, len=60) / TCP() / (b"q" * 20)),
        ("ip-ihl-set-udp", lambda: IP(src=s, dst=d, ihl=5, len=40) / UDP() / (b"q" * 12)),
        ("ip-chksum-preset", lambda: IP(src=s, dst=d, chksum=0x1234) / TCP(chksum=0x4321)),
        ("ip-frag-udp", lambda: IP(src=s, dst=d, flags="MF", frag=0) / UDP() / (b"z" * 33)),
        ("icmp-echo-reply", lambda: IP(src=s, dst=d) / ICMP(type=0) / b"pong"),
        ("ipv6-hbh-udp", lambda: IPv6(src=s6, dst=d6) / IPv6ExtHdrHopByHop() / UDP() / b"hop"),
        ("ipv6-rh-tcp", lambda: IPv6(src=s6, dst=d6) /
            IPv6ExtHdrRouting(addresses=["2001:db8::5", "2001:db8::6"], segleft=2) / TCP() / b"rt"),
        ("ipv6-dest-udp", lambda: IPv6(src=s6, dst=d6) / IPv6ExtHdrDestOpt() / UDP() / b"d"),
        ("ipv6-frag-icmpv6", lambda: IPv6(src=s6, dst=d6) / IPv6ExtHdrFragment() / ICMPv6EchoReply(data=b"f")),
        ("ipv6-nd-ns", lambda: IPv6(src=s6, dst="ff02::1:ff00:1") / ICMPv6ND_NS(tgt="2001:db8::1")),
        ("ipv6-nd-na", lambda: IPv6(src=s6, dst=d6) / ICMPv6ND_NA(tgt=s6)),
        ("ipv6-long-ll", lambda: IPv6(src="fe80::1", dst="fe80::2") / UDP(sport=546, dport=547) / payload(70)),
        ("udp-computes-zero", udp_whose_checksum_is_zero),
        ("tcp-no-ip", lambda: TCP(sport=1, dport=2) / b"alone"),
        ("icmp-alone", lambda: ICMP() / b"alone"),
    ]
    return cases


def udp_whose_checksum_is_zero():
    """A UDP datagram whose computed checksum is 0, so it goes out as 0xffff (RFC 768)."""
    base = IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=7, dport=7, chksum=0) / b"\0\0abcd"
    wire = raw(base)
    s = csum.partial(wire[20:], csum.tcpudp_v4_nofold("192.0.2.1", "192.0.2.2", 17, len(wire) - 20))
    fill = (0xFFFF - s) % 0xFFFF  # makes the sum 0xffff: the checksum 0
    return IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=7, dport=7) / (struct.pack("!H", fill) + b"abcd")


@contextlib.contextmanager
def installed():
    csum.scapy.install()
    try:
        yield
    finally:
        csum.scapy.uninstall()


def build_all():
    return {name: (raw(make()), make().show2(dump=True)) for name, make in corpus()}


def test_corpus_is_byte_identical_with_and_without_install():
    global RNG
    RNG = random.Random(2024)
    theirs = build_all()
    RNG = random.Random(2024)
    with installed():
        ours = build_all()
    assert theirs.keys() == ours.keys() and len(theirs) > 80
    diff = [n for n in theirs if theirs[n] != ours[n]]
    assert not diff, diff
    zero = theirs["udp-computes-zero"][0]
    assert zero[26:28] == b"\xff\xff"


def test_install_really_uses_csum(monkeypatch):
    calls = {"v4": 0, "v6": 0, "checksum": 0}
    real_v4, real_v6 = csum.tcpudp_v4, csum.ipv6
    monkeypatch.setattr(csum, "tcpudp_v4", lambda *a: calls.__setitem__("v4", calls["v4"] + 1) or real_v4(*a))
    monkeypatch.setattr(csum, "ipv6", lambda *a: calls.__setitem__("v6", calls["v6"] + 1) or real_v6(*a))
    with installed():
        assert utils.checksum is csum.checksum and inet.checksum is csum.checksum
        assert inet.in4_chksum is csum.scapy._in4_chksum
        assert inet6.in6_chksum is csum.scapy._in6_chksum
        assert csum.scapy.installed()
        raw(IP(dst="10.0.0.1") / TCP() / b"abc")
        raw(IPv6(dst="::1") / UDP() / b"abc")
        raw(IPv6(dst="::1") / ICMPv6EchoRequest())
    assert calls["v4"] == 1 and calls["v6"] == 2


def test_uninstall_restores_scapy_everywhere():
    with installed():
        csum.scapy.install()  # idempotent
        # A module imported after install() binds csum's function, and gets scapy's back.
        import scapy.layers.sctp as sctp  # noqa: F401
    assert (utils.checksum, inet.in4_chksum, inet6.in6_chksum) == ORIGINAL
    assert inet.checksum is ORIGINAL[0] and inet6.checksum is ORIGINAL[0]
    import sys
    for name, mod in list(sys.modules.items()):
        if name.startswith("scapy") and mod is not None:
            for value in vars(mod).values():
                assert value is not csum.checksum, name
                assert value is not csum.scapy._in4_chksum and value is not csum.scapy._in6_chksum
    assert not csum.scapy.installed()
    csum.scapy.uninstall()  # no-op
