"""csum.pcap's inputs and outputs: paths, bytes-like objects and file objects (through a pipe,
as `csum pcap verify -` reads standard input), gzip and zstd captures, fix into a file object,
errors, threads, and the interpreter left as it was (signal handlers, umask, file
descriptors, nothing printed on the process's standard output or error)."""
import array
import errno
import gzip
import io
import json
import mmap
import os
import pathlib
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import csum.pcap
from csum.pcap import PcapError


def cli_json_stdin(cli, data, *options):
    """`csum pcap verify --json -` with data on standard input."""
    r = subprocess.run([cli, "pcap", "verify", "--json", *options, "-"], input=data,
                       capture_output=True)
    return r.returncode, json.loads(r.stdout)


def cli_fix_stdio(cli, data, *options):
    """`csum pcap fix - -`: the fixed capture."""
    r = subprocess.run([cli, "pcap", "fix", *options, "-", "-"], input=data, capture_output=True,
                       check=True)
    return r.stdout


def capture_paths(corpus):
    return [corpus["dir"] / row[1] for row in corpus["manifest"] if row[0] == "capture"
            and len(row) == 3]


@pytest.fixture(scope="module")
def bulk(pcap_corpus, tmp_path_factory):
    """A capture of several MiB: many times the pipe's capacity."""
    path = tmp_path_factory.mktemp("bulk") / "bulk.pcap"
    subprocess.run([pcap_corpus["gen"], "--bulk", str(path), "6", "5"], check=True)
    return path


def open_fds():
    return sorted(os.listdir("/proc/self/fd"))


class Unseekable(io.RawIOBase):
    """A stream that can only be read, a few bytes at a time (as a socket)."""

    def __init__(self, data, step=1000):
        self.data, self.pos, self.step = data, 0, step

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.step, len(self.data) - self.pos)
        b[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


# ---- every kind of input gives the same document as the CLI on standard input ---------------

def test_bytes_and_file_objects_equal_the_cli_on_stdin(csum_cli, pcap_corpus, tmp_path):
    for path in capture_paths(pcap_corpus)[:12] + [pcap_corpus["dir"] / "multi.pcapng"]:
        data = path.read_bytes()
        rc, doc = cli_json_stdin(csum_cli, data, "--all")
        assert doc["file"] == "-"
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            sources = [data, bytearray(data), memoryview(data), m, io.BytesIO(data),
                       io.BufferedReader(Unseekable(data))]
            for source in sources:
                result = csum.pcap.verify(source, checks="all")
                assert result.document == doc and result.path is None, type(source)
                assert result.ok == (rc == 0)
        with open(path, "rb") as f:
            assert csum.pcap.verify(f, checks="all").document == doc
            assert f.read() == b""  # read to its end
        path_doc = csum.pcap.verify(path, checks="all").document
        assert dict(path_doc, file="-") == doc


def test_a_file_object_is_read_from_its_position(pcap_corpus):
    path = pcap_corpus["dir"] / "clean.pcap"
    data = path.read_bytes()
    with open(path, "rb") as f:
        f.read(24)
        with pytest.raises(PcapError) as info:  # no file header there
            csum.pcap.verify(f)
    assert info.value.offset == 0 and info.value.path is None and info.value.kind == "malformed"
    assert str(info.value).startswith("malformed capture at byte offset 0: ")
    prefixed = io.BytesIO(b"junk" + data)
    prefixed.read(4)
    assert csum.pcap.verify(prefixed).document == csum.pcap.verify(data).document


def test_bytes_are_a_capture_not_a_file_name(pcap_corpus):
    path = pcap_corpus["dir"] / "clean.pcap"
    with pytest.raises(PcapError):  # os.fsencode(path) is not a capture
        csum.pcap.verify(os.fsencode(str(path)))
    assert csum.pcap.verify(str(path)).packets == csum.pcap.verify(path.read_bytes()).packets


def test_memoryview_slices_and_other_formats(pcap_corpus):
    data = (pcap_corpus["dir"] / "clean.pcap").read_bytes()
    want = csum.pcap.verify(data).document
    padded = bytearray(b"\0" * 3 + data + b"\0" * 5)
    assert csum.pcap.verify(memoryview(padded)[3:3 + len(data)]).document == want
    if len(data) % 4 == 0:
        assert csum.pcap.verify(array.array("I", data)).document == want
    with pytest.raises(BufferError):
        csum.pcap.verify(memoryview(padded)[::2])
    import ctypes  # Python objects: their addresses are no capture (as csum.checksum refuses)
    with pytest.raises(TypeError, match="not a buffer of Python objects"):
        csum.pcap.verify((ctypes.py_object * 2)(1, 2))
    np = pytest.importorskip("numpy")
    for objects in (np.array([1, "a"], dtype=object), np.zeros(2, dtype=[("n", "i4"), ("o", "O")])):
        with pytest.raises(TypeError, match="not a buffer of Python objects"):
            csum.pcap.fix(objects, io.BytesIO())
    assert csum.pcap.verify(np.frombuffer(data, np.uint8)).document == want
    for empty in (np.zeros((0, 3), np.uint8), np.zeros((2, 0), np.uint16)):  # as b"" reads
        for call in (csum.pcap.verify, lambda source: csum.pcap.fix(source, io.BytesIO())):
            with pytest.raises(PcapError, match="file of 0 bytes is too short"):
                call(empty)


def test_a_buffer_is_let_go_even_while_the_error_is_alive(pcap_corpus, tmp_path):
    """verify() and fix() read a bytes-like object through views of it, released when they
    return or raise: inside the except block, and while the exception is kept, a bytearray
    can grow (to retry with more of the capture), an mmap can be closed, an array extended."""
    data = (pcap_corpus["dir"] / "clean.pcap").read_bytes()
    calls = (csum.pcap.verify, lambda source: csum.pcap.fix(source, io.BytesIO()),
             lambda source: csum.pcap.fix(source, tmp_path))  # IsADirectoryError, before a walk
    for call in calls:
        buf = bytearray(b"\x01\x02\x03\x04")  # not a capture
        with pytest.raises(OSError) as info:
            call(buf)
        buf[:] = data  # resized while info holds the exception
        assert csum.pcap.verify(buf).ok
        with mmap.mmap(-1, 64) as m:
            with pytest.raises(OSError) as info:
                call(m)
            m.close()
        words = array.array("I", [1, 2])  # read through a cast to bytes
        with pytest.raises(OSError) as info:
            call(words)
        words.append(3)


def test_big_streams_through_the_pipe(csum_cli, bulk):
    data = bulk.read_bytes()
    assert len(data) > 6 << 20
    rc, doc = cli_json_stdin(csum_cli, data)
    assert rc == 0
    for source in (data, io.BufferedReader(Unseekable(data, 70000)), bulk):
        result = csum.pcap.verify(source)
        assert dict(result.document, file="-") == doc
        assert result.ok and result.packets > 4000 and result.bytes == len(data)


def test_an_early_error_does_not_wait_for_the_rest(pcap_corpus):
    """A malformed start in a large buffer or stream: the error, without reading it all, and
    no descriptor or thread left behind."""
    before, threads = open_fds(), threading.active_count()
    garbage = b"\x01\x02\x03\x04" + os.urandom(1024) * (16 << 10)  # 16 MiB
    for source in (garbage, io.BytesIO(garbage)):
        with pytest.raises(PcapError) as info:
            csum.pcap.verify(source)
        assert info.value.offset == 0
        with pytest.raises(PcapError):
            csum.pcap.fix(source, io.BytesIO())
    if isinstance(source, io.BytesIO):
        assert source.tell() < len(garbage)  # not read to its end
    assert open_fds() == before and threading.active_count() == threads


def test_errors_raised_by_the_source_or_dst_come_through(pcap_corpus):
    data = (pcap_corpus["dir"] / "ethernet-le-usec.pcap").read_bytes()

    class Failing(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise ConnectionResetError("the peer went away")

    with pytest.raises(ConnectionResetError):
        csum.pcap.verify(io.BufferedReader(Failing()))

    class Full(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space left"):
        csum.pcap.fix(data, Full())
    with pytest.raises(TypeError, match="binary mode"):
        csum.pcap.verify(io.StringIO("text"))
    with pytest.raises(TypeError, match="binary"):
        csum.pcap.fix(data, io.StringIO())
    with pytest.raises(TypeError, match="bytes-like object or a binary file object"):
        csum.pcap.verify(12)


# ---- compressed captures ----------------------------------------------------------------------

def compressed(path, kind, tmp_path):
    data = path.read_bytes()
    if kind == "gzip":
        return gzip.compress(data)
    if not shutil.which("zstd"):
        pytest.skip("SKIPPED: the zstd program is not installed (to write a .zst capture)")
    return subprocess.run(["zstd", "-q", "-c"], input=data, capture_output=True,
                          check=True).stdout


@pytest.mark.parametrize("kind", ["gzip", "zstd"])
def test_compressed_captures(csum_cli, pcap_corpus, tmp_path, kind):
    if csum.pcap.compressions()[kind] is None:
        pytest.skip(f"SKIPPED: this build reads no {kind} (its library was not found)")
    src = pcap_corpus["dir"] / "tunnel-vxlan.pcap"
    data = compressed(src, kind, tmp_path)
    zpath = tmp_path / (src.name + (".gz" if kind == "gzip" else ".zst"))
    zpath.write_bytes(data)
    plain = csum.pcap.verify(src, checks="all")
    for source in (zpath, data, io.BytesIO(data)):
        result = csum.pcap.verify(source, checks="all")
        assert result.compression == kind and result.checks == plain.checks
        assert result.summary == plain.summary
    rc, doc = cli_json_stdin(csum_cli, data, "--all")
    assert csum.pcap.verify(data, checks="all").document == doc
    # fix keeps the compression, byte for byte what the CLI writes
    out = tmp_path / ("fixed-" + zpath.name)
    result = csum.pcap.fix(zpath, out)
    theirs = tmp_path / ("cli-" + zpath.name)
    subprocess.run([csum_cli, "pcap", "fix", str(zpath), str(theirs)], check=True,
                   capture_output=True)
    assert out.read_bytes() == theirs.read_bytes()
    assert result.compression == kind and result.fixed
    after = csum.pcap.verify(out)
    assert after.compression == kind and not after.bad
    buf = io.BytesIO()
    csum.pcap.fix(data, buf)
    assert buf.getvalue() == cli_fix_stdio(csum_cli, data)


def test_compressions_are_what_the_cli_says(csum_cli):
    text = subprocess.run([csum_cli, "pcap", "--help"], capture_output=True, text=True).stdout
    lines = text.splitlines()
    at = lines.index("Compressed captures in this build:")
    listed = [l.strip() for l in lines[at + 1:] if l.startswith("  ")]  # one line per format
    for name, library in csum.pcap.compressions().items():
        assert (f"{name}: yes ({library})" if library else f"{name}: no") in listed


# ---- fix's inputs and outputs -----------------------------------------------------------------

def test_fix_from_bytes_and_into_file_objects(csum_cli, pcap_corpus, tmp_path):
    for src in capture_paths(pcap_corpus)[:10] + [pcap_corpus["dir"] / "tunnel-icmp-error.pcap"]:
        data = src.read_bytes()
        want = cli_fix_stdio(csum_cli, data)
        by_path = csum.pcap.fix(src, tmp_path / "a.pcap")
        assert (tmp_path / "a.pcap").read_bytes() == want
        buf = io.BytesIO()
        from_bytes = csum.pcap.fix(data, buf)
        assert buf.getvalue() == want
        assert from_bytes.fixed == by_path.fixed and from_bytes.dst is None
        assert from_bytes.src is None and from_bytes.document["file"] == "-"
        csum.pcap.fix(io.BytesIO(data), tmp_path / "b.pcap")
        assert (tmp_path / "b.pcap").read_bytes() == want
        with open(tmp_path / "c.pcap", "wb") as f:
            csum.pcap.fix(io.BufferedReader(Unseekable(data)), f)
        assert (tmp_path / "c.pcap").read_bytes() == want


def test_fix_keeps_the_mode_and_honours_the_umask(pcap_corpus, tmp_path):
    src = tmp_path / "src.pcap"
    shutil.copyfile(pcap_corpus["dir"] / "ethernet-le-usec.pcap", src)
    os.chmod(src, 0o604)
    csum.pcap.fix(src, tmp_path / "same-mode.pcap")
    assert stat.S_IMODE(os.stat(tmp_path / "same-mode.pcap").st_mode) == 0o604
    old = os.umask(0o027)
    try:
        csum.pcap.fix(src.read_bytes(), tmp_path / "umask.pcap")  # a stream: a new file's mode
        assert os.umask(0o027) == 0o027  # the process's umask was not changed
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "umask.pcap").st_mode) == 0o640


def test_fix_refusals_leave_nothing_behind(pcap_corpus, tmp_path):
    src = pcap_corpus["dir"] / "ethernet-le-usec.pcap"
    with pytest.raises(ValueError, match="refusing to overwrite the input"):
        csum.pcap.fix(src, src)
    with pytest.raises(ValueError, match="no dst"):
        csum.pcap.fix(src)
    with pytest.raises(IsADirectoryError):
        csum.pcap.fix(src, tmp_path)
    with pytest.raises(FileNotFoundError) as info:
        csum.pcap.fix(src, tmp_path / "no-such-dir" / "out.pcap")
    assert info.value.filename == str(tmp_path / "no-such-dir" / "out.pcap")
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        with pytest.raises(PermissionError):
            csum.pcap.fix(src, ro / "out.pcap")
    bad = pcap_corpus["dir"] / "bad-ng-caplen.pcapng"
    out = tmp_path / "out.pcap"
    with pytest.raises(PcapError) as info:
        csum.pcap.fix(bad, out)
    assert info.value.offset > 0 and info.value.result.packets == 1
    assert not out.exists()
    # Cut short (interrupted): the whole records are written, and the result says where.
    cut = pcap_corpus["dir"] / "bad-pcap-data-cut.pcap"
    result = csum.pcap.fix(cut, out)
    assert result.cut_short is not None and result.cut_short.offset == 208
    keep = next(int(r[3]) for r in pcap_corpus["manifest"] if r[:2] == ["cut", cut.name])
    assert out.read_bytes() == cut.read_bytes()[:keep]
    out.unlink()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".csum-tmp")]
    with pytest.raises(FileNotFoundError):
        csum.pcap.fix(tmp_path / "missing.pcap", out)


def test_file_errors(pcap_corpus, tmp_path):
    with pytest.raises(FileNotFoundError):
        csum.pcap.verify(tmp_path / "missing.pcap")
    with pytest.raises(IsADirectoryError):
        csum.pcap.verify(tmp_path)
    empty = tmp_path / "empty.pcap"
    empty.write_bytes(b"")
    for source in (empty, b"", io.BytesIO()):
        with pytest.raises(PcapError) as info:
            csum.pcap.verify(source)
        assert info.value.offset == 0 and info.value.result.packets == 0



def test_a_fifo_is_not_opened_before_the_walk(pcap_corpus, tmp_path):
    """A FIFO named as the capture is opened once, by the walk: a reader that came and went
    before (the old check that the file can be read) released its writer's open(), and that
    writer's next write could fail with EPIPE (tcpdump -w FIFO would die of SIGPIPE). Here a
    writer waits in open() while verify() starts: it may return only once the walk reads, and
    then every packet it writes is read."""
    capture = (pcap_corpus["dir"] / "ethernet-le-usec.pcap").read_bytes()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    opened, wrote = threading.Event(), []
    def writer():
        with open(fifo, "wb", buffering=0) as f:  # blocks until a reader opens the FIFO
            opened.set()
            time.sleep(0.2)  # a reader that came and went is gone by now
            try:
                wrote.append(f.write(capture))
            except BrokenPipeError as e:
                wrote.append(e)
    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        time.sleep(0.1)  # the writer is in open()
        with pytest.raises(FileNotFoundError):
            csum.pcap.verify(tmp_path / "missing")
        # The check alone, as verify() makes it before the walk: no reader may come of it.
        assert csum.pcap._readable(fifo) == str(fifo)
        assert not opened.wait(0.3), "checking the FIFO opened it: its writer's open() returned"
        result = csum.pcap.verify(fifo)
    finally:
        if not opened.is_set():  # a failure above: release the writer's open()
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        thread.join(5)
    assert wrote == [len(capture)]
    assert result.packets == csum.pcap.verify(capture).packets > 0
    os.chmod(fifo, 0)
    if os.geteuid() != 0:
        with pytest.raises(PermissionError):
            csum.pcap.verify(fifo)

def test_option_errors(pcap_corpus):
    src = pcap_corpus["dir"] / "clean.pcap"
    for bad, exc in (({"checks": "every"}, ValueError), ({"vxlan_ports": [0]}, ValueError),
                     ({"geneve_ports": 65536}, ValueError), ({"vxlan_ports": list(range(1, 10))}, ValueError),
                     ({"vxlan_ports": ["4789"]}, TypeError), ({"geneve_ports": True}, TypeError),
                     ({"vxlan_ports": 4789.0}, TypeError)):
        with pytest.raises(exc):
            csum.pcap.verify(src, **bad)
    assert csum.pcap.verify(src, vxlan_ports=range(1, 9), geneve_ports=(6082,)).ok


def test_paths_that_look_like_options(pcap_corpus, tmp_path, monkeypatch):
    src = pcap_corpus["dir"] / "clean.pcap"
    monkeypatch.chdir(tmp_path)
    for name in ("-v.pcap", "-", "--all"):
        (tmp_path / name).write_bytes(src.read_bytes())
        assert csum.pcap.verify(name).packets == csum.pcap.verify(src).packets
    csum.pcap.fix("-", "--json")
    assert (tmp_path / "--json").read_bytes() == src.read_bytes()


def test_file_names_that_are_not_utf8(csum_cli, pcap_corpus, tmp_path):
    """Any name os.fsencode() takes: read and written, and the document's file is
    os.fsdecode(name), as `csum pcap verify --json` gives it (bytes that are not UTF-8 as
    lone surrogates)."""
    if sys.getfilesystemencoding().lower().replace("-", "") != "utf8":
        pytest.skip(f"SKIPPED: the file system encoding is {sys.getfilesystemencoding()}")
    data = (pcap_corpus["dir"] / "tunnel-vxlan.pcap").read_bytes()
    raw = os.fsencode(tmp_path) + b"/bad\xffname\xed\xa0\x80.pcap"
    with open(raw, "wb") as f:
        f.write(data)
    name = os.fsdecode(raw)
    want = dict(csum.pcap.verify(data, checks="all").document, file=name)
    for path in (name, pathlib.Path(name)):
        result = csum.pcap.verify(path, checks="all")
        assert result.document == want and result.path == name
    r = subprocess.run([csum_cli, "pcap", "verify", "--json", "--all", raw], capture_output=True)
    assert json.loads(r.stdout.decode("utf-8")) == want
    dst = os.fsdecode(os.fsencode(tmp_path) + b"/fixed\xfe.pcap")
    fixed = csum.pcap.fix(name, dst)
    assert fixed.document["file"] == name and fixed.dst == dst and fixed.fixed
    with open(os.fsencode(dst), "rb") as f:
        assert f.read() == cli_fix_stdio(csum_cli, data)
    with pytest.raises(FileNotFoundError) as info:
        csum.pcap.verify(name + ".missing")
    assert info.value.filename == name + ".missing"


def test_errors_name_their_real_cause(pcap_corpus, tmp_path, monkeypatch):
    """errno comes from the command only when a system call failed it, not as a run that went
    through left it; a document that does not parse is reported as that, not as an OSError."""
    src = str(pcap_corpus["dir"] / "clean.pcap")
    status, err_no = csum._csum._pcap(["verify", "--json", src])[:2]
    assert status == 0 and err_no == 0
    status, err_no = csum._csum._pcap(["fix", src, str(tmp_path / "out.pcap")])[:2]
    assert status == 0 and err_no == 0
    status, err_no = csum._csum._pcap(["verify", "--json", str(tmp_path / "missing")])[:2]
    assert status == 2 and err_no == errno.ENOENT

    real = csum._csum._pcap

    def cut_document(args, *fds):  # as if the document had been printed wrong, errno left set
        status, _, usage, out, err, doc = real(args, *fds)
        return status, errno.ENOENT, usage, out[:-9], err, doc[:-9]

    monkeypatch.setattr(csum._csum, "_pcap", cut_document)
    with pytest.raises(RuntimeError, match="exited 0, but its JSON document does not parse"):
        csum.pcap.verify(src)
    with pytest.raises(RuntimeError, match="exited 0, but its JSON document does not parse"):
        csum.pcap.fix(src, tmp_path / "out.pcap")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_an_output_that_cannot_be_written_is_named_not_the_capture(pcap_corpus):
    """A fix whose OUT fills up raises the OSError of OUT, not a PcapError that calls a good
    capture malformed at byte offset 0 (the document's error has no offset then)."""
    src = str(pcap_corpus["dir"] / "clean.pcap")
    with pytest.raises(OSError) as caught:
        csum.pcap.fix(src, "/dev/full")
    assert not isinstance(caught.value, PcapError), caught.value
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == "/dev/full"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_an_error_is_read_from_the_document_not_from_stderr(pcap_corpus, tmp_path):
    """Every error of a walked capture comes with the document's error.kind: no text is taken
    for a malformed capture, not even an OUT whose name says "malformed capture at byte
    offset 5: " (here a symbolic link to /dev/full, whose writes fail)."""
    src = str(pcap_corpus["dir"] / "clean.pcap")
    out = tmp_path / "malformed capture at byte offset 5: out.pcap"
    out.symlink_to("/dev/full")
    with pytest.raises(OSError) as caught:
        csum.pcap.fix(src, out)
    assert not isinstance(caught.value, PcapError), caught.value
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(out)


def test_fix_through_symbolic_links(pcap_corpus, tmp_path):
    """dst a symbolic link, as `csum pcap fix` takes it (cli/file_io.c): a dangling one's file
    is created and the link stays (the link was replaced by the capture); a loop is ELOOP
    before anything is written (the last link was replaced)."""
    src = str(pcap_corpus["dir"] / "clean.pcap")
    plain = tmp_path / "plain.pcap"
    csum.pcap.fix(src, plain)
    link = tmp_path / "link.pcap"
    link.symlink_to("new.pcap")
    csum.pcap.fix(src, link)
    assert link.is_symlink()
    assert (tmp_path / "new.pcap").read_bytes() == plain.read_bytes()
    loop = tmp_path / "loop.pcap"
    loop.symlink_to("loop.pcap")
    with pytest.raises(OSError) as caught:
        csum.pcap.fix(src, loop)
    assert caught.value.errno == errno.ELOOP and caught.value.filename == str(loop)
    assert loop.is_symlink()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".csum-tmp-")]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a link to another user")
def test_fix_refuses_another_users_symbolic_link(pcap_corpus, tmp_path):
    """Another user's link is not followed (one in /tmp may name /etc/shadow, over which the
    capture was renamed): an OSError that says why, and nothing replaced."""
    src = str(pcap_corpus["dir"] / "clean.pcap")
    target = tmp_path / "shadow"
    target.write_text("secret\n")
    link = tmp_path / "planted.pcap"
    link.symlink_to("shadow")
    os.lchown(link, 65534, -1)
    with pytest.raises(OSError, match="symbolic link owned by another user"):
        csum.pcap.fix(src, link)
    assert target.read_text() == "secret\n" and link.is_symlink()


# ---- non-blocking file objects ---------------------------------------------------------------
# read() returning None and write() returning None or raising BlockingIOError mean "not now",
# not the end of the capture nor "all written": they are waited for, on the descriptor when
# there is one, without spinning, and given up only when the command failed.

def nonblocking_pipe(end):
    """A pipe whose read (end "r") or write (end "w") end does not block."""
    r, w = os.pipe()
    os.set_blocking(r if end == "r" else w, False)
    return r, w


def cpu_seconds():
    """CPU time of the whole process (every thread): a busy wait shows there."""
    t = os.times()
    return t.user + t.system


def feed_slowly(w, data, step, pause=0.0, stall_at=None, stall=0.0):
    """A thread writing data into the pipe end w (closed at the end) step bytes at a time."""

    def run():
        try:
            for start in range(0, len(data), step):
                if stall_at is not None and start <= stall_at < start + step:
                    time.sleep(stall)
                view = memoryview(data)[start:start + step]
                while view:
                    view = view[os.write(w, view):]
                if pause:
                    time.sleep(pause)
        finally:
            os.close(w)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def read_slowly(r, step, pause):
    """A thread reading the pipe end r (closed at the end) into a bytearray, slowly."""
    got = bytearray()

    def run():
        try:
            while True:
                time.sleep(pause)
                chunk = os.read(r, step)
                if not chunk:
                    break
                got.extend(chunk)
        finally:
            os.close(r)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, got


@pytest.mark.parametrize("buffering", [0, -1])
def test_verify_from_a_nonblocking_pipe(pcap_corpus, buffering):
    """The writer is slower than the walk: reads find nothing now and then (None), records
    arrive cut; the result is that of the whole capture, not of its first records (nor a
    PcapError for a record cut by the pipe). A pause of the writer is waited out without
    spinning."""
    data = (pcap_corpus["dir"] / "offload.pcap").read_bytes()
    want = csum.pcap.verify(data, checks="all").document
    r, w = nonblocking_pipe("r")
    writer = feed_slowly(w, data, 7001, pause=0.001, stall_at=len(data) // 2, stall=0.5)
    cpu = cpu_seconds()
    with open(r, "rb", buffering=buffering) as f:
        result = csum.pcap.verify(f, checks="all")
    cpu = cpu_seconds() - cpu
    writer.join()
    assert result.document == want and result.cut_short is None
    assert cpu < 0.3, f"{cpu:.2f} s of CPU for a 0.5 s pause: a busy wait"


@pytest.mark.parametrize("buffering", [0, -1])
def test_fix_into_a_nonblocking_pipe_with_a_slow_reader(csum_cli, bulk, buffering):
    """write() returns None (a raw file) or raises BlockingIOError with characters_written (a
    buffered one) while the pipe is full: everything reaches the reader, once, in order, and a
    buffered dst is flushed (its close() then has nothing left that would block)."""
    data = bulk.read_bytes()
    want = cli_fix_stdio(csum_cli, data)
    r, w = nonblocking_pipe("w")
    reader, got = read_slowly(r, 1 << 16, 0.002)
    cpu = cpu_seconds()
    with open(w, "wb", buffering=buffering) as f:
        result = csum.pcap.fix(data, f)
        cpu = cpu_seconds() - cpu
        deadline = time.monotonic() + 10
        while len(got) < len(want) and time.monotonic() < deadline:
            time.sleep(0.01)  # all of it arrives before f is closed: nothing left buffered
        assert len(got) == len(want)
    reader.join()
    assert len(got) == len(want) and got == want
    assert result.dst is None and result.packets > 4000
    assert cpu < 1.5, f"{cpu:.2f} s of CPU: a busy wait"


class Choppy(io.RawIOBase):
    """A non-blocking raw stream without a descriptor: every other write() would block (None),
    the others take at most `step` bytes."""

    def __init__(self, step):
        self.out, self.step, self.calls = bytearray(), step, 0

    def writable(self):
        return True

    def write(self, b):
        self.calls += 1
        if self.calls % 2:
            return None
        n = min(len(b), self.step)
        self.out += b[:n]
        return n


class Backlogged(io.BufferedIOBase):
    """A buffered non-blocking writer without a descriptor: every other write() keeps part of
    the data and raises BlockingIOError saying how much, as io.BufferedWriter does."""

    def __init__(self):
        self.out, self.calls, self.flushes = bytearray(), 0, 0

    def writable(self):
        return True

    def write(self, b):
        self.calls += 1
        if self.calls % 2:
            n = len(b) // 3
            self.out += b[:n]
            raise BlockingIOError(errno.EAGAIN, "would block", n)
        self.out += b
        return len(b)

    def flush(self):
        self.flushes += 1
        if self.flushes == 1:
            raise BlockingIOError(errno.EAGAIN, "would block", 0)


class Uncounting:
    """A writer that is not an io stream and returns None: it wrote everything (as before)."""

    def __init__(self):
        self.out = bytearray()

    def write(self, b):
        self.out += b


class Returning:
    """A writer whose write() returns `value` and writes nothing."""

    def __init__(self, value):
        self.value = value

    def write(self, b):
        return self.value


def test_nonblocking_writers_without_a_descriptor(csum_cli, pcap_corpus):
    data = (pcap_corpus["dir"] / "jumbo.pcap").read_bytes()
    want = cli_fix_stdio(csum_cli, data)
    backlogged = Backlogged()
    for dst in (Choppy(1 << 16), backlogged, Uncounting()):
        csum.pcap.fix(data, dst)
        assert dst.out == want, type(dst).__name__
    assert backlogged.flushes == 2  # flushed, again after its flush would block


def test_none_from_an_object_that_is_not_an_io_stream(csum_cli, pcap_corpus):
    """Such an object has no non-blocking mode to say "not now" with: None from its read() is
    the end of the capture, and from its write() everything written (Uncounting above), as
    before; waiting there would hang on it."""
    data = (pcap_corpus["dir"] / "offload.pcap").read_bytes()

    class Chunks:
        def __init__(self):
            self.chunks = [data[i:i + 5000] for i in range(0, len(data), 5000)][::-1]

        def read(self, size):
            return self.chunks.pop() if self.chunks else None

    assert csum.pcap.verify(Chunks()).document == csum.pcap.verify(data).document


class Stuck(io.RawIOBase):
    """A write() that returns 0 (nothing written) `zeros` times in a row, then takes it all."""

    def __init__(self, zeros):
        self.out, self.zeros = bytearray(), zeros

    def writable(self):
        return True

    def write(self, b):
        if self.zeros:
            self.zeros -= 1
            return 0
        self.out += b
        return len(b)


def test_a_write_that_makes_no_progress_fails(csum_cli, pcap_corpus):
    """fix() looped forever at 100 % CPU on a write() returning 0. A few in a row are waited
    out; more are an OSError that says so, quickly, with no descriptor or thread left."""
    data = (pcap_corpus["dir"] / "offload.pcap").read_bytes()
    dst = Stuck(3)
    csum.pcap.fix(data, dst)
    assert dst.out == cli_fix_stdio(csum_cli, data)
    before, threads = open_fds(), threading.active_count()
    for dst in (Stuck(10 ** 9), Returning(0)):
        start = time.monotonic()
        with pytest.raises(OSError, match=r"write\(\) returned 0 \(nothing written\)"):
            csum.pcap.fix(data, dst)
        assert time.monotonic() - start < 5
    for bad in (-1, 1 << 30, "3", True):
        with pytest.raises(OSError, match="not the number of bytes written"):
            csum.pcap.fix(data, Returning(bad))
    assert open_fds() == before and threading.active_count() == threads


def test_a_failed_command_does_not_wait_for_a_nonblocking_file(bulk, tmp_path):
    """The command fails while the source has nothing to read (its writer is idle, still
    open) or while dst takes nothing (its reader is idle): the error comes at once, not when
    the peer acts, and no descriptor or thread is left."""
    before, threads = open_fds(), threading.active_count()
    # fix() whose OUT cannot be written: the command fails before it reads the source
    r, w = nonblocking_pipe("r")
    start = time.monotonic()
    with open(r, "rb", buffering=0) as f, pytest.raises(FileNotFoundError):
        csum.pcap.fix(f, tmp_path / "no-such-dir" / "out.pcap")
    assert time.monotonic() - start < 5
    os.close(w)
    # A capture malformed past 2 MB, fixed into a pipe nobody reads: the 1 MB of output
    # before the problem (fix writes a record once the window moves past it) fills the pipe,
    # the rest waits in csum.pcap's, the command fails.
    data = bytearray(bulk.read_bytes())
    offset = 24
    while offset < 2_000_000:
        offset += 16 + int.from_bytes(data[offset + 8:offset + 12], "little")
    data[offset + 8:offset + 16] = (0x7ffffff0).to_bytes(4, "little") * 2
    r, w = nonblocking_pipe("w")
    start = time.monotonic()
    try:
        with open(w, "wb", buffering=0) as f, pytest.raises(PcapError) as info:
            csum.pcap.fix(bytes(data), f)
    finally:
        os.close(r)
    assert time.monotonic() - start < 5
    assert info.value.offset == offset + 8
    assert open_fds() == before and threading.active_count() == threads


# ---- the interpreter is left as it was ---------------------------------------------------

def test_nothing_reaches_the_process_streams_or_descriptors(pcap_corpus, tmp_path, capfd):
    before = open_fds()
    src = pcap_corpus["dir"] / "tunnel-vxlan.pcap"
    csum.pcap.verify(src, checks="all")
    csum.pcap.verify(src.read_bytes())
    csum.pcap.fix(src, tmp_path / "out.pcap")
    csum.pcap.fix(src.read_bytes(), io.BytesIO())
    with pytest.raises(PcapError):
        csum.pcap.verify(pcap_corpus["dir"] / "bad-magic.pcap")
    with pytest.raises(PcapError):
        csum.pcap.fix(pcap_corpus["dir"] / "bad-ng-caplen.pcapng", tmp_path / "x.pcap")
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert open_fds() == before


def test_signal_handlers_are_left_alone(pcap_corpus, tmp_path):
    """`csum pcap fix` guards its temporary file with handlers for SIGINT, SIGTERM, SIGHUP and
    SIGPIPE, then resets them to SIG_DFL; inside Python that would take Ctrl-C from the
    interpreter and make a write to a closed pipe fatal. In a fresh interpreter (this one has
    run fix() already), the kernel's dispositions (Python's signal.getsignal() only knows what
    Python set) before and after every kind of fix()."""
    script = f"""
import io, signal, sys, csum.pcap
def state():  # signals 1..31 (glibc uses real-time ones for itself once threads exist)
    with open("/proc/self/status") as f:
        return [(l[:7], int(l[7:], 16) & 0x7fffffff) for l in f
                if l.startswith(("SigIgn:", "SigCgt:"))]
before, handlers = state(), [signal.getsignal(s) for s in range(1, 16)]
src = {str(pcap_corpus["dir"] / "tunnel-vxlan.pcap")!r}
csum.pcap.fix(src, {str(tmp_path / "out.pcap")!r})
csum.pcap.fix(open(src, "rb").read(), io.BytesIO())
csum.pcap.fix(open(src, "rb"), {str(tmp_path / "out2.pcap")!r}, dry_run=True)
try:
    csum.pcap.fix({str(pcap_corpus["dir"] / "bad-ng-caplen.pcapng")!r}, {str(tmp_path / "x.pcap")!r})
except csum.pcap.PcapError:
    pass
after = state()
assert after == before, (before, after)
assert [signal.getsignal(s) for s in range(1, 16)] == handlers
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr


# ---- threads -----------------------------------------------------------------------------

def test_concurrent_verify_and_fix(pcap_corpus, tmp_path):
    paths = capture_paths(pcap_corpus)
    want = [csum.pcap.verify(p, checks="all").document for p in paths]
    fixed = [csum.pcap.fix(p, tmp_path / f"want-{p.name}").fixed for p in paths]

    def work(i):
        p = paths[i % len(paths)]
        doc = csum.pcap.verify(p, checks="all").document
        stream = dict(csum.pcap.verify(io.BytesIO(p.read_bytes()), checks="all").document,
                      file=str(p))
        buf = io.BytesIO()
        f = csum.pcap.fix(p.read_bytes(), buf)
        out = tmp_path / f"t{i}-{p.name}"
        csum.pcap.fix(p, out)
        return doc, stream, f.fixed, buf.getvalue(), out.read_bytes()

    n = len(paths) * 3
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(work, range(n)))
    for i, (doc, stream, f, buf, out) in enumerate(results):
        p = paths[i % len(paths)]
        assert doc == want[i % len(paths)] and stream == doc
        assert f == fixed[i % len(paths)]
        assert buf == out == (tmp_path / f"want-{p.name}").read_bytes()
