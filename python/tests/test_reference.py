"""csum against the plain-Python RFC 1071 reference: every length 0..2048 at alignments 0..7
(memoryview slices of one buffer, so the C code sees every address parity and offset) and
initial values, through every kind of buffer Python has."""
import array
import mmap
import random

import pytest

import csum
from reference import fold16, ref_checksum, ref_partial

MAX_LEN = 2048
ALIGNMENTS = range(8)
INITIALS = [0, 1, 0xFFFF, 0x10000, 0x1234_5678, 0xFFFF_FFFE, 0xFFFF_FFFF]
BASE = bytearray(random.Random(1071).randbytes(MAX_LEN + 16))  # aperiodic


def test_sweep_lengths_alignments_initials():
    view = memoryview(BASE)
    failures = []
    for align in ALIGNMENTS:
        for n in range(MAX_LEN + 1):
            part = view[align:align + n]
            ref = ref_partial(part)
            for init in INITIALS:
                want = fold16(ref + init)
                got_p = csum.partial(part, init)
                got_c = csum.checksum(part, init)
                if got_p != want or got_c != (~want & 0xFFFF):
                    failures.append((align, n, init, got_p, want, got_c))
    assert not failures, f"{len(failures)} mismatches, first: {failures[:5]}"


def test_all_zero_and_all_ones_edges():
    # 0 and 0xffff are the two ones'-complement zeros: data of zeros sums to 0, nonzero data
    # never does; its checksum is then 0xffff, and a sum of 0xffff checksums to 0.
    for n in list(range(0, 70)) + [127, 128, 255, 256, 1500, 4096, 65535, 65536]:
        assert csum.partial(bytes(n)) == 0
        assert csum.checksum(bytes(n)) == 0xFFFF
        ones = b"\xff" * n
        assert csum.partial(ones) == ref_partial(ones)
        assert csum.checksum(ones) == ref_checksum(ones)


@pytest.mark.parametrize("make", [
    bytes, bytearray, memoryview, lambda b: array.array("B", b),
    lambda b: memoryview(bytearray(b)).cast("B"),
])
def test_buffer_types(make):
    data = bytes(BASE[:1501])
    assert csum.checksum(make(data)) == ref_checksum(data)
    assert csum.partial(make(data), 0x1234) == ref_partial(data, 0x1234)


def test_multibyte_item_buffers_are_summed_as_their_bytes():
    a = array.array("H", range(700))  # 2-byte items: the bytes in memory, as tobytes()
    assert csum.checksum(a) == ref_checksum(a.tobytes())
    a = array.array("d", [1.5, -2.25, 3e300])
    assert csum.checksum(a) == ref_checksum(a.tobytes())
    m2d = memoryview(bytes(BASE[:64])).cast("B", (8, 8))  # C-contiguous 2-D
    assert csum.checksum(m2d) == ref_checksum(m2d.tobytes())


def test_mmap_buffer():
    data = bytes(BASE[:3001])
    with mmap.mmap(-1, len(data)) as m:
        m.write(data)
        assert csum.checksum(m) == ref_checksum(data)


def test_numpy_arrays():
    np = pytest.importorskip("numpy")
    a = np.arange(1000, dtype=np.uint32)
    assert csum.checksum(a) == ref_checksum(a.tobytes())
    with pytest.raises(BufferError, match="not C-contiguous"):
        csum.checksum(a[::2])
    f = np.asfortranarray(np.arange(12, dtype=np.uint8).reshape(3, 4))
    with pytest.raises(BufferError):
        csum.checksum(f)
    dst = np.zeros(4, dtype=np.uint16)
    assert csum.partial_copy(dst, b"abc") == ref_partial(b"abc") and dst.tobytes()[:3] == b"abc"
    dst.flags.writeable = False  # NumPy raises ValueError for a writable request: TypeError here
    with pytest.raises(TypeError, match="dst must be a writable .*not a read-only numpy.ndarray"):
        csum.partial_copy(dst, b"abc")


def test_partial_composes_across_splits():
    data = bytes(BASE[:1000])
    whole = csum.partial(data)
    for cut in (0, 1, 2, 3, 500, 999, 1000):
        a, b = csum.partial(data[:cut]), csum.partial(data[cut:])
        assert csum.block_add(a, b, cut) == whole
        # An even cut continues with `initial`; an odd one needs block_add.
        if cut % 2 == 0:
            assert csum.partial(data[cut:], a) == whole
