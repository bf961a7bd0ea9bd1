"""Ctrl-C during csum.pcap.verify() and fix(): the walk runs in C with the GIL released, and
still stops within a fraction of a second with the usual KeyboardInterrupt (or whatever a
signal handler raised), fix() leaving no temporary file and its output untouched; a handler
that raises nothing lets the walk go on.

Each case runs in a child interpreter that a real SIGINT is sent to, on inputs that would keep
the walk busy far longer than the test waits: a large gzip capture (a path, read by the C code
itself), a FIFO fed slowly (the C code blocked in read(2)), a slow file object (fed through a
pipe by a thread, as any file object is) and one that stops sending (its thread stuck in
read(), which nothing interrupts)."""
import os
import signal
import struct
import subprocess
import sys
import textwrap
import time

import pytest

import csum.pcap

BOUND = 2.0
"""Seconds from SIGINT to the child's exit, at most (a shared VM: it takes ~0.1 s)."""


def ipv4_sum(header):
    s = sum(struct.unpack(f"!{len(header) // 2}H", header))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def record():
    """A pcap record: Ethernet, IPv4 with a right header checksum, UDP without a checksum."""
    udp = struct.pack("!HHHH", 1000, 2000, 8 + 64, 0) + bytes(64)
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0, 64, 17, 0,
                               bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])))
    ip[10:12] = struct.pack("!H", ipv4_sum(bytes(ip)))
    frame = b"\x02" * 6 + b"\x04" * 6 + b"\x08\x00" + bytes(ip) + udp
    return struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame


HEADER = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)
RECORD = record()

# The child: SOURCE is built by the case's code, then verify() or fix() is called; it prints
# "ready" just before, and after the exception what it was and what fix() left.
CHILD = """
import os, signal, sys, threading, time, csum.pcap
HEADER, RECORD, TMP = {header!r}, {record!r}, {tmp!r}
OUT = os.path.join(TMP, "out", "fixed.pcap")

class Slow:
    '''An endless capture, 64 KiB every 20 ms (a slow socket).'''
    def __init__(self):
        self.head = HEADER
    def read(self, n):
        time.sleep(0.02)
        chunk, self.head = self.head + RECORD * (65536 // len(RECORD)), b""
        return chunk

class Stalled:
    '''A capture's header, then nothing for a minute (a socket whose peer went quiet).'''
    def __init__(self):
        self.head = HEADER
    def read(self, n):
        if not self.head:
            time.sleep(60)
        chunk, self.head = self.head, b""
        return chunk

def fifo():
    '''A FIFO that a thread fills slowly, for ever (until nobody reads it).'''
    path = os.path.join(TMP, "fifo")
    os.mkfifo(path)
    def feed():
        try:
            with open(path, "wb", buffering=0) as f:
                f.write(HEADER)
                while True:
                    f.write(RECORD * 64)
                    time.sleep(0.02)
        except BrokenPipeError:
            pass
    threading.Thread(target=feed, daemon=True).start()
    return path

{setup}
print("ready", flush=True)
started = time.monotonic()
try:
    {call}
    print("returned", flush=True)
except BaseException as e:
    left = sorted(os.listdir(os.path.join(TMP, "out")))
    print(type(e).__name__, sys.exc_info()[0] is type(e), left, flush=True)
    if os.path.exists(OUT):
        with open(OUT, "rb") as f:
            print("out", f.read(), flush=True)
# Nothing left behind: another call goes through, no exception pending.
r = csum.pcap.verify(HEADER + RECORD * 3)
print("after", r.packets, r.ok, sys.exc_info()[0], flush=True)
"""


def run_child(tmp_path, setup, call):
    """Start the child, send it SIGINT half a second after it starts the walk: its output and
    how long it took to exit after the signal (None: not within BOUND, killed)."""
    (tmp_path / "out").mkdir()
    script = CHILD.format(header=HEADER, record=RECORD, tmp=str(tmp_path),
                          setup=textwrap.dedent(setup), call=call)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n", child.stderr.read()
        time.sleep(0.5)
        assert child.poll() is None, child.communicate()
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        try:
            child.wait(timeout=BOUND)
            took = time.monotonic() - sent
        except subprocess.TimeoutExpired:
            took = None
    finally:
        if child.poll() is None:
            child.kill()
        out, err = child.communicate()
    return took, out, err


@pytest.fixture(scope="module")
def big_gzip(tmp_path_factory):
    """A gzip capture of 10 GiB once decompressed (36 MB on disk): gzip members of 1 MiB of
    records each, that the walk would take several seconds over (zlib inflates at 1-2 GB/s)."""
    if "gzip" not in csum.pcap.compressions():
        pytest.skip("this build reads no gzip captures")
    import gzip
    path = tmp_path_factory.mktemp("big") / "big.pcap.gz"
    member = gzip.compress(RECORD * ((1 << 20) // len(RECORD)), compresslevel=9)
    with open(path, "wb") as f:
        f.write(gzip.compress(HEADER))
        for _ in range(10240):
            f.write(member)
    return path


CASES = {
    "verify-big-gzip-path": ("SOURCE = {big!r}", "csum.pcap.verify(SOURCE)"),
    "fix-big-gzip-path": ("SOURCE = {big!r}", "csum.pcap.fix(SOURCE, OUT + '.gz')"),
    "verify-slow-fifo": ("SOURCE = fifo()", "csum.pcap.verify(SOURCE)"),
    "fix-slow-fifo": ("SOURCE = fifo()", "csum.pcap.fix(SOURCE, OUT)"),
    "verify-slow-file-object": ("SOURCE = Slow()", "csum.pcap.verify(SOURCE)"),
    "verify-stalled-file-object": ("SOURCE = Stalled()", "csum.pcap.verify(SOURCE)"),
    "fix-slow-file-object-over-out": (
        "SOURCE = Slow()\nwith open(OUT, 'wb') as f: f.write(b'before')",
        "csum.pcap.fix(SOURCE, OUT)"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_stops_the_walk_promptly(case, tmp_path, request):
    setup, call = CASES[case]
    big = str(request.getfixturevalue("big_gzip")) if "gzip" in case else None
    took, out, err = run_child(tmp_path, setup.format(big=big), call)
    assert took is not None, f"no exit within {BOUND} s of SIGINT: {out!r} {err!r}"
    assert took < BOUND
    lines = out.splitlines()
    # The usual KeyboardInterrupt, and fix() left nothing in OUT's directory but what was there.
    before = ["fixed.pcap"] if "over-out" in case else []
    assert lines[0] == f"KeyboardInterrupt True {before!r}", (out, err)
    if "over-out" in case:
        assert lines[1] == "out b'before'", out
    assert lines[-1] == "after 3 True None", (out, err)
    assert "Traceback" not in err, err


class Alarm(Exception):
    pass


def test_a_signal_handler_s_own_exception_stops_the_walk(tmp_path):
    """Whatever the handler raises comes out of verify(), within a fraction of a second."""
    class Slow:
        def __init__(self):
            self.chunks = [HEADER] + [RECORD * 500] * 200  # 10 s at 50 ms a chunk

        def read(self, n):
            time.sleep(0.05)
            return self.chunks.pop(0) if self.chunks else b""

    def alarm(signum, frame):
        raise Alarm()

    old = signal.signal(signal.SIGALRM, alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        start = time.monotonic()
        with pytest.raises(Alarm):
            csum.pcap.fix(Slow(), tmp_path / "out.pcap")
        assert time.monotonic() - start < 0.3 + BOUND
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert os.listdir(tmp_path) == []


def test_a_handler_that_raises_nothing_lets_the_walk_go_on():
    """A signal whose handler returns (SIGALRM every 10 ms here) changes nothing."""
    class Slow:
        def __init__(self):
            self.chunks = [HEADER] + [RECORD * 100] * 20

        def read(self, n):
            time.sleep(0.01)
            return self.chunks.pop(0) if self.chunks else b""

    calls = []
    old = signal.signal(signal.SIGALRM, lambda *a: calls.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
        r = csum.pcap.verify(Slow())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert r.ok and r.packets == 2000 and calls
