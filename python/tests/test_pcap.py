"""csum.pcap gives what `csum pcap verify --json` prints, on the captures csum-pcapgen writes
(every link type and format the library reads, bad and not-checkable checksums, malformed
files) and on randomly damaged copies of them."""
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest

import csum.pcap
from csum.pcap import BadChecksum, PcapError


def cli_verify(cli, path):
    r = subprocess.run([cli, "pcap", "verify", "--json", str(path)], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def captures(corpus):
    return [corpus["dir"] / row[1] for row in corpus["manifest"] if row[0] == "capture"]


def check_same_as_cli(cli, path):
    rc, out, err = cli_verify(cli, path)
    if rc in (0, 1):
        doc = json.loads(out)
        result = csum.pcap.verify(path)
        assert result.document == doc
        assert result.packets == doc["packets"] and result.summary == doc["summary"]
        assert [b._asdict() for b in result.bad] == [
            dict(e, stored=int(e["stored"], 16), computed=int(e["computed"], 16)) for e in doc["bad"]]
        assert result.ok == (rc == 0)
        return result
    with pytest.raises(PcapError) as info:
        csum.pcap.verify(path)
    m = re.search(r"malformed capture at byte offset (\d+): (.*)", err)
    assert m, err
    assert info.value.offset == int(m.group(1)) and info.value.message == m.group(2).strip()
    assert str(info.value) == f"{path}: malformed capture at byte offset {m.group(1)}: {m.group(2).strip()}"
    return None


def test_verify_equals_cli_json(csum_cli, pcap_corpus):
    results = [check_same_as_cli(csum_cli, p) for p in captures(pcap_corpus)]
    assert len(results) >= 10 and all(results)
    assert sum(len(r.bad) for r in results) > 10  # the corpus has bad checksums to find
    assert all(isinstance(b, BadChecksum) for r in results for b in r.bad)


def test_malformed_files_raise_pcaperror_with_the_offset(csum_cli, pcap_corpus):
    rows = [r for r in pcap_corpus["manifest"] if r[0] == "malformed"]
    assert rows
    for _, name, offset in rows:
        path = pcap_corpus["dir"] / name
        with pytest.raises(PcapError) as info:
            csum.pcap.verify(path)
        assert info.value.offset == int(offset), name
        assert isinstance(info.value, OSError) and info.value.path == str(path)
        check_same_as_cli(csum_cli, path)


def test_damaged_captures_never_crash_and_match_the_cli(csum_cli, pcap_corpus, tmp_path):
    sources = captures(pcap_corpus)
    for seed in range(60):
        src = sources[seed % len(sources)]
        dst = tmp_path / f"m{seed}.pcap"
        subprocess.run([pcap_corpus["gen"], "--mutate", str(src), str(dst), str(seed)], check=True)
        check_same_as_cli(csum_cli, dst)


def test_fix_writes_what_the_cli_writes(csum_cli, pcap_corpus, tmp_path):
    fixed_any = 0
    for src in captures(pcap_corpus):
        ours, theirs = tmp_path / ("py-" + src.name), tmp_path / ("cli-" + src.name)
        result = csum.pcap.fix(src, ours)
        subprocess.run([csum_cli, "pcap", "fix", str(src), str(theirs)], check=True,
                       capture_output=True)
        assert ours.read_bytes() == theirs.read_bytes()
        assert result.fixed == len(csum.pcap.verify(src).bad) and result.dst == str(ours)
        assert csum.pcap.verify(ours).ok
        fixed_any += result.fixed
    assert fixed_any > 0


def test_file_errors(pcap_corpus, tmp_path):
    with pytest.raises(FileNotFoundError):
        csum.pcap.verify(tmp_path / "missing.pcap")
    with pytest.raises(IsADirectoryError):
        csum.pcap.verify(tmp_path)
    src = captures(pcap_corpus)[0]
    with pytest.raises(ValueError, match="refusing to overwrite the input"):
        csum.pcap.fix(src, src)
    with pytest.raises(OSError):
        csum.pcap.fix(src, tmp_path / "no-such-dir" / "out.pcap")
    empty = tmp_path / "empty.pcap"
    empty.write_bytes(b"")
    with pytest.raises(PcapError):
        csum.pcap.verify(empty)


def test_paths_that_look_like_options_and_bytes_paths(pcap_corpus, tmp_path, monkeypatch):
    src = captures(pcap_corpus)[0]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-v.pcap").write_bytes(src.read_bytes())
    assert csum.pcap.verify("-v.pcap").document == csum.pcap.verify(src).document
    assert csum.pcap.verify(os.fsencode(str(src))).packets == csum.pcap.verify(src).packets


def test_concurrent_verify(pcap_corpus):
    paths = captures(pcap_corpus)
    want = [csum.pcap.verify(p).document for p in paths]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda p: csum.pcap.verify(p).document, paths * 4))
    assert got == want * 4
