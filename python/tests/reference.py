"""The RFC 1071 Internet checksum written out in plain Python, as the tests' oracle.

Byte at a time, exactly as the RFC defines it: adjacent bytes paired into 16-bit big-endian
words (an odd last byte padded with a zero byte), summed, carries folded back in.
"""


def fold16(s: int) -> int:
    """End-around carry of a non-negative integer into 16 bits."""
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def ref_partial(data, initial: int = 0) -> int:
    """Ones'-complement sum of the big-endian words of data, plus initial, in 16 bits."""
    b = bytes(data)
    s = initial
    for i in range(0, len(b) - 1, 2):
        s += (b[i] << 8) | b[i + 1]
    if len(b) & 1:
        s += b[-1] << 8
    return fold16(s)


def ref_checksum(data, initial: int = 0) -> int:
    """The checksum to store: the complement of the sum."""
    return ~ref_partial(data, initial) & 0xFFFF


def ref_add(a: int, b: int) -> int:
    return fold16(a + b)
