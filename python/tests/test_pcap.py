"""csum.pcap gives what `csum pcap verify --json` prints and what `csum pcap fix` writes, on the
captures csum-pcapgen writes: its corpus (every link type, tunnel and policy case, malformed
files), captures of random packets on every link type and tunnel it knows (with offload
placeholders, jumbograms, 0xffff for 0x0000, fragments), and randomly damaged copies; and
every checksum it lists is the one csum-pcapgen's oracle expects (NAME.expect)."""
import json
import os
import re
import subprocess

import pytest

import csum.pcap
from csum.pcap import Check, PcapError, Undissected


# ---- the CLI, and what csum.pcap must make of its document --------------------------------

def cli_options(checks="problems", strict=False, rfc1624=False, ipv6_udp_zero=False,
                vxlan_ports=(), geneve_ports=(), fcs=False):
    args = {"problems": [], "verbose": ["-v"], "all": ["--all"]}[checks]
    args += ["--strict"] if strict else []
    args += ["--rfc1624"] if rfc1624 else []
    args += ["--ipv6-udp-zero"] if ipv6_udp_zero else []
    args += ["--fcs"] if fcs else []
    args += [f"--vxlan-port={p}" for p in vxlan_ports] + [f"--geneve-port={p}" for p in geneve_ports]
    return args


def kwargs_of(options):
    """MANIFEST's CLI options as verify()'s keyword arguments."""
    kw = {}
    for o in options:
        name, _, value = o.partition("=")
        key = {"--vxlan-port": "vxlan_ports", "--geneve-port": "geneve_ports"}[name]
        kw.setdefault(key, []).append(int(value))
    return kw


def cli_verify(cli, path, **kw):
    r = subprocess.run([cli, "pcap", "verify", "--json", *cli_options(**kw), str(path)],
                       capture_output=True)
    return r.returncode, json.loads(r.stdout), r.stderr.decode()


def check_of(e):
    """A document's check entry, read here independently of csum.pcap."""
    h = lambda k: int(e[k], 16) if k in e else None  # noqa: E731
    return Check(e["frame"], e["layer"], e["depth"], e["level"], e.get("via"), e["verdict"],
                 h("stored"), h("computed"), e.get("offset"), e.get("note"))


def assert_result_is_document(result, doc):
    assert result.document == doc
    assert result.packets == doc["packets"] and result.summary == doc["summary"]
    assert (result.format, result.compression, result.bytes) == (
        doc["format"], doc["compression"], doc["bytes"])
    assert result.checks == [check_of(e) for e in doc["checks"]]
    assert all(isinstance(c, Check) for c in result.checks)
    assert result.bad == [c for c in result.checks if c.verdict == "bad"]
    assert result.offload == [c for c in result.checks if c.verdict == "offload"]
    assert len(result.bad) == doc["summary"]["bad"]  # bad and offload ones are always listed
    assert len(result.offload) == doc["summary"]["offload"]
    assert result.undissected == [Undissected(u["linktype"], u["name"], u["packets"])
                                  for u in doc["undissected"]]
    assert result.skipped == doc["skipped"]
    for c in result.checks:
        assert (c.depth != "inner") == (c.level == 0) == (c.via is None)
        assert (c.depth == "link") == (c.layer == "fcs")
        assert (c.stored is None) == (c.verdict == "not_checkable")


def check_same_as_cli(cli, path, **kw):
    """verify(path, **kw) against `csum pcap verify --json` with the same options."""
    rc, doc, err = cli_verify(cli, path, **kw)
    if rc in (0, 1):
        result = csum.pcap.verify(path, **kw)
        assert_result_is_document(result, doc)
        assert result.ok == (rc == 0) and result.status == rc
        return result
    assert rc == 2 and "error" in doc, err
    with pytest.raises(PcapError) as info:
        csum.pcap.verify(path, **kw)
    e = info.value
    assert (e.offset, e.message, e.kind) == (
        doc["error"]["offset"], doc["error"]["message"], doc["error"]["kind"])
    if e.kind != "malformed":  # not the capture's fault: said without an offset
        assert err == f"csum: pcap verify: {path}: {e.message}\n"
        assert str(e) == f"{path}: {e.message}"
        return None
    m = re.search(r"malformed capture at byte offset (\d+): (.*)", err)
    assert m, err
    assert (e.offset, e.message) == (int(m.group(1)), m.group(2).strip())
    assert str(e) == f"{path}: malformed capture at byte offset {m.group(1)}: {m.group(2).strip()}"
    assert e.result is not None and e.result.document == doc  # the packets before the problem
    assert_result_is_document(e.result, doc)
    return None


def expect_line(c):
    """A check as csum-pcapgen's NAME.expect writes it."""
    word = {"no_checksum": "none"}.get(c.verdict, c.verdict)
    values = {"good": [c.stored], "bad": [c.stored, c.computed],
              "offload": [c.stored, c.computed]}.get(c.verdict, [])
    return " ".join([str(c.frame), c.depth, c.layer, word] + [f"0x{v:04x}" for v in values]
                    + [c.via or "-"])


def assert_oracle_verdicts(result, expect_path):
    want = sorted(line for line in expect_path.read_text().splitlines() if line.strip())
    assert sorted(expect_line(c) for c in result.checks) == want


def cli_fix_lines(cli, src, *options):
    """(frame, depth, layer, stored, computed) of every change `csum pcap fix --dry-run` lists."""
    r = subprocess.run([cli, "pcap", "fix", "--dry-run", *options, str(src)], capture_output=True,
                       text=True, check=True)
    return [(int(m.group(1)), m.group(2), m.group(3), int(m.group(4), 16), int(m.group(5), 16))
            for m in re.finditer(r"^frame (\d+): (\w+) ([\w-]+) checksum 0x(\w+) -> 0x(\w+)",
                                 r.stdout, re.M)]


def cli_fcs_lines(cli, src, *options):
    """(frame, stored, computed) of every FCS `csum pcap fix --dry-run` lists."""
    r = subprocess.run([cli, "pcap", "fix", "--dry-run", *options, str(src)], capture_output=True,
                       text=True, check=True)
    return [(int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16))
            for m in re.finditer(r"^frame (\d+): fcs 0x(\w+) -> 0x(\w+) \(dry run\)$", r.stdout,
                                 re.M)]


def captures(corpus):
    return [(corpus["dir"] / row[1], kwargs_of(row[3:]))
            for row in corpus["manifest"] if row[0] == "capture"]


# ---- csum-pcapgen --write: every link type, Ethernet encapsulation and tunnel --------------

def pcapgen_list(gen):
    """{section: {name: verify kwargs it needs}} from `csum-pcapgen --list`."""
    text = subprocess.run([gen, "--list"], capture_output=True, text=True, check=True).stdout
    sections, current = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            current = sections.setdefault(line.split(" (")[0], {})
        elif line.strip() and current is not None:
            current[line.split()[0]] = kwargs_of(re.findall(r"needs (--[a-z-]+=\d+)", line))
    return sections


@pytest.fixture(scope="module")
def written(pcap_corpus, tmp_path_factory):
    """[(path, verify kwargs)] of csum-pcapgen --write captures: every link type (pcap, and
    pcapng with offload placeholders, jumbograms, 0xffff and fragments), every tunnel and
    Ethernet encapsulation, every offload kind."""
    gen, d = pcap_corpus["gen"], tmp_path_factory.mktemp("written")
    kinds = pcapgen_list(gen)
    links, encaps, l2s = kinds["link types"], kinds["tunnels"], kinds["under Ethernet"]
    assert len(links) >= 25 and len(encaps) >= 14 and len(l2s) >= 4, kinds
    jobs = []
    for link in links:
        ip = ["--ip", "4"] if link in ("slip", "raw-versioned") else []
        jobs.append((f"link-{link}.pcap", ["--link", link, "--count", "60"] + ip, {}))
        jobs.append((f"link-{link}-policy.pcapng", ["--link", link, "--format", "pcapng",
                     "--count", "40", "--offload", "partial", "--ffff", "--jumbo", "--fragments"]
                    + ip, {}))
    for encap, kw in encaps.items():
        jobs.append((f"encap-{encap}.pcap", ["--encap", encap, "--count", "60"], kw))
    for l2 in l2s:
        jobs.append((f"l2-{l2}.pcapng", ["--l2", l2, "--format", "pcapng", "--count", "60"], {}))
    for kind in ("partial", "partial-nolen", "tso", "ip-zero"):
        jobs.append((f"offload-{kind}.pcap", ["--offload", kind, "--count", "60"], {}))
    jobs.append(("combo.pcapng", ["--link", "radiotap", "--encap", "vxlan-8472", "--format",
                                  "pcapng", "--offload", "partial", "--ffff", "--count", "60"],
                 encaps["vxlan-8472"]))
    out = []
    for seed, (name, args, kw) in enumerate(jobs, 1):
        path = d / name
        subprocess.run([gen, "--write", str(path), *args, "--seed", str(seed), "--expect"],
                       check=True, capture_output=True)
        out.append((path, kw))
    return out


# ---- verify --------------------------------------------------------------------------------

def test_verify_equals_cli_json_on_the_corpus(csum_cli, pcap_corpus):
    results = [check_same_as_cli(csum_cli, p, **kw) for p, kw in captures(pcap_corpus)]
    assert len(results) >= 40 and all(results)
    assert sum(len(r.bad) for r in results) > 100   # the corpus has bad checksums to find,
    assert sum(len(r.offload) for r in results) > 5  # offload placeholders,
    assert any(c.depth == "inner" for r in results for c in r.bad)  # tunnels,
    assert sum(sum(r.skipped.values()) for r in results) > 0  # and encrypted frames


def test_every_listing_and_policy_equals_the_cli(csum_cli, pcap_corpus):
    for path, kw in captures(pcap_corpus):
        for extra in ({"checks": "verbose"}, {"checks": "all", "strict": True},
                      {"rfc1624": True, "strict": True}, {"ipv6_udp_zero": True},
                      {"fcs": True, "checks": "all"}):
            check_same_as_cli(csum_cli, path, **kw, **extra)


def test_every_checksum_is_the_oracles(pcap_corpus):
    """checks='all' lists every checksum, each with the verdict and values csum-pcapgen's
    oracle (byte-at-a-time RFC 1071) wrote in NAME.expect."""
    n = 0
    for path, kw in captures(pcap_corpus):
        expect = path.with_name(path.name + ".expect")
        result = csum.pcap.verify(path, checks="all", **kw)
        assert_oracle_verdicts(result, expect)
        n += len(result.checks)
    assert n > 1000


def test_written_captures_equal_the_cli_and_the_oracle(csum_cli, written):
    seen = set()
    for path, kw in written:
        result = check_same_as_cli(csum_cli, path, checks="all", **kw)
        assert_oracle_verdicts(result, path.with_name(path.name + ".expect"))
        seen |= {(c.verdict, c.via) for c in result.checks}
        check_same_as_cli(csum_cli, path, rfc1624=True, strict=True, **kw)
    vias = {via for _, via in seen}
    assert {"ip", "gre", "erspan", "vxlan", "vxlan-gpe", "geneve", "icmp", "icmpv6"} <= vias
    assert {"good", "bad", "offload", "not_checkable", "no_checksum"} <= {v for v, _ in seen}


def test_tunnel_ports_are_options(pcap_corpus):
    """A VXLAN or Geneve tunnel on a port of its own is followed only when told."""
    d = pcap_corpus["dir"]
    for name, kw in (("tunnel-vxlan-8472.pcap", {"vxlan_ports": 8472}),
                     ("tunnel-geneve-6082.pcap", {"geneve_ports": [4789, 6082]})):
        told, untold = csum.pcap.verify(d / name, **kw), csum.pcap.verify(d / name)
        assert told.summary["inner"]["good"] > 0 and untold.summary["inner"]["good"] == 0


def test_ipv6_udp_zero_means_none_when_told(pcap_corpus):
    path = pcap_corpus["dir"] / "ethernet-le-usec.pcap"
    strict, told = csum.pcap.verify(path, checks="all"), csum.pcap.verify(path, checks="all",
                                                                         ipv6_udp_zero=True)
    zeros = [c for c in strict.bad if (c.layer, c.stored) == ("udp", 0)]
    assert zeros
    assert len(told.bad) == len(strict.bad) - len(zeros)
    # and more: a stored 0 says none even where the datagram is not checkable, as over IPv4
    assert (told.summary["udp"]["no_checksum"]
            >= strict.summary["udp"]["no_checksum"] + len(zeros))


def test_rfc1624_and_strict(pcap_corpus, tmp_path):
    d = pcap_corpus["dir"]
    ffff = csum.pcap.verify(d / "ffff.pcap", checks="all")
    negative_zero = [c for c in ffff.bad if (c.layer, c.stored, c.computed) == ("tcp", 0xffff, 0)]
    assert negative_zero and all("RFC 1624" in c.note for c in negative_zero)
    accepting = csum.pcap.verify(d / "ffff.pcap", rfc1624=True, checks="all")
    assert len(accepting.bad) == len(ffff.bad) - len(negative_zero)
    offload = csum.pcap.verify(d / "offload.pcap")
    assert offload.ok and offload.offload and not offload.bad
    assert all(c.note for c in offload.offload)
    assert not csum.pcap.verify(d / "offload.pcap", strict=True).ok
    clean = csum.pcap.verify(d / "clean.pcap", checks="verbose")  # fragments: not checkable
    assert clean.ok and clean.summary["not_checkable"] > 0
    assert not csum.pcap.verify(d / "clean.pcap", strict=True).ok
    bulk = tmp_path / "bulk.pcap"  # every checksum good and checked
    subprocess.run([pcap_corpus["gen"], "--bulk", str(bulk), "64k", "7"], check=True)
    assert csum.pcap.verify(bulk, strict=True).ok


def test_damaged_captures_never_crash_and_match_the_cli(csum_cli, pcap_corpus, tmp_path):
    sources = [p for p, _ in captures(pcap_corpus)]
    for seed in range(60):
        src = sources[seed % len(sources)]
        dst = tmp_path / f"m{seed}.pcap"
        subprocess.run([pcap_corpus["gen"], "--mutate", str(src), str(dst), str(seed)], check=True)
        check_same_as_cli(csum_cli, dst, checks="all")


def test_malformed_files_raise_pcaperror_with_the_offset(csum_cli, pcap_corpus):
    rows = [r for r in pcap_corpus["manifest"] if r[0] == "malformed"]
    assert len(rows) >= 10
    for _, name, offset in rows:
        path = pcap_corpus["dir"] / name
        with pytest.raises(PcapError) as info:
            csum.pcap.verify(path)
        assert info.value.offset == int(offset), name
        assert info.value.kind == "malformed", name
        assert isinstance(info.value, OSError) and info.value.path == str(path)
        check_same_as_cli(csum_cli, path)
    # Malformed after a packet: its verdicts come with the error.
    with pytest.raises(PcapError) as info:
        csum.pcap.verify(pcap_corpus["dir"] / "bad-ng-caplen.pcapng", checks="all")
    assert info.value.result.packets == 1 and len(info.value.result.checks) == 2


def test_a_file_csum_does_not_read_is_not_malformed(csum_cli, tmp_path):
    """An xz-compressed capture is no malformed one: PcapError of kind "unsupported", whose
    message says what it is and what to run instead, as the CLI's does."""
    path = tmp_path / "t.pcap.xz"
    path.write_bytes(b"\xfd7zXZ\x00rest")
    check_same_as_cli(csum_cli, path)
    for source in (path, path.read_bytes()):
        with pytest.raises(PcapError) as info:
            csum.pcap.verify(source)
        e = info.value
        assert e.kind == "unsupported"
        assert e.message == ("xz-compressed capture, which csum does not read: decompress it "
                             "first, e.g. xz -dc FILE | csum pcap verify -")
        assert "malformed" not in str(e)
    with pytest.raises(PcapError) as info:
        csum.pcap.fix(path, tmp_path / "out.pcap.xz")
    assert info.value.kind == "unsupported" and "csum pcap fix - - | xz >OUT" in str(info.value)
    assert not (tmp_path / "out.pcap.xz").exists()


def test_a_version_csum_does_not_read_is_not_malformed(csum_cli, pcap_corpus, tmp_path):
    """A well-formed capture of a version csum does not read (pcap 3.4, pcapng 2.0) is a
    PcapError of kind "unsupported" that names the version, at the version field's offset."""
    rows = [r for r in pcap_corpus["manifest"] if r[0] == "unsupported"]
    assert len(rows) == 2
    for _, name, offset in rows:
        path = pcap_corpus["dir"] / name
        check_same_as_cli(csum_cli, path)
        with pytest.raises(PcapError) as info:
            csum.pcap.verify(path)
        e = info.value
        assert (e.kind, e.offset) == ("unsupported", int(offset)), name
        assert " version " in e.message and "which csum does not read" in e.message, e.message
        assert "malformed" not in str(e), name
        with pytest.raises(PcapError) as info:
            csum.pcap.fix(path, tmp_path / name)
        assert info.value.kind == "unsupported" and not (tmp_path / name).exists()


@pytest.mark.skipif(not os.access("/proc/self/mem", os.R_OK), reason="no /proc/self/mem")
def test_a_read_error_is_not_malformed(csum_cli):
    """A capture that cannot be read once open (reading /proc/self/mem at 0 fails with EIO)
    is a PcapError of kind "system", said as the failed read, not as a malformed capture."""
    with pytest.raises(PcapError) as info:
        csum.pcap.verify("/proc/self/mem")
    e = info.value
    assert e.kind == "system" and e.message.startswith("cannot read: ")
    assert str(e) == f"/proc/self/mem: {e.message}"
    rc, doc, err = cli_verify(csum_cli, "/proc/self/mem")
    assert rc == 2 and doc["error"]["kind"] == "system", doc["error"]
    assert err.startswith("csum: pcap verify: /proc/self/mem: cannot read: "), err


def test_cut_captures_are_results_that_say_where(csum_cli, pcap_corpus):
    rows = [r for r in pcap_corpus["manifest"] if r[0] == "cut"]
    assert len(rows) >= 4
    for _, name, offset, _keep in rows:
        path = pcap_corpus["dir"] / name
        result = csum.pcap.verify(path, checks="all")
        assert result.ok and result.packets == 2 and len(result.checks) == 4, name
        assert result.cut_short is not None and result.cut_short.offset == int(offset), name
        assert "cut short" in result.cut_short.message or "remain" in result.cut_short.message
        assert not csum.pcap.verify(path, strict=True).ok
        check_same_as_cli(csum_cli, path)
    assert csum.pcap.verify(pcap_corpus["dir"] / "clean.pcap").cut_short is None


# ---- fix -----------------------------------------------------------------------------------

def fixed_tuples(result):
    return [(c.frame, c.depth, c.layer, c.stored, c.computed) for c in result.fixed]


def test_fix_writes_what_the_cli_writes(csum_cli, pcap_corpus, written, tmp_path):
    fixed_any = nested = 0
    for src, kw in captures(pcap_corpus) + written:
        options = cli_options(**kw)
        ours, theirs = tmp_path / ("py-" + src.name), tmp_path / ("cli-" + src.name)
        result = csum.pcap.fix(src, ours, **kw)
        subprocess.run([csum_cli, "pcap", "fix", *options, str(src), str(theirs)], check=True,
                       capture_output=True)
        assert ours.read_bytes() == theirs.read_bytes(), src.name
        assert (result.src, result.dst, result.dry_run) == (str(src), str(ours), False)
        assert fixed_tuples(result) == cli_fix_lines(csum_cli, src, *options), src.name
        assert result.fixed == result.bad and not any(c.verdict == "offload" for c in result.fixed)
        after = csum.pcap.verify(ours, **kw)
        assert not after.bad and after.offload == result.offload
        fixed_any += len(result.fixed)
        # A checksum over a fixed one (a tunnel's UDP, an ICMP error's) is computed after it:
        # the fix walk may find more bad ones than verify did.
        nested += len(result.fixed) - len(csum.pcap.verify(src, **kw).bad)
    assert fixed_any > 100 and nested > 0


def test_fix_lists_the_fcs_it_computes_again(csum_cli, pcap_corpus, tmp_path):
    """result.fcs: each right FCS of a frame whose checksums were fixed, computed again, as the
    CLI lists it; with the bytes found and written at its offset, the only bytes but the
    checksums' that change."""
    listed = 0
    for name in ("radiotap.pcap", "ppi.pcap", "multi.pcapng", "clean.pcap"):
        src, out = pcap_corpus["dir"] / name, tmp_path / name
        result = csum.pcap.fix(src, out)
        assert [(f.frame, f.stored, f.computed) for f in result.fcs] == \
            cli_fcs_lines(csum_cli, src), name
        before, after = src.read_bytes(), out.read_bytes()
        fixed_frames = {c.frame for c in result.fixed}
        for f in result.fcs:
            assert int.from_bytes(before[f.offset:f.offset + 4], "big") == f.stored
            assert int.from_bytes(after[f.offset:f.offset + 4], "big") == f.computed != f.stored
            assert f.frame in fixed_frames, f
        fields = {c.offset + k for c in result.fixed for k in (0, 1)} | \
                 {f.offset + k for f in result.fcs for k in range(4)}
        assert {i for i in range(len(before)) if before[i] != after[i]} <= fields, name
        assert csum.pcap.fix(src, dry_run=True).fcs == result.fcs
        n = len(result.fcs)
        assert f"and {n} FCS{'' if n == 1 else 's'}>" in repr(result)
        listed += len(result.fcs)
    assert listed > 10
    assert "fcs" not in csum.pcap.verify(src).document  # verify computes none again


def test_fix_offload_and_dry_run(csum_cli, pcap_corpus, tmp_path):
    src = pcap_corpus["dir"] / "offload.pcap"
    dry = csum.pcap.fix(src, dry_run=True, fix_offload=True)
    assert dry.dry_run and dry.dst is None and dry.fixed == dry.offload and dry.fixed
    assert fixed_tuples(dry) == cli_fix_lines(csum_cli, src, "--fix-offload")
    untouched = tmp_path / "untouched.pcap"
    assert csum.pcap.fix(src, untouched, dry_run=True).fixed == []  # offload left alone
    assert not untouched.exists()  # a dry run writes nothing
    out = tmp_path / "offload-fixed.pcap"
    result = csum.pcap.fix(src, out, fix_offload=True)
    theirs = tmp_path / "cli.pcap"
    subprocess.run([csum_cli, "pcap", "fix", "--fix-offload", str(src), str(theirs)], check=True,
                   capture_output=True)
    assert out.read_bytes() == theirs.read_bytes()
    assert len(result.fixed) == len(dry.fixed)
    assert csum.pcap.verify(out, strict=True).ok


def test_fcs_checked_and_fixed_when_asked(csum_cli, pcap_corpus, tmp_path):
    """fcs=True: each 802.11 FCS behind a radiotap or PPI header is a check of layer "fcs"
    (32-bit values, its bytes at its offset), as the CLI's --fcs says; fix(fcs=True) writes
    what the CLI's fix --fcs writes, every wrong FCS rewritten and listed in result.fcs (not in
    result.fixed, the checksums), after which none is bad. Without it, nothing of the FCSs."""
    for name in ("radiotap.pcap", "ppi.pcap"):
        src = pcap_corpus["dir"] / name
        data = src.read_bytes()
        checked = check_same_as_cli(csum_cli, src, checks="all", fcs=True)
        fcs = [c for c in checked.checks if c.layer == "fcs"]
        assert {c.verdict for c in fcs} == {"good", "bad"}, name
        assert len(fcs) == sum(checked.summary["fcs"].values()) > 10
        for c in fcs:
            assert (c.depth, c.level, c.via) == ("link", 0, None)
            assert int.from_bytes(data[c.offset:c.offset + 4], "big") == c.stored
        assert checked.bad and not checked.ok and re.search(r" bad FCSs?,", repr(checked))
        plain = csum.pcap.verify(src, checks="all")
        assert plain.checks == [c for c in checked.checks if c.layer != "fcs"]
        assert not any(plain.summary["fcs"].values()) and "FCS" not in repr(plain)

        ours, theirs = tmp_path / ("py-" + name), tmp_path / ("cli-" + name)
        result = csum.pcap.fix(src, ours, fcs=True)
        subprocess.run([csum_cli, "pcap", "fix", "--fcs", str(src), str(theirs)], check=True,
                       capture_output=True)
        assert ours.read_bytes() == theirs.read_bytes(), name
        assert [(f.frame, f.stored, f.computed) for f in result.fcs] == \
            cli_fcs_lines(csum_cli, src, "--fcs"), name
        assert fixed_tuples(result) == cli_fix_lines(csum_cli, src, "--fcs")
        assert all(c.layer != "fcs" for c in result.fixed)
        # every bad FCS of the fix walk (wrong in the capture, or made wrong by the fix of the
        # frame's checksums) is one rewritten
        bad_fcs = [(c.frame, c.stored, c.computed, c.offset) for c in result.bad
                   if c.layer == "fcs"]
        assert bad_fcs == [tuple(f) for f in result.fcs]
        wrong = {c.frame for c in fcs if c.verdict == "bad"}
        assert wrong <= {f.frame for f in result.fcs} and len(result.fcs) > len(wrong)
        after = csum.pcap.verify(ours, checks="all", fcs=True)
        assert after.ok and not after.bad
        assert after.summary["fcs"]["good"] == len(fcs)
        # without fcs=True, fix leaves the wrong ones as they were
        kept = csum.pcap.fix(src, tmp_path / ("kept-" + name))
        assert not {f.frame for f in kept.fcs} & wrong
        assert csum.pcap.verify(tmp_path / ("kept-" + name), fcs=True).summary["fcs"]["bad"] == \
            len(wrong)
