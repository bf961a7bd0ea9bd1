"""The package as the READMEs use it: `import csum` alone, then csum.pcap, csum.scapy and
csum.bench (imported on first use), and every Python block of README.md and python/README.md
run as written. Each runs in a fresh interpreter: the other test modules import the
submodules, which would hide a missing one here."""
import gzip
import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import csum

ROOT = Path(__file__).resolve().parents[2]


def run_python(code, cwd=None):
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_submodules_after_a_plain_import():
    out = run_python("""
import sys, csum
subs = {"csum.pcap", "csum.scapy", "csum.bench"}
assert not subs & set(sys.modules), "import csum imported a submodule"
assert {"pcap", "scapy", "bench", "checksum"} <= set(dir(csum)), dir(csum)  # tab completion
assert not subs & set(sys.modules), "dir(csum) imported a submodule"
assert callable(csum.pcap.verify) and callable(csum.scapy.install) and callable(csum.bench.main)
assert subs <= set(sys.modules) and sys.modules["csum.pcap"] is csum.pcap
assert "scapy" not in sys.modules  # csum.scapy imports scapy only in install()
try:
    csum.no_such_name
except AttributeError as e:
    assert "no_such_name" in str(e), e
else:
    raise AssertionError("csum.no_such_name did not raise AttributeError")
assert not hasattr(csum, "no_such_name")
print("ok")
""")
    assert out == "ok\n"


TYPED_USES = """
import array, gzip, io, mmap, socket, sys
import csum, csum.pcap


def uses(path: str, m: mmap.mmap, s: socket.socket) -> None:
    words = array.array("H", [1, 2])
    csum.checksum(m) + csum.partial(words) + csum.partial_copy(bytearray(4), memoryview(b"a"))
    csum.ipv4_header_batch(m, (20 * i for i in range(4)))  # offsets: an iterable of ints
    # Integers as any object with __index__ (NumPy integers), as the extension takes them.
    class Idx:
        def __index__(self) -> int:
            return 7
    csum.fold(Idx()) + csum.add(Idx(), 1) + csum.block_sub(Idx(), Idx(), Idx()) + csum.unfold(Idx())
    csum.replace_by_diff(Idx(), Idx()) + csum.replace4(Idx(), Idx(), "10.0.0.1")
    csum.tcpudp_v4("10.0.0.1", "10.0.0.2", Idx(), Idx(), Idx()) + csum.checksum(b"", Idx())
    for source in (path, b"", bytearray(), memoryview(b"")):
        csum.pcap.verify(source)
    csum.pcap.verify(m)
    csum.pcap.verify(words)
    csum.pcap.verify(open(path, "rb"))
    csum.pcap.verify(io.BytesIO())
    csum.pcap.verify(gzip.open(path))
    csum.pcap.verify(s.makefile("rb"))
    csum.pcap.verify(sys.stdin.buffer)
    csum.pcap.fix(m, path)
    csum.pcap.fix(path, io.BytesIO())
    csum.pcap.fix(path, gzip.open(path + ".gz", "wb"))
    csum.pcap.fix(path, sys.stdout.buffer)
"""


def test_type_information_takes_every_documented_argument(tmp_path):
    """The stubs and csum.pcap's annotations accept what the docstrings say the functions take
    (mmap, array, gzip.open(), ...): mypy finds nothing in calls with each."""
    mypy = pytest.importorskip("mypy.api")
    (tmp_path / "uses.py").write_text(TYPED_USES)
    out, err, status = mypy.run([str(tmp_path / "uses.py"), "--strict",
                                 "--cache-dir", str(tmp_path / "mypy-cache")])
    assert status == 0, out + err


def test_package_source_is_strictly_typed(tmp_path):
    """The package's own modules pass `mypy --strict`, as its users' code is asked to: a type
    error inside csum.pcap (an Optional passed where a dict is needed) is a bug a user's
    checker cannot see, since py.typed makes it trust the annotations."""
    mypy = pytest.importorskip("mypy.api")
    pytest.importorskip("scapy")  # csum.scapy and csum.bench import it: without it, unresolved
    out, err, status = mypy.run(["-p", "csum", "--strict",
                                 "--cache-dir", str(tmp_path / "mypy-cache")])
    assert status == 0, out + err


def test_stubs_agree_with_the_runtime(tmp_path):
    """mypy's stubtest: _csum.pyi gives each function of the extension the parameters (names,
    kinds, defaults) its signature has at run time (help() shows that one), and nothing the
    module lacks. The extension alone: the pure-Python modules are their own stubs (mypy
    --strict above), and stubtest takes their typing imports for stubs to check (under 3.9)."""
    pytest.importorskip("mypy.stubtest")
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "csum._csum", "--concise"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def one_udp_capture():
    """A classic pcap of one Ethernet/IPv4/UDP frame whose UDP checksum is wrong."""
    udp = bytes.fromhex("d43100350010dead68656c6c6f210a0a")
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0x4000, 64, 17, 0,
                               bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])))
    ip[10:12] = struct.pack("!H", csum.ipv4_header(ip))
    frame = bytes(6) + bytes([2, 0, 0, 0, 0, 1]) + b"\x08\x00" + ip + udp
    return (struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1) +
            struct.pack("<IIII", 1, 0, len(frame), len(frame)) + frame)


@pytest.mark.parametrize("readme", ["README.md", "python/README.md"])
def test_readme_python_blocks_run_as_written(readme, tmp_path):
    pytest.importorskip("scapy")
    import csum.pcap
    if not csum.pcap.compressions().get("gzip"):
        pytest.skip("this build reads no gzip captures (zlib was not found)")
    blocks = re.findall(r"^```python\n(.*?)^```$", (ROOT / readme).read_text(), re.S | re.M)
    assert blocks, f"no Python block in {readme}"
    capture = one_udp_capture()
    (tmp_path / "capture.pcap").write_bytes(capture)
    (tmp_path / "capture.pcapng.gz").write_bytes(gzip.compress(capture))
    (tmp_path / "big.bin").write_bytes(bytes(range(256)) * 4096)
    for code in blocks:
        run_python(code, cwd=tmp_path)


def test_readme_benchmark_block_is_its_raw_results_reported():
    """The README's `python -m csum.bench` block is what --from-json makes of the raw results
    it links to, committed under docs/results/: no figure in it is typed by hand, and none is
    left from another run."""
    pytest.importorskip("scapy")
    from csum import bench
    doc = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = bench.readme_block_in(doc, "README.md")
    m = re.search(r"^Raw results: \[`([^`]+)`\]", doc[start:end], re.M)
    assert m, "the README's benchmark block names no raw results"
    if not (ROOT / "docs" / "results").is_dir():
        pytest.skip("no docs/results/ here (an sdist leaves the raw results out)")
    result = json.loads((ROOT / m.group(1)).read_text())
    assert doc[start:end] == bench.readme_block(bench.report(result), m.group(1))
