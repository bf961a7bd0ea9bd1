"""Threads calling csum at once get right answers, and long calls let other threads run."""
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import csum
from csum import _csum
from reference import ref_checksum


def test_concurrent_calls_are_correct():
    rng = random.Random(7)
    # Sizes on both sides of the GIL threshold.
    buffers = [rng.randbytes(n) for n in (20, 1500, 65536, 300_000, 1 << 20)]
    expected = [ref_checksum(b) for b in buffers[:3]] + [csum.checksum(bytes(b)) for b in buffers[3:]]

    def work(i):
        bad = 0
        for k in range(200):
            j = (i + k) % len(buffers)
            bad += csum.checksum(buffers[j]) != expected[j]
            bad += csum.partial(memoryview(buffers[j])[1:]) != csum.partial(bytes(buffers[j][1:]))
        return bad

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert sum(pool.map(work, range(8))) == 0


def _steps_while_summing(size):
    """How many loop steps this thread makes while another one is inside csum.checksum."""
    data = bytes(size)
    entered, done = threading.Event(), threading.Event()

    def summer():
        entered.set()
        csum.checksum(data)
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1.0)  # no forced switch: only a released GIL lets us run
    try:
        t = threading.Thread(target=summer)
        t.start()
        entered.wait()
        steps = 0
        while not done.is_set():
            steps += 1
        t.join()
    finally:
        sys.setswitchinterval(old)
    return steps


def test_large_calls_release_the_gil():
    size = 512 << 20  # zero pages: a call of some milliseconds
    assert size >= _csum._gil_threshold() == _csum._gil_threshold(None)  # None only reads
    assert _steps_while_summing(size) > 1000
    saved = _csum._gil_threshold(1 << 62)  # control: with the GIL held, we cannot run
    try:
        assert _steps_while_summing(size) < 1000
    finally:
        _csum._gil_threshold(saved)
