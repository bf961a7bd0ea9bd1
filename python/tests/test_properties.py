"""Properties of the Internet checksum that csum must keep, searched by Hypothesis."""
import struct

from hypothesis import given, strategies as st

import csum
from reference import fold16, ref_checksum, ref_partial

data_st = st.binary(max_size=3000)
u32 = st.integers(0, 0xFFFF_FFFF)


@given(data_st, u32)
def test_matches_reference(data, initial):
    assert csum.partial(data, initial) == ref_partial(data, initial)
    assert csum.checksum(data, initial) == ref_checksum(data, initial)
    assert csum.checksum(data, initial) == csum.fold(csum.partial(data, initial))


@given(data_st, st.data())
def test_split_anywhere_and_block_add(data, draw):
    cut = draw.draw(st.integers(0, len(data)))
    whole = csum.partial(data)
    assert csum.block_add(csum.partial(data[:cut]), csum.partial(data[cut:]), cut) == whole


@given(data_st, st.data())
def test_block_sub_removes_a_piece(data, draw):
    """Taking a piece's sum out of the whole's leaves the sum of the bytes around it, the piece
    zeroed (congruent modulo 0xffff: it folds alike unless what is left sums to exactly 0)."""
    start = draw.draw(st.integers(0, len(data)))
    end = draw.draw(st.integers(start, len(data)))
    rest = data[:start] + bytes(end - start) + data[end:]
    got = csum.block_sub(csum.partial(data), csum.partial(data[start:end]), start)
    want = csum.partial(rest)
    assert got % 0xFFFF == want % 0xFFFF
    if any(rest):
        assert csum.fold(got) == csum.fold(want)
    else:  # ones'-complement negative zero: folds to 0x0000, where the zeros' own sum gives 0xffff
        assert csum.fold(got) == 0x0000


@given(data_st.filter(len), st.data())
def test_replace_by_diff_is_recomputing(data, draw):
    """A piece rewritten anywhere, the stored checksum updated by the difference of the
    piece's sums: the checksum of the new data, but 0x0000 for all zeros (never 0xffff)."""
    start = draw.draw(st.integers(0, len(data) - 1))
    new = draw.draw(st.binary(min_size=1, max_size=len(data) - start))
    end = start + len(new)
    diff = csum.block_add(csum.block_sub(0, csum.partial(data[start:end]), start),
                          csum.partial(new), start)
    changed = data[:start] + new + data[end:]
    want = ref_checksum(changed) if any(changed) else 0x0000
    assert csum.replace_by_diff(csum.checksum(data), diff) == want


@given(st.lists(st.binary(max_size=300), max_size=8))
def test_concatenation_by_offsets(pieces):
    total, offset = 0, 0
    for p in pieces:
        total = csum.block_add(total, csum.partial(p), offset)
        offset += len(p)
    assert total == csum.partial(b"".join(pieces))


@given(st.binary(max_size=2000).map(lambda b: b if len(b) % 2 == 0 else b + b"\0"))
def test_appending_the_checksum_verifies_to_zero(data):
    c = csum.checksum(data)
    assert csum.checksum(data + struct.pack("!H", c)) == 0
    assert csum.checksum(struct.pack("!H", c) + data) == 0


@given(u32, u32)
def test_add_sub_inverse(a, b):
    assert csum.add(a, b) == fold16(a + b)
    assert csum.sub(csum.add(a, b), b) % 0xFFFF == a % 0xFFFF


@given(st.binary(min_size=2, max_size=400).filter(lambda b: len(b) % 2 == 0), st.data())
def test_replace2_is_incremental_recompute(data, draw):
    at = draw.draw(st.integers(0, len(data) // 2 - 1)) * 2
    new = draw.draw(st.integers(0, 0xFFFF))
    check = csum.checksum(data)
    changed = data[:at] + struct.pack("!H", new) + data[at + 2:]
    old = int.from_bytes(data[at:at + 2], "big")
    got = csum.replace2(check, old, new)
    if any(changed):
        assert got == csum.checksum(changed)
    else:  # all zeros: eqn. 3 gives 0x0000, the same ones'-complement zero as 0xffff
        assert got in (0, 0xFFFF) and csum.checksum(changed) == 0xFFFF


@given(data_st, u32)
def test_partial_copy_equals_partial(src, initial):
    dst = bytearray(len(src) + 3)
    assert csum.partial_copy(dst, src, initial) == csum.partial(src, initial)
    assert bytes(dst[:len(src)]) == src


@given(data_st)
def test_memoryview_offsets_do_not_matter(data):
    base = bytearray(b"\x5a" * 7) + data
    for a in range(8):
        padded = bytearray(b"\xa5" * a) + data
        assert csum.partial(memoryview(padded)[a:]) == csum.partial(data)
    assert csum.partial(memoryview(base)[7:]) == csum.partial(data)
