"""Buffers above 4 GiB, through a sparse file mapped with mmap (no disk space, no copy)."""
import mmap
import os
import sys

import pytest

import csum
from reference import fold16

GIB = 1 << 30


@pytest.mark.skipif(sys.maxsize < 1 << 33, reason="needs a 64-bit address space")
def test_sparse_file_over_4gib(tmp_path):
    size = 4 * GIB + 4099  # odd, past 2**32 by more than a page
    marks = {0: 0x12, 1: 0x34, 4095: 0xFE, (1 << 32) - 1: 0xAB, 1 << 32: 0xCD,
             (1 << 32) + 1: 0xEF, 3 * GIB + 5: 0x77, size - 2: 0x99, size - 1: 0x42}
    path = tmp_path / "sparse.bin"
    with open(path, "wb") as f:
        f.truncate(size)
        for off, val in marks.items():
            f.seek(off)
            f.write(bytes([val]))
    if os.stat(path).st_blocks * 512 > 64 << 20:
        pytest.skip("this file system does not keep files sparse")

    def expect(start):  # holes read as zeros: only the marked bytes count
        s = 0
        for off, val in marks.items():
            if off >= start:
                s += val << 8 if (off - start) % 2 == 0 else val
        return fold16(s)

    try:
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            assert len(m) == size
            assert csum.partial(m) == expect(0)
            assert csum.checksum(m, 0x1234) == ~fold16(expect(0) + 0x1234) & 0xFFFF
            view = memoryview(m)
            try:
                assert csum.partial(view[1:]) == expect(1)  # odd start, 4 GiB + 4098 bytes
            finally:
                view.release()
    finally:
        path.unlink()  # and its 4 GiB of page cache with it
