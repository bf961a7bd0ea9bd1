"""csum.checksum against the checksum functions of scapy and dpkt, on the same bytes."""
import logging
import random

import pytest

import csum

logging.getLogger("scapy").setLevel(logging.ERROR)
scapy_utils = pytest.importorskip("scapy.utils")
dpkt = pytest.importorskip("dpkt")

RNG = random.Random(768)
DATA = RNG.randbytes(4100)
CASES = [DATA[a:a + n] for a in range(4) for n in range(0, 600)] + \
        [DATA[:n] for n in (1499, 1500, 1501, 4095, 4096, 4097)] + \
        [bytes(n) for n in range(8)] + [b"\xff" * n for n in range(8)]


def test_scapy_utils_checksum():
    bad = [(len(d), hex(csum.checksum(d)), hex(scapy_utils.checksum(d)))
           for d in CASES if csum.checksum(d) != scapy_utils.checksum(d)]
    assert not bad, bad[:5]


def test_dpkt_in_cksum():
    bad = [(len(d), hex(csum.checksum(d)), hex(dpkt.dpkt.in_cksum(d)))
           for d in CASES if csum.checksum(d) != dpkt.dpkt.in_cksum(d)]
    assert not bad, bad[:5]


def test_dpkt_ip_header_checksum_matches_ipv4_header():
    ip = dpkt.ip.IP(src=bytes([10, 0, 0, 1]), dst=bytes([10, 0, 0, 2]), p=17, ttl=33,
                    data=dpkt.udp.UDP(sport=1, dport=2, data=b"xyz"))
    raw = bytes(ip)  # dpkt fills in the checksums
    assert csum.ipv4_header(raw) == 0
    zeroed = raw[:10] + b"\0\0" + raw[12:]
    assert csum.ipv4_header(zeroed) == int.from_bytes(raw[10:12], "big")
    udp = raw[20:]
    assert csum.tcpudp_v4(raw[12:16], raw[16:20], 17, len(udp), csum.partial(udp)) == 0
