"""The API surface: protocol helpers against the reference, errors, docstrings, metadata."""
import array
import doctest
import ipaddress
import random
import re
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import csum
from reference import ref_checksum, ref_partial

RNG = random.Random(1624)


def ipv4_header(ihl=5, **kw):
    hdr = bytearray(RNG.randbytes(ihl * 4))
    hdr[0] = 0x40 | ihl
    hdr[10:12] = b"\0\0"
    return hdr


def test_version_is_the_library_version():
    text = (Path(__file__).resolve().parents[2] / "include" / "csum_version.h").read_text()
    parts = [re.search(rf"#define CSUM_VERSION_{p} (\d+)", text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    assert csum.__version__ == ".".join(parts) == csum._csum.library_version


def test_impls_and_active():
    rows = csum.impls()
    assert rows and all(isinstance(r, csum.Impl) for r in rows)
    names = [r.name for r in rows]
    assert "generic" in names and len(set(names)) == len(names)
    act = csum.active()
    assert act.supported and act.name in names
    assert act.description == next(r.description for r in rows if r.name == act.name)
    plan = csum.dispatch()
    assert act.name in plan and re.fullmatch(r"[\w-]+@\d+(,[\w-]+@\d+)*", plan)


@pytest.mark.parametrize("ihl", range(5, 16))
def test_ipv4_header(ihl):
    for _ in range(50):
        hdr = ipv4_header(ihl)
        c = csum.ipv4_header(hdr)
        assert c == ref_checksum(hdr)
        hdr[10:12] = struct.pack("!H", c)
        assert csum.ipv4_header(hdr) == 0
        assert csum.ipv4_header(bytes(hdr) + b"payload ignored") == 0


def test_ipv4_header_batch():
    hdrs = [ipv4_header(RNG.randint(5, 15)) for _ in range(300)]
    buf, offsets = bytearray(), []
    for h in hdrs:
        buf += RNG.randbytes(RNG.randint(0, 3))  # any alignment
        offsets.append(len(buf))
        buf += h
    got = csum.ipv4_header_batch(buf, offsets)
    assert got.typecode == "H"
    assert got.tolist() == [ref_checksum(h) for h in hdrs]
    assert csum.ipv4_header_batch(bytes(buf), iter(offsets)).tolist() == got.tolist()
    assert csum.ipv4_header_batch(b"", []).tolist() == []
    with pytest.raises(ValueError, match=r"offsets\[1\] = 40 has IHL 5 \(20 bytes\), only 5"):
        csum.ipv4_header_batch(bytes(ipv4_header()) + b"\x45" * 25, [0, 40])
    with pytest.raises(ValueError, match=r"offsets\[0\] = 99"):
        csum.ipv4_header_batch(bytes(40), [99])
    with pytest.raises(ValueError, match="IHL 3"):
        csum.ipv4_header_batch(b"\x43" + bytes(30), [0])
    with pytest.raises(ValueError):
        csum.ipv4_header_batch(bytes(ipv4_header()), [-1])
    with pytest.raises(TypeError):
        csum.ipv4_header_batch(bytes(ipv4_header()), 5)


CLEARING = """
import csum, csum._csum

class Clearing:  # an item whose conversion empties the list that holds it
    def __init__(self, items, value):
        self.items, self.value = items, value

    def __index__(self):
        self.items.clear()
        return self.value

    def __fspath__(self):
        self.items.clear()
        return self.value
"""


@pytest.mark.parametrize("script", [
    """
hdr = bytes.fromhex("450000730000400040110000c0a80001c0a800c7")
offsets = []
offsets += [Clearing(offsets, 0)] + [20] * 1000
got = csum.ipv4_header_batch(hdr * 2, offsets).tolist()
assert got == [csum.ipv4_header(hdr)] * 1001 and offsets == [], got[:3]
""", """
args = []
args += ["verify", Clearing(args, "/nonexistent.pcap")] + ["--all"] * 1000
status, _, _, _, err, _ = csum._csum._pcap(args)  # the args as given: the path, then --all
assert status == 2 and b"/nonexistent.pcap: No such file" in err, (status, err)
"""], ids=["ipv4_header_batch offsets", "_pcap args"])
def test_python_code_run_per_item_cannot_pull_the_sequence_away(script):
    """The C loops over a sequence run Python code for each item (an offset's __index__, an
    argument's __fspath__); one that empties the caller's list must not make them read the
    freed list (a crash, hence a fresh interpreter), and the call works on what it was given."""
    r = subprocess.run([sys.executable, "-c", CLEARING + script + "print('ok')"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "ok\n", (r.returncode, r.stderr)


GUARDED = """
import ctypes, mmap, threading, csum
PAGE = mmap.PAGESIZE
pages = mmap.mmap(-1, 2 * PAGE)
libc = ctypes.CDLL(None)
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
anchor = ctypes.c_char.from_buffer(pages)
assert libc.mprotect(ctypes.addressof(anchor) + PAGE, PAGE, 0) == 0  # PROT_NONE
del anchor
buf = memoryview(pages)[:PAGE]  # its last 20 bytes are an IPv4 header, then the guard page
end = PAGE - 20
buf[0] = buf[end] = 0x45
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mprotect through ctypes")
@pytest.mark.parametrize("script", [
    """
class Rewriting:  # an offset whose conversion makes the checked header at `end` IHL 15
    def __index__(self):
        buf[end] = 0x4F
        return 0
try:
    csum.ipv4_header_batch(buf, [end, Rewriting()])
except ValueError as e:
    assert "offsets[0] = %d has IHL 15 (60 bytes), only 20" % end in str(e), e
else:
    raise AssertionError("no ValueError")
""", """
done = False
def flip():  # IHL 5 <-> 15 while the batch runs with the GIL released
    while not done:
        buf[end] = 0x4F
        buf[end] = 0x45
thread = threading.Thread(target=flip)
thread.start()
try:
    for _ in range(300):
        try:
            csum.ipv4_header_batch(buf, [end] * 8192)
        except ValueError as e:  # the check saw IHL 15: the writer's doing, and said so
            assert "has IHL 15 (60 bytes), only 20" in str(e), e
finally:
    done = True
    thread.join()
"""], ids=["__index__", "thread"])
def test_ipv4_header_batch_never_reads_past_the_buffer(script):
    """The batch takes each header's IHL from its first byte again: a header checked as IHL 5
    and rewritten to 15 before the batch reads it (by an offset's __index__, or by another
    thread while the GIL is released) made it read 40 bytes past the buffer (a segfault at a
    guard page, hence a fresh interpreter). A wrong result is the writer's doing; a crash is
    not."""
    r = subprocess.run([sys.executable, "-c", GUARDED + script + "print('ok')"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "ok\n", (r.returncode, r.stderr)


def pseudo4(src, dst, proto, length):
    return socket.inet_aton(src) + socket.inet_aton(dst) + struct.pack("!BBH", 0, proto, length)


def pseudo6(src, dst, proto, length):
    return (socket.inet_pton(socket.AF_INET6, src) + socket.inet_pton(socket.AF_INET6, dst) +
            struct.pack("!IxxxB", length, proto))


def test_tcpudp_v4_every_address_form():
    for _ in range(200):
        src, dst = (str(ipaddress.IPv4Address(RNG.getrandbits(32))) for _ in range(2))
        seg = RNG.randbytes(RNG.randint(0, 1500))
        proto = RNG.choice([6, 17])
        want = ref_checksum(pseudo4(src, dst, proto, len(seg)) + seg)
        for s, d in ((src, dst), (socket.inet_aton(src), socket.inet_aton(dst)),
                     (ipaddress.IPv4Address(src), ipaddress.IPv4Address(dst)),
                     (bytearray(socket.inet_aton(src)), memoryview(socket.inet_aton(dst)))):
            assert csum.tcpudp_v4(s, d, proto, len(seg), csum.partial(seg)) == want
        ph = csum.tcpudp_v4_nofold(src, dst, proto, len(seg))
        assert ph == ref_partial(pseudo4(src, dst, proto, len(seg)))
        assert csum.checksum(seg, ph) == want
        assert csum.tcpudp_v4(src, dst, proto, length=len(seg), payload_sum=csum.partial(seg)) == want


def test_ipv6_every_address_form():
    for _ in range(200):
        src, dst = (str(ipaddress.IPv6Address(RNG.getrandbits(128))) for _ in range(2))
        seg = RNG.randbytes(RNG.randint(0, 1500))
        proto = RNG.choice([6, 17, 58])
        want = ref_checksum(pseudo6(src, dst, proto, len(seg)) + seg)
        for s, d in ((src, dst), (ipaddress.IPv6Address(src), ipaddress.IPv6Address(dst)),
                     (socket.inet_pton(socket.AF_INET6, src), socket.inet_pton(socket.AF_INET6, dst))):
            assert csum.ipv6(s, d, proto, len(seg), csum.partial(seg)) == want
    big = 0x1_0000_0005  # upper-layer lengths are 32-bit in IPv6
    with pytest.raises(ValueError):
        csum.ipv6("::1", "::1", 6, big, 0)
    assert csum.ipv6("::1", "::2", 6, 0x0001_0005, 0) == ref_checksum(pseudo6("::1", "::2", 6, 0x0001_0005))


def test_address_errors():
    with pytest.raises(ValueError, match="not an IPv4 address"):
        csum.tcpudp_v4("1.2.3", "1.2.3.4", 6, 0)
    with pytest.raises(ValueError, match="not an IPv4 address"):
        csum.tcpudp_v4("::1", "1.2.3.4", 6, 0)
    with pytest.raises(ValueError, match="4-byte IPv4 address, got 16 bytes"):
        csum.tcpudp_v4(ipaddress.IPv6Address("::1"), "1.2.3.4", 6, 0)
    with pytest.raises(ValueError, match="4-byte"):
        csum.tcpudp_v4(b"\1\2\3", "1.2.3.4", 6, 0)
    with pytest.raises(ValueError, match="not an IPv6 address"):
        csum.ipv6("1.2.3.4", "::1", 6, 0)
    with pytest.raises(ValueError, match="not an IPv6 address"):
        csum.ipv6("::1\0junk", "::1", 6, 0)
    with pytest.raises(TypeError, match="IPv6 address as bytes, str or ipaddress"):
        csum.ipv6(1, "::1", 6, 0)
    for text in ("192.0.2.\udcff", "192.0.2.1\ud800"):  # the function and argument named
        with pytest.raises(ValueError, match=r"^tcpudp_v4\(\): dst '.*' is not an IPv4 address"):
            csum.tcpudp_v4("192.0.2.1", text, 6, 0)
    with pytest.raises(ValueError, match=r"^ipv6\(\): src '.*' is not an IPv6 address"):
        csum.ipv6("fe80::\udcff%eth0", "::1", 6, 0)
    with pytest.raises(ValueError, match="proto must be between 0 and 0xff"):
        csum.tcpudp_v4("1.2.3.4", "1.2.3.4", 256, 0)
    with pytest.raises(ValueError, match="length"):
        csum.tcpudp_v4("1.2.3.4", "1.2.3.4", 6, -1)


def test_an_ipv6_zone_is_ignored_in_every_form():
    """A zone (RFC 4007's fe80::1%eth0, IPv6Address.scope_id) names a link on this host and is
    not part of the 16 bytes on the wire: the str form is taken as ipaddress.IPv6Address takes
    it, the zone dropped as its .packed drops it (the str used to be refused while the
    IPv6Address was taken). What ipaddress refuses, csum refuses."""
    icmp = bytes.fromhex("8000000000010001")
    want = csum.ipv6("fe80::1", "ff02::1", 58, len(icmp), csum.partial(icmp))
    for src in ("fe80::1%eth0", "fe80::1%1", "fe80::1% odd zone", "fe80::1%eth0.100",
                "fe80::1%\udcff", "fe80::1%\ud800",  # a name os.fsdecode() made, any surrogate
                ipaddress.IPv6Address("fe80::1%eth0"), ipaddress.IPv6Address("fe80::1%7"),
                ipaddress.IPv6Address("fe80::1%\udcff")):
        assert csum.ipv6(src, "ff02::1%eth0", 58, len(icmp), csum.partial(icmp)) == want, src
    assert csum.replace16(0x1234, "fe80::1%eth0", ipaddress.IPv6Address("fe80::2%eth0")) == \
        csum.replace16(0x1234, "fe80::1", "fe80::2")
    assert csum.ipv6("::ffff:192.0.2.1%3", "::1", 6, 0) == \
        csum.ipv6("::ffff:192.0.2.1", "::1", 6, 0)
    for text in ("fe80::1%", "fe80::1%a%b", "%eth0", "fe80::g%eth0", "1.2.3.4%eth0",
                 "f" * 70 + "%eth0"):
        with pytest.raises(ValueError):
            ipaddress.IPv6Address(text)
        with pytest.raises(ValueError, match="not an IPv6 address"):
            csum.ipv6(text, "::1", 58, 0)
        with pytest.raises(ValueError, match="not an IPv6 address"):
            csum.replace16(0, text, "::1")
    with pytest.raises(ValueError, match="not an IPv6 address"):  # a NUL anywhere, as before
        csum.ipv6("fe80::1%eth0\0", "::1", 58, 0)
    with pytest.raises(ValueError, match="not an IPv4 address"):  # IPv4 has no zones
        csum.tcpudp_v4("192.0.2.1%eth0", "192.0.2.2", 6, 0)


def test_buffers_of_python_objects_are_refused():
    """A buffer whose items are Python objects (format 'O': a NumPy object array, a
    ctypes.py_object array, a structure with such a field) holds their addresses: checksum()
    summed them, and partial_copy() into one overwrote references (a crash). Every other
    contiguous buffer is still its bytes: integers, floats, pointers ('P'), structures."""
    import ctypes
    np = pytest.importorskip("numpy")
    objects = [np.array([1, "a"], dtype=object), (ctypes.py_object * 2)(1, 2),
               np.zeros(2, dtype=[("Open", "i4"), ("ref", "O")])]
    calls = [csum.checksum, csum.partial, csum.ipv4_header,
             lambda b: csum.ipv4_header_batch(b, [0]), lambda b: csum.partial_copy(b, b"\1" * 8),
             lambda b: csum.partial_copy(bytearray(64), b), lambda b: csum.ipv6(b, "::1", 6, 0),
             lambda b: csum.replace4(0, b, 0), lambda b: csum.tcpudp_v4("192.0.2.1", b, 6, 0)]
    for obj in objects:
        for call in calls:
            with pytest.raises(TypeError, match="not a buffer of Python objects"):
                call(obj)
    assert objects[0][1] == "a" and objects[1][1] == 2  # nothing was written into them
    plain = [np.arange(7, dtype=np.uint16), np.arange(3, dtype=np.float64), array.array("d", [1.5]),
             np.zeros(2, dtype=[("Open", "i4"), ("Order", "f8")]),  # names with an O: no object
             (ctypes.c_void_p * 2)(1, 2), memoryview(bytes(range(16))).cast("P"),
             (ctypes.c_char_p * 2)()]
    for obj in plain:
        data = memoryview(obj).tobytes()
        assert csum.checksum(obj) == ref_checksum(data), type(obj)
        if not memoryview(obj).readonly:
            assert csum.partial_copy(obj, bytes(len(data))) == 0


def test_replace_helpers_equal_recomputing():
    for _ in range(300):
        data = bytearray(RNG.randbytes(RNG.randrange(40, 200, 2)))
        check = csum.checksum(data)
        at = RNG.randrange(0, len(data) - 16, 2)  # fields start at even offsets
        old2, new2 = bytes(data[at:at + 2]), RNG.randbytes(2)
        d2 = bytearray(data)
        d2[at:at + 2] = new2
        assert csum.replace2(check, int.from_bytes(old2, "big"), int.from_bytes(new2, "big")) \
            == csum.checksum(d2)
        old4, new4 = bytes(data[at:at + 4]), RNG.randbytes(4)
        d4 = bytearray(data)
        d4[at:at + 4] = new4
        want = csum.checksum(d4)
        assert csum.replace4(check, old4, new4) == want
        assert csum.replace4(check, int.from_bytes(old4, "big"), int.from_bytes(new4, "big")) == want
        assert csum.replace4(check, socket.inet_ntoa(old4), ipaddress.IPv4Address(new4)) == want
        old16, new16 = bytes(data[at:at + 16]), RNG.randbytes(16)
        d16 = bytearray(data)
        d16[at:at + 16] = new16
        want = csum.checksum(d16)
        assert csum.replace16(check, old16, new16) == want
        assert csum.replace16(check, ipaddress.IPv6Address(old16), str(ipaddress.IPv6Address(new16))) == want
        assert csum.replace16(check, int.from_bytes(old16, "big"), new16) == want
    with pytest.raises(ValueError):
        csum.replace2(0x10000, 0, 0)
    with pytest.raises(ValueError):
        csum.replace4(0, 1 << 32, 0)
    with pytest.raises(ValueError):
        csum.replace16(0, -1, 0)


def test_replace_helpers_take_numpy_arrays_as_bytes():
    """A NumPy array has __index__, which fails unless the array holds one integer: an array of
    bytes is a bytes-like field (as tcpudp_v4 takes it), a NumPy integer an int."""
    np = pytest.importorskip("numpy")
    hdr = np.frombuffer(bytes.fromhex("450000730000400040110000c0a80001c0a800c7"), np.uint8)
    nat = hdr.copy()
    nat[12:16] = [10, 0, 0, 1]
    check, want = csum.ipv4_header(hdr), csum.ipv4_header(nat)
    assert csum.replace4(check, hdr[12:16], nat[12:16]) == want
    assert csum.replace4(check, np.uint32(0xC0A80001), np.array(0x0A000001)) == want
    v6 = np.frombuffer(ipaddress.IPv6Address("2001:db8::1").packed, np.uint8)
    assert csum.replace16(0x1234, v6, "2001:db8::2") == \
        csum.replace16(0x1234, "2001:db8::1", "2001:db8::2")
    with pytest.raises(ValueError, match="4-byte IPv4 address, got 3 bytes"):
        csum.replace4(check, hdr[12:15], nat[12:16])


def test_rfc1624_never_turns_a_correct_zero_into_ffff():
    # RFC 1624 section 3's example: eqn. 2 gives 0xffff where the right answer is 0x0000.
    assert csum.replace2(0xDD2F, 0x5555, 0x3285) == 0x0000


def test_a_stored_ffff_is_updated_to_what_recomputing_gives():
    """A stored 0xffff (UDP's computed 0, or eqn. 2's form of a correct 0x0000) with a field
    going from all ones to all zeros: 0x0000 as recomputing gives, never 0xffff."""
    data = bytearray(b"\x45\x00" + b"\xff" * 16 + b"\x00\x00")
    data[18:20] = (~csum.partial(data) & 0xFFFF).to_bytes(2, "big")  # computed checksum 0
    assert csum.checksum(data) == 0x0000
    for width, replace in ((2, csum.replace2), (4, csum.replace4), (16, csum.replace16)):
        changed = bytearray(data)
        changed[2:2 + width] = bytes(width)
        assert csum.checksum(changed) == 0x0000
        assert replace(0xFFFF, (1 << 8 * width) - 1, 0) == 0x0000, width


def test_replace_by_diff_equals_recomputing():
    """The update by a difference of sums equals the checksum of the changed data: pieces at
    odd and even offsets, the difference from block_sub/block_add (and from sub at an even
    offset), with a pseudo-header sum or none; from and to all-zero data, and to 0x0000."""
    for i in range(2000):
        data = bytearray(RNG.randbytes(RNG.randrange(2, 300)))
        initial = RNG.getrandbits(32) if i & 1 else 0
        if i % 7 == 1:
            data = bytearray(len(data))  # stored 0xffff before the change
        start = RNG.randrange(len(data))
        end = RNG.randrange(start + 1, len(data) + 1)
        new = bytearray(RNG.randbytes(end - start))
        if i % 7 == 2:  # everything else zeros, and the piece changed to zeros
            data = bytearray(len(data))
            data[start:end] = RNG.randbytes(end - start)
            new = bytearray(end - start)
        check = csum.checksum(data, initial)
        old_sum, new_sum = csum.partial(data[start:end]), csum.partial(new)
        diff = csum.block_add(csum.block_sub(0, old_sum, start), new_sum, start)
        data[start:end] = new
        want = ref_checksum(data, initial)
        if initial == 0 and not any(data):
            assert want == 0xFFFF
            want = 0x0000  # never 0xffff: the same ones'-complement number, as replace2
        assert csum.replace_by_diff(check, diff) == want, (i, start, end)
        if start % 2 == 0:
            assert csum.replace_by_diff(check, csum.sub(new_sum, old_sum)) == want
    # RFC 1624 section 3's example: 0xdd2f with a word 0x5555 -> 0x3285 is 0x0000, not 0xffff.
    assert csum.replace_by_diff(0xDD2F, csum.sub(0x3285, 0x5555)) == 0x0000
    with pytest.raises(ValueError, match="check"):
        csum.replace_by_diff(0x10000, 0)
    with pytest.raises(ValueError, match="diff"):
        csum.replace_by_diff(0, 1 << 32)


def test_unfold():
    """unfold gives the checksum's value as a partial sum; taking it out of 0 gives the sum
    the stored checksum stands for, which folds back to it (0xffff: to 0x0000, negative zero)."""
    for c in range(0x10000):
        assert csum.unfold(c) == c
        assert csum.fold(csum.sub(0, csum.unfold(c))) == (c if c != 0xFFFF else 0)
    hdr = bytes.fromhex("450000730000400040110000c0a80001c0a800c7")  # checksum field zero
    assert csum.sub(0, csum.unfold(csum.ipv4_header(hdr))) == csum.partial(hdr)
    with pytest.raises(ValueError, match="check"):
        csum.unfold(0x10000)
    with pytest.raises(TypeError, match="int"):
        csum.unfold(1.0)


def test_udp_fixup():
    assert csum.udp_fixup(0) == 0xFFFF
    assert all(csum.udp_fixup(c) == c for c in (1, 0x1234, 0xFFFF))


def test_udp_computed_zero_is_sent_as_ffff_over_ipv4_and_ipv6():
    """A datagram whose checksum computes to 0: tcpudp_v4() and ipv6() give 0, udp_fixup()
    0xffff (RFC 768, RFC 8200 section 8.1), and the datagram holding it verifies."""
    for v6 in (False, True):
        for _ in range(50):
            src, dst = ((str(ipaddress.IPv6Address(RNG.getrandbits(128))) if v6 else
                         str(ipaddress.IPv4Address(RNG.getrandbits(32)))) for _ in range(2))
            udp = bytearray(RNG.randbytes(RNG.randint(10, 600)))
            udp[4:8] = struct.pack("!HH", len(udp), 0)
            udp[8:10] = bytes(2)
            pseudo = pseudo6 if v6 else pseudo4
            udp[8:10] = struct.pack("!H", ref_checksum(pseudo(src, dst, 17, len(udp)) + udp))
            helper = csum.ipv6 if v6 else csum.tcpudp_v4
            assert helper(src, dst, 17, len(udp), csum.partial(udp)) == 0
            udp[6:8] = struct.pack("!H", csum.udp_fixup(0))
            assert udp[6:8] == b"\xff\xff"
            assert helper(src, dst, 17, len(udp), csum.partial(udp)) == 0
            assert ref_checksum(pseudo(src, dst, 17, len(udp)) + udp) == 0


def test_fold_add_sub():
    assert csum.fold(0) == 0xFFFF and csum.fold(0xFFFF) == 0 and csum.fold(0xFFFF_FFFF) == 0
    for _ in range(1000):
        a, b = RNG.getrandbits(32), RNG.getrandbits(32)
        assert csum.add(a, b) % 0xFFFF == (a + b) % 0xFFFF
        assert csum.sub(csum.add(a, b), b) % 0xFFFF == a % 0xFFFF
        assert csum.fold(a) == ~(((a - 1) % 0xFFFF) + 1 if a else 0) & 0xFFFF


def test_partial_copy():
    src = RNG.randbytes(5000)
    for n in (0, 1, 2, 3, 63, 64, 65, 1499, 5000):
        dst = bytearray(b"\xee" * (n + 7))
        assert csum.partial_copy(dst, src[:n], 0x99) == ref_partial(src[:n], 0x99)
        assert dst[:n] == src[:n] and dst[n:] == b"\xee" * 7
    big = memoryview(bytearray(10_000))
    with pytest.raises(ValueError, match="overlap"):
        csum.partial_copy(big[0:100], big[50:150])
    with pytest.raises(ValueError, match="dst has 3 bytes, src needs 4"):
        csum.partial_copy(bytearray(3), b"abcd")
    with pytest.raises(TypeError, match="writable"):
        csum.partial_copy(b"xxxx", b"ab")
    m = memoryview(bytearray(4096))
    assert csum.partial_copy(m[1:], src[:4095]) == ref_partial(src[:4095])


def test_iov_and_iov_range():
    """iov() and iov_range() against the pure-Python reference over the joined bytes: random
    splits with empty and odd pieces, every range of a short vector, and the errors."""
    data = RNG.randbytes(3000)
    for _ in range(300):
        cuts = sorted(RNG.randrange(len(data) + 1) for _ in range(RNG.randrange(8)))
        pieces = [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]
        kinds = [bytes, bytearray, memoryview, lambda b: array.array("B", b)]
        bufs = [RNG.choice(kinds)(p) for p in pieces]
        init = RNG.getrandbits(32)
        assert csum.iov(bufs, init) == ref_partial(data, init)
        off = RNG.randrange(len(data) + 1)
        n = RNG.randrange(len(data) - off + 1)
        assert csum.iov_range(bufs, off, n, init) == ref_partial(data[off:off + n], init)
    short = [b"", b"\x12", b"\x34\x56", b"", b"\x78\x9a\xbc", b"\xde"]
    joined = b"".join(short)
    for off in range(len(joined) + 1):
        for n in range(len(joined) - off + 1):
            assert csum.iov_range(iter(short), off, n, 7) == ref_partial(joined[off:off + n], 7)
    assert csum.iov([]) == 0 and csum.iov_range([], 0, 0, 5) == 5
    with pytest.raises(ValueError, match="bytes 4 .. 9 are past the buffers' 7 bytes"):
        csum.iov_range(short, 4, 5)
    with pytest.raises(ValueError, match="past the buffers"):
        csum.iov_range(short, 9, 0)
    with pytest.raises(TypeError, match="iterable of bytes-like"):
        csum.iov(5)
    with pytest.raises(TypeError, match="each buffer"):
        csum.iov([b"ab", "cd"])
    with pytest.raises(ValueError):
        csum.iov_range(short, -1, 2)


@pytest.mark.parametrize("call, exc, text", [
    (lambda: csum.checksum(12), TypeError, "bytes-like object"),
    (lambda: csum.checksum("text"), TypeError, "not str"),
    (lambda: csum.checksum(None), TypeError, "not NoneType"),
    (lambda: csum.checksum(memoryview(b"abcd")[::2]), BufferError, "not C-contiguous"),
    (lambda: csum.checksum(b"", -1), ValueError, "initial must be between 0 and 0xffffffff"),
    (lambda: csum.checksum(b"", 1 << 32), ValueError, "initial"),
    (lambda: csum.checksum(b"", 1 << 200), ValueError, "initial"),
    (lambda: csum.checksum(b"", 1.5), TypeError, "must be an int"),
    (lambda: csum.checksum(), TypeError, "missing required argument 'data'"),
    (lambda: csum.checksum(b"", 0, 0), TypeError, "at most 2 arguments"),
    (lambda: csum.checksum(b"", initail=0), TypeError, "unexpected keyword argument 'initail'"),
    (lambda: csum.checksum(b"", 0, initial=0), TypeError, "multiple values"),
    (lambda: csum.partial(data=b"", bogus=1), TypeError, "unexpected keyword"),
    (lambda: csum.fold(-1), ValueError, "sum"),
    (lambda: csum.fold("1"), TypeError, "int"),
    (lambda: csum.block_add(0, 0, -1), ValueError, "offset"),
    (lambda: csum.block_sub(0, 0, -1), ValueError, "offset"),
    (lambda: csum.block_sub(1 << 32, 0, 0), ValueError, "sum"),
    (lambda: csum.ipv4_header(b""), ValueError, "0 bytes"),
    (lambda: csum.ipv4_header(b"\x45" + bytes(18)), ValueError, "only 19 bytes"),
    (lambda: csum.ipv4_header(b"\x4f" + bytes(40)), ValueError, "IHL 15 \\(60 bytes\\)"),
    (lambda: csum.ipv4_header(b"\x40" + bytes(40)), ValueError, "IHL 0"),
])
def test_errors(call, exc, text):
    with pytest.raises(exc, match=text):
        call()


def test_keyword_arguments_and_index_types():
    class Idx:
        def __index__(self):
            return 7
    assert csum.checksum(data=b"ab", initial=Idx()) == csum.checksum(b"ab", 7)
    assert csum.partial(b"ab", initial=True) == csum.partial(b"ab", 1)


HDR = bytes.fromhex("450000730000400040110000c0a80001c0a800c7")
SAMPLE_ARGS = {  # positional arguments for one call of each function
    "add": (0xFFF0, 0x20), "block_add": (0x1234, 0x5678, 3),
    "block_sub": (0x1234, 0x5678, 3), "checksum": (b"abc", 5),
    "fold": (0xDDF2,), "ipv4_header": (HDR,), "ipv4_header_batch": (HDR * 2, [0, 20]),
    "ipv6": ("::1", "::2", 58, 8, 0x1234), "partial": (b"abc", 5),
    "partial_copy": (bytearray(4), b"abc", 5),
    "replace16": (0x1234, "::1", "::2"), "replace2": (0x1234, 0x4011, 0x3F11),
    "replace4": (0x1234, "10.0.0.1", "10.0.0.2"), "sub": (0x1234, 0x20),
    "tcpudp_v4": ("10.0.0.1", "10.0.0.2", 17, 8, 0x1234),
    "tcpudp_v4_nofold": ("10.0.0.1", "10.0.0.2", 17, 8, 0x1234), "udp_fixup": (0,),
    "unfold": (0xB861,), "replace_by_diff": (0x1234, 0x5678),
    "iov": ([b"a", b"bc"], 5), "iov_range": ([b"a", b"bc"], 1, 2, 5),
}


def test_every_int_argument_takes_index_objects():
    """The stubs type integer arguments SupportsIndex: each one takes an object with
    __index__ (a NumPy integer, say) and gives what the int gives."""
    class Idx:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v
    for name, args in SAMPLE_ARGS.items():
        f = getattr(csum, name)
        wrapped = tuple(Idx(a) if type(a) is int else a for a in args)
        got, want = f(*wrapped), f(*args)
        want, got = (x.tolist() if hasattr(x, "tolist") else x for x in (want, got))
        assert got == want, name
    assert csum.replace4(0x1234, Idx(0x0A000001), Idx(0x0A000002)) == \
        csum.replace4(0x1234, "10.0.0.1", "10.0.0.2")
    assert csum._csum._gil_threshold(Idx(csum._csum._gil_threshold())) == \
        csum._csum._gil_threshold()


def test_every_signature_shown_is_the_one_accepted():
    """help() and inspect.signature() show each function's parameters (from the docstring's
    first line, and so do the stubs): a parameter shown as passable by keyword must be."""
    import inspect
    funcs = {n: getattr(csum, n) for n in csum.__all__
             if isinstance(getattr(csum, n), type(csum.fold))}
    assert set(funcs) - {"dispatch"} == set(SAMPLE_ARGS)
    for name, args in SAMPLE_ARGS.items():
        f = funcs[name]
        params = list(inspect.signature(f).parameters.values())
        by_name = {p.name: a for p, a in zip(params, args)
                   if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD}
        positional = args[:len(args) - len(by_name)]
        want = f(*args)
        got = f(*positional, **by_name)
        want, got = (x.tolist() if hasattr(x, "tolist") else x for x in (want, got))
        assert got == want, name


def test_docstring_examples():
    """Every example in the docstrings runs and prints what it says."""
    import csum.pcap
    import csum.scapy
    funcs = [getattr(csum, n) for n in csum.__all__ if callable(getattr(csum, n))] + [csum]
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for f in funcs + [csum.pcap]:
        if not f.__doc__:
            continue
        test = parser.get_doctest(f.__doc__, {"csum": csum}, getattr(f, "__name__", "?"), None, 0)
        examples += len(test.examples)
        runner.run(test)
    assert examples >= 20
    assert runner.summarize(verbose=False).failed == 0


def test_every_public_function_has_an_example():
    for name in csum.__all__:
        f = getattr(csum, name)
        if callable(f) and not isinstance(f, type):
            assert f.__doc__ and ">>>" in f.__doc__, name
