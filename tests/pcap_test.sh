#!/usr/bin/env bash
# Tests of `csum pcap verify|fix` on captures written by csum-pcapgen, whose checksums come
# from the reference oracle and whose verdicts are listed next to each file:
#   NAME.expect  one line per checksum of every frame: FRAME outer|inner LAYER VERDICT
#                [STORED [COMPUTED]] VIA, what `csum pcap verify --all NAME` must report
#   MANIFEST     expected exit statuses and options, encrypted frames, the captures tshark
#                cannot dissect, and the byte offset each malformed file's error names
# Every capture is also compared with tshark's checksum validation frame by frame (each
# checksum of each layer, outer and inner), before and after `fix` (--quick: before only).
# Usage: tests/pcap_test.sh path/to/csum path/to/csum-pcapgen [--quick]
set -u
CSUM=${1:?usage: pcap_test.sh path/to/csum path/to/csum-pcapgen [--quick]}
GEN=${2:?usage: pcap_test.sh path/to/csum path/to/csum-pcapgen [--quick]}
QUICK=${3:-}
TMP=$(mktemp -d)
trap 'chmod -R u+w "$TMP"; rm -rf "$TMP"' EXIT
passed=0 failed=0 skipped=0

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL    pcap: %s\n' "$1"; }
skip() { skipped=$((skipped + 1)); printf 'SKIPPED pcap: %s\n' "$1"; }
check() { # check CONDITION-STATUS DESCRIPTION
    if [ "$1" -eq 0 ]; then ok; else fail "$2"; fi
}

C="$TMP/corpus"
mkdir "$C"
if ! "$GEN" "$C"; then
    echo "FAIL    pcap: csum-pcapgen could not write the corpus"
    exit 1
fi
captures=$(awk '$1 == "capture" { print $2 }' "$C/MANIFEST")
malformed=$(awk '$1 == "malformed" { print $2 }' "$C/MANIFEST")
unsupported=$(awk '$1 == "unsupported" { print $2 }' "$C/MANIFEST")
want_status() { awk -v f="$1" '$1 != "tshark" && $2 == f { print $3; exit }' "$C/MANIFEST"; }
options_of() { awk -v f="$1" '$1 == "capture" && $2 == f { for (i = 4; i <= NF; i++) print $i }' "$C/MANIFEST"; }
skipped_in() { awk -v f="$1" '$1 == "skipped" && $2 == f { n = $3 } END { print n + 0 }' "$C/MANIFEST"; }
tshark_gap() { awk -v f="$1" '$1 == "tshark" && $2 == f { $1 = $2 = ""; sub(/^ +/, ""); print }' "$C/MANIFEST"; }

# `csum pcap verify --all` lines, as the .expect files write them.
normalize() {
    awk '/^frame / {
        via = "-"
        if (match($0, /\(via [a-z0-9-]+/)) via = substr($0, RSTART + 5, RLENGTH - 5)
        n = $2; sub(":", "", n)
        rest = $0; sub(/^frame [0-9]+: [a-z]+ [a-z0-9-]+ checksum /, "", rest)
        if (rest ~ /^good: /) print n, $3, $4, "good", substr(rest, 7, 6), via
        else if (rest ~ /^(bad|offload): stored /) {
            split(rest, w, /[ ,:]+/); print n, $3, $4, w[1], w[3], w[5], via
        } else if (rest ~ /^not checkable/) print n, $3, $4, "not_checkable", via
        else if (rest ~ /^none/) print n, $3, $4, "none", via
    }'
}

# ---- verify: exit status, exactly the expected verdicts, plain output, --strict -----------
for f in $captures; do
    mapfile -t opts < <(options_of "$f")
    "$CSUM" pcap verify --all "${opts[@]}" "$C/$f" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check $(( rc != $(want_status "$f") )) "verify $f: exit $rc, want $(want_status "$f") ($(head -c 200 "$TMP/err"))"
    normalize <"$TMP/out" | sort >"$TMP/got"
    sort "$C/$f.expect" | diff - "$TMP/got" >"$TMP/diff"
    check $? "verify $f: verdicts differ from the expected ones (< expected, > got): $(head -6 "$TMP/diff" | tr '\n' ' ')"
    # Without --all: the bad and offload lines and one summary, nothing else.
    "$CSUM" pcap verify "${opts[@]}" "$C/$f" >"$TMP/plain" 2>&1
    listed=$(grep -cE ' (bad|offload) ' "$C/$f.expect")
    check $(( $(wc -l <"$TMP/plain") != listed + 1 )) "verify $f: plain output is $listed bad/offload lines + one summary ($(wc -l <"$TMP/plain") lines)"
    grep -q "^$C/$f: [0-9]* packets; checksums: " "$TMP/plain"
    check $? "verify $f: summary line names the file"
    counts=$(awk '{ n[$4]++ } END { printf "%d good, %d bad, %d offload, %d not checkable, %d none (not computed by the sender)",
                                  n["good"], n["bad"], n["offload"], n["not_checkable"], n["none"] }' "$C/$f.expect")
    grep -q "packets; checksums: $counts" "$TMP/plain"
    check $? "verify $f: summary counts $counts ($(tail -1 "$TMP/plain" | cut -c1-200))"
    # --strict: anything not verified good (offload, not checkable, encrypted) fails too.
    unchecked=$(grep -cE ' (bad|offload|not_checkable) ' "$C/$f.expect")
    want=$(( unchecked + $(skipped_in "$f") > 0 ? 1 : 0 ))
    "$CSUM" pcap verify --strict "${opts[@]}" "$C/$f" >/dev/null 2>&1
    rc=$?
    check $(( rc != want )) "verify --strict $f: exit $rc, want $want"
    # Packets not looked into (encrypted, cut before their transport): exactly those.
    got=$("$CSUM" pcap verify --json "${opts[@]}" "$C/$f" 2>/dev/null |
          sed -n 's/.*"undissected": [0-9]*, "skipped": \([0-9]*\)}.*/\1/p')
    check $(( ${got:-0} != $(skipped_in "$f") )) "verify $f: ${got:-no} packets skipped, want $(skipped_in "$f")"
done
# Encrypted frames are counted and named.
"$CSUM" pcap verify "$C/wlan.pcap" | grep -q "skipped: $(skipped_in wlan.pcap) encrypted 802.11 frames"
check $? "wlan.pcap: encrypted 802.11 frames counted in the summary"
"$CSUM" pcap verify "$C/macsec.pcap" | grep -q "skipped: $(skipped_in macsec.pcap) encrypted MACsec frames"
check $? "macsec.pcap: encrypted MACsec frames counted in the summary"

# --rfc1624: a TCP 0xffff for 0x0000 is good; nothing else changes.
"$CSUM" pcap verify --all --rfc1624 "$C/ffff.pcap" | normalize | sort >"$TMP/got"
sed -E 's/ tcp bad 0xffff 0x0000 / tcp good 0xffff /' "$C/ffff.pcap.expect" | sort | diff - "$TMP/got" >"$TMP/diff"
check $? "verify --rfc1624 ffff.pcap: $(head -4 "$TMP/diff" | tr '\n' ' ')"
check $(( $(grep -c ' tcp bad 0xffff 0x0000 ' "$C/ffff.pcap.expect") == 0 )) "ffff.pcap holds TCP 0xffff-for-0x0000 cases"
# --ipv6-udp-zero: a UDP 0 over IPv6 (bad, with a stored 0x0000) is none; nothing else changes
# but that a stored 0 says none even where the datagram is not checkable, as over IPv4: in the
# frames tshark shows as IPv6 (without tshark, those lines are left out of the comparison).
if command -v tshark >/dev/null 2>&1; then
    tshark -r "$C/ethernet-le-usec.pcap" -Y 'ipv6 && !ip' -T fields -e frame.number 2>/dev/null >"$TMP/v6frames"
else
    : >"$TMP/v6frames"
fi
"$CSUM" pcap verify --all --ipv6-udp-zero "$C/ethernet-le-usec.pcap" | normalize | sort >"$TMP/got"
sed -E 's/ udp bad 0x0000 0x[0-9a-f]{4} / udp none /' "$C/ethernet-le-usec.pcap.expect" | sort |
    diff - "$TMP/got" | grep '^[<>]' | sort -k2 >"$TMP/diff"
awk 'NR == FNR { v6[$1] = 1; next }
     { ok = ($1 == "<" && $4 == "udp" && $5 == "not_checkable" || $1 == ">" && $4 == "udp" && $5 == "none") && v6[$2]
       if (!ok) print }' "$TMP/v6frames" "$TMP/diff" >"$TMP/diff2"
check $(( $(wc -l <"$TMP/diff2") != 0 )) "verify --ipv6-udp-zero: $(head -4 "$TMP/diff2" | tr '\n' ' ')"
check $(( $(grep -c ' udp bad 0x0000 ' "$C/ethernet-le-usec.pcap.expect") == 0 )) "ethernet-le-usec.pcap holds IPv6 UDP zeros"
"$CSUM" pcap fix --rfc1624 "$C/ffff.pcap" "$TMP/ffff-rfc1624.pcap" >/dev/null
cmp -s "$C/ffff.pcap" "$TMP/ffff-rfc1624.pcap"
check $? "fix --rfc1624 ffff.pcap: nothing to change (every 0xffff for 0x0000 is good)"
# Tunnel ports: without the option, the custom-port VXLAN/Geneve captures have no inner layer.
for f in tunnel-vxlan-8472.pcap tunnel-geneve-6082.pcap; do
    "$CSUM" pcap verify --all "$C/$f" | grep -c ' inner ' >"$TMP/n"
    check $(( $(cat "$TMP/n") != 0 )) "verify $f without its port option: no inner layer"
done

if command -v python3 >/dev/null 2>&1; then
    for f in $captures; do
        mapfile -t opts < <(options_of "$f")
        "$CSUM" pcap verify --json --all "${opts[@]}" "$C/$f" >"$TMP/json"
        python3 - "$TMP/json" "$C/$f.expect" "$f" <<'PY' >"$TMP/pyout" 2>&1
import json, sys
doc = json.load(open(sys.argv[1]))
want = sorted(l.split() for l in open(sys.argv[2]))
got = []
for c in doc["checks"]:
    v = {"not_checkable": "not_checkable", "no_checksum": "none"}.get(c["verdict"], c["verdict"])
    row = [str(c["frame"]), c["depth"], c["layer"], v]
    if v == "good": row.append(c["stored"])
    if v in ("bad", "offload"): row += [c["stored"], c["computed"]]
    row.append(c.get("via", "-"))
    assert (c["level"] > 0) == (c["depth"] == "inner") and ("via" in c) == (c["level"] > 0), c
    assert v == "not_checkable" or isinstance(c["offset"], int), c
    assert v not in ("not_checkable", "offload") or c["note"], c
    got.append(row)
assert sorted(got) == want, "checks differ: %r" % [r for r in sorted(got) if r not in want][:3]
s = doc["summary"]
for v in ("good", "bad", "offload", "not_checkable"):
    n = sum(1 for r in want if r[3] == v)
    assert s[v] == n, "summary %s %d, expected %d" % (v, s[v], n)
    layers = ("ipv4", "tcp", "udp", "icmp", "icmpv6", "gre", "icmp-ext", "igmp", "pim", "vrrp",
              "ospf", "rsvp", "dccp", "udplite", "mh")
    assert s[v] == sum(s[l][v] for l in layers), v
    assert s["inner"][v] == sum(1 for r in want if r[3] == v and r[1] == "inner"), v
assert doc["file"].endswith(sys.argv[3]) and doc["packets"] > 0 and "error" not in doc
assert doc["format"] == ("pcapng" if sys.argv[3].endswith(".pcapng") else "pcap")
assert doc["compression"] == "plain"
PY
        check $? "verify --json $f: $(head -c 300 "$TMP/pyout")"
    done
else
    skip "JSON checks (python3 not found)"
fi

# ---- malformed files: exit 2, the file and the byte offset named, JSON with an error -----
for f in $malformed; do
    off=$(want_status "$f")
    "$CSUM" pcap verify "$C/$f" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check $(( rc != 2 )) "malformed $f: exit $rc, want 2"
    grep -q "$C/$f: malformed capture at byte offset $off: " "$TMP/err"
    check $? "malformed $f: message does not name offset $off: $(head -c 200 "$TMP/err")"
    "$CSUM" pcap verify --json "$C/$f" >"$TMP/out" 2>/dev/null
    check $(( $? != 2 )) "malformed $f with --json: exit 2"
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["error"]["offset"] == int(sys.argv[2]) and d["error"]["kind"] == "malformed" and d["error"]["message"], d' \
            "$TMP/out" "$off" >/dev/null 2>&1
        check $? "malformed $f with --json: a JSON document with error.offset $off, kind malformed"
    fi
    "$CSUM" pcap fix "$C/$f" "$TMP/fixed-malformed" >/dev/null 2>&1
    check $(( $? != 2 )) "fix of malformed $f: exit 2"
    [ ! -e "$TMP/fixed-malformed" ]
    check $? "fix of malformed $f: no output written"
done
ls "$TMP"/.csum-tmp-* >/dev/null 2>&1
check $(( $? == 0 )) "fix of malformed files: no temporary files left behind"

# ---- captures cut short in their last record (an interrupted capture): a warning, not an
# error; fix writes every whole record before the cut ----------------------------------------
cut=$(awk '$1 == "cut" { print $2 }' "$C/MANIFEST")
check $(( $(echo "$cut" | wc -w) < 4 )) "MANIFEST lists the cut captures ($(echo $cut))"
for f in $cut; do
    read -r off keep < <(awk -v f="$f" '$1 == "cut" && $2 == f { print $3, $4 }' "$C/MANIFEST")
    "$CSUM" pcap verify "$C/$f" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check $rc "cut $f: verify exits 0 ($rc: $(head -c 200 "$TMP/err"))"
    grep -q "$C/$f: warning: capture cut short at byte offset $off: " "$TMP/err"
    check $? "cut $f: the warning names offset $off ($(head -c 200 "$TMP/err"))"
    grep -q "^$C/$f: 2 packets" "$TMP/out"
    check $? "cut $f: the summary counts the packets before the cut ($(head -c 200 "$TMP/out"))"
    "$CSUM" pcap verify --strict "$C/$f" >/dev/null 2>"$TMP/err"
    check $(( $? != 1 )) "cut $f: verify --strict exits 1"
    tail -1 "$TMP/err" | grep -qE "^csum: pcap verify: $C/$f: --strict: not all checked: (.*, )?the capture cut short$"
    check $? "cut $f: verify --strict says the cut is why, after the warning ($(tail -1 "$TMP/err"))"
    "$CSUM" pcap verify --json "$C/$f" >"$TMP/out" 2>/dev/null
    check $? "cut $f: verify --json exits 0"
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["error"]; assert e["offset"] == int(sys.argv[2]) and e["cut_short"] is True, e' \
            "$TMP/out" "$off" >/dev/null 2>&1
        check $? "cut $f: --json's error has offset $off and cut_short"
    fi
    rm -f "$TMP/fixed-cut"
    "$CSUM" pcap fix "$C/$f" "$TMP/fixed-cut" >/dev/null 2>"$TMP/err"
    check $? "cut $f: fix exits 0 ($(head -c 200 "$TMP/err"))"
    head -c "$keep" "$C/$f" | cmp -s - "$TMP/fixed-cut"
    check $? "cut $f: fix wrote its first $keep bytes, the whole records"
    "$CSUM" pcap fix - - <"$C/$f" 2>/dev/null | cmp -s - "$TMP/fixed-cut"
    check $? "cut $f: fix to standard output writes the same"
done
if command -v python3 >/dev/null 2>&1; then
    # A file name with the characters JSON escapes: the document still parses, and names it.
    odd=$TMP/$'q"b\\s\tt\x01c'.pcap
    cp "$C/clean.pcap" "$odd"
    "$CSUM" pcap verify --json "$odd" >"$TMP/out" 2>/dev/null
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["file"] == sys.argv[2], d["file"]' \
        "$TMP/out" "$odd" >"$TMP/pyout" 2>&1
    check $? "verify --json of a file named with a quote, a backslash, control characters: $(tail -1 "$TMP/pyout")"
    "$CSUM" pcap verify --json "$TMP/missing.pcap" >"$TMP/out" 2>/dev/null
    check $(( $? != 2 )) "verify --json of a missing file: exit 2"
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["error"]["message"]' "$TMP/out" 2>/dev/null
    check $? "verify --json of a missing file: a JSON document with an error ($(head -c 100 "$TMP/out"))"
    # verify --help's --json names every member of the document.
    "$CSUM" pcap verify --json "$C/clean.pcap" >"$TMP/out" 2>/dev/null
    "$CSUM" pcap verify --help >"$TMP/help"
    missing=$(python3 -c 'import json, sys; h = open(sys.argv[2]).read(); print(" ".join(k for k in json.load(open(sys.argv[1])) if "\"%s\"" % k not in h))' \
        "$TMP/out" "$TMP/help" 2>&1)
    check $(( ${#missing} != 0 )) "verify --help names every member of the --json document (missing: $missing)"
fi

# ---- a capture cut mid-packet: the verdicts of every whole packet, then a warning ---------
src="$C/ethernet-le-usec.pcap"
size=$(stat -c %s "$src")
cut_at=$(( size * 2 / 3 ))
head -c "$cut_at" "$src" >"$TMP/cut.pcap"
"$CSUM" pcap verify --all "$TMP/cut.pcap" >"$TMP/out" 2>"$TMP/err"
check $(( $? != 1 )) "verify of a capture cut mid-packet: exit 1 (bad checksums before the cut)"
grep -q "warning: capture cut short at byte offset" "$TMP/err"
check $? "verify of a cut capture: the warning names the offset"
last=$(normalize <"$TMP/out" | awk '{ print $1 }' | sort -n | tail -1)
normalize <"$TMP/out" | sort >"$TMP/got"
awk -v last="$last" '$1 <= last' "$C/ethernet-le-usec.pcap.expect" | sort | diff - "$TMP/got" >/dev/null
check $? "verify of a cut capture: the verdicts of frames 1..$last, as in the whole capture"
check $(( last < 100 )) "verify of a cut capture: most frames before the cut are reported ($last)"
grep -q "^$TMP/cut.pcap: [0-9]* packets" "$TMP/out"
check $? "verify of a cut capture: the summary of what was read"

# ---- standard input, compressed captures ---------------------------------------------------
for f in multi.pcapng tunnel-vxlan.pcap; do
    "$CSUM" pcap verify --all "$C/$f" | normalize >"$TMP/want"
    cat "$C/$f" | "$CSUM" pcap verify --all - | normalize | diff - "$TMP/want" >/dev/null
    check $? "verify - (standard input) $f: same verdicts"
done
compressors=""
for z in gzip zstd; do
    if ! command -v "$z" >/dev/null; then
        skip "$z-compressed captures ($z not found)"
    elif ! "$CSUM" pcap --help | grep -q "$z: yes"; then
        skip "$z-compressed captures (csum built without $z support)"
    else
        compressors="$compressors $z"
    fi
done
"$GEN" --bulk "$TMP/bulk.pcap" 3 5
for z in $compressors; do
    ext=$([ "$z" = gzip ] && echo gz || echo zst)
    for f in multi.pcapng tunnel-gre-csum.pcap ethernet-be-nsec.pcap; do
        "$z" -c "$C/$f" >"$TMP/$f.$ext"
        "$CSUM" pcap verify --all "$C/$f" | normalize >"$TMP/want"
        "$CSUM" pcap verify --all "$TMP/$f.$ext" | normalize | diff - "$TMP/want" >/dev/null
        check $? "verify $f.$ext: same verdicts as uncompressed"
        "$z" -c "$C/$f" | "$CSUM" pcap verify --all - | normalize | diff - "$TMP/want" >/dev/null
        check $? "verify - ($z on standard input) $f: same verdicts"
        "$CSUM" pcap verify --json "$TMP/$f.$ext" | grep -q "\"compression\": \"$z\""
        check $? "verify --json $f.$ext: says $z"
        # fix keeps the compression, and its content is the fix of the plain capture.
        "$CSUM" pcap fix "$C/$f" "$TMP/plain-fixed" >/dev/null
        "$CSUM" pcap fix "$TMP/$f.$ext" "$TMP/fixed.$ext" >/dev/null
        check $? "fix $f.$ext: exit 0"
        "$z" -t "$TMP/fixed.$ext" 2>/dev/null
        check $? "fix $f.$ext: the output is $z-compressed"
        "$z" -dc "$TMP/fixed.$ext" | cmp -s - "$TMP/plain-fixed"
        check $? "fix $f.$ext: decompressed, the same as the fixed plain capture"
    done
    if [ "$z" = zstd ]; then
        # A skippable frame first (RFC 8878 section 3.1.2), as pzstd writes: zstd all the same.
        f=multi.pcapng
        { printf '\x5a\x2a\x4d\x18\x04\x00\x00\x00skip'; zstd -c "$C/$f"; } >"$TMP/skippable.zst"
        "$CSUM" pcap verify --all "$C/$f" | normalize >"$TMP/want"
        "$CSUM" pcap verify --all "$TMP/skippable.zst" 2>"$TMP/err" | normalize | diff - "$TMP/want" >/dev/null
        check $? "verify $f.zst after a skippable frame: same verdicts ($(head -c 200 "$TMP/err"))"
        "$CSUM" pcap fix "$C/$f" "$TMP/plain-fixed" >/dev/null
        "$CSUM" pcap fix "$TMP/skippable.zst" "$TMP/fixed.zst" >/dev/null 2>&1 &&
            zstd -dc "$TMP/fixed.zst" | cmp -s - "$TMP/plain-fixed"
        check $? "fix $f.zst after a skippable frame: zstd, the same as the fixed plain capture"
    fi
    # cut short (an interrupted, compressing capture): the whole packets' verdicts and a
    # warning; fix writes them, compressed, and its output reads to its end
    "$z" -c "$TMP/bulk.pcap" >"$TMP/bulk.pcap.$ext"
    head -c $(( $(stat -c %s "$TMP/bulk.pcap.$ext") / 2 )) "$TMP/bulk.pcap.$ext" >"$TMP/cut.$ext"
    "$CSUM" pcap verify --all "$TMP/cut.$ext" >"$TMP/out" 2>"$TMP/err"
    check $? "verify of a cut $z capture: exit 0 ($(head -c 200 "$TMP/err"))"
    grep -q "warning: capture cut short at byte offset .*$z stream is cut short" "$TMP/err"
    check $? "verify of a cut $z capture: says it is cut short ($(head -c 200 "$TMP/err"))"
    check $(( $(normalize <"$TMP/out" | wc -l) == 0 )) "verify of a cut $z capture: verdicts before the cut"
    "$CSUM" pcap fix "$TMP/cut.$ext" "$TMP/cutfix.$ext" >/dev/null 2>&1
    check $? "fix of a cut $z capture: exit 0"
    "$z" -t "$TMP/cutfix.$ext" 2>/dev/null && "$CSUM" pcap verify "$TMP/cutfix.$ext" >"$TMP/out2" 2>&1
    check $? "fix of a cut $z capture: a whole $z stream that verifies clean ($(head -c 200 "$TMP/out2"))"
    n_before=$(normalize <"$TMP/out" | awk '{ print $1 }' | sort -un | wc -l)
    n_after=$("$CSUM" pcap verify --all "$TMP/cutfix.$ext" | normalize | awk '{ print $1 }' | sort -un | wc -l)
    check $(( n_before != n_after )) "fix of a cut $z capture: keeps the $n_before whole packets ($n_after)"
done
for z in $compressors; do # cut before its first 4 bytes: no capture, not an interrupted one
    "$z" -c "$C/clean.pcap" | head -c 5 >"$TMP/tiny"
    rm -f "$TMP/tiny-fixed"
    "$CSUM" pcap verify "$TMP/tiny" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "$z stream cut before a magic number: verify exits 2 ($(head -c 200 "$TMP/err"))"
    "$CSUM" pcap fix "$TMP/tiny" "$TMP/tiny-fixed" >/dev/null 2>&1
    check $(( $? != 2 )) "$z stream cut before a magic number: fix exits 2"
    [ ! -e "$TMP/tiny-fixed" ]
    check $? "$z stream cut before a magic number: fix writes nothing"
done
case " $compressors " in *" gzip "*)
    # Zero padding after the last member (a tape's block size), which gzip -t accepts: the
    # same capture, from a file and from a pipe, padding longer than one read; data after the
    # padding is still corrupt.
    f=multi.pcapng
    "$CSUM" pcap verify --all "$C/$f" >"$TMP/want"
    want_rc=$?
    { gzip -c "$C/$f"; head -c 300000 /dev/zero; } >"$TMP/padded.gz"
    for how in file pipe; do
        if [ $how = file ]; then
            "$CSUM" pcap verify --all "$TMP/padded.gz" >"$TMP/out" 2>"$TMP/err"
        else
            "$CSUM" pcap verify --all - <"$TMP/padded.gz" >"$TMP/out" 2>"$TMP/err"
        fi
        check $(( $? != want_rc )) "verify of a zero-padded gzip capture ($how): exit $want_rc ($(head -c 200 "$TMP/err"))"
        normalize <"$TMP/out" | diff - <(normalize <"$TMP/want") >/dev/null
        check $? "verify of a zero-padded gzip capture ($how): same verdicts"
    done
    { cat "$TMP/padded.gz"; printf x; } >"$TMP/padded-x.gz"
    "$CSUM" pcap verify "$TMP/padded-x.gz" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "data after a gzip capture's zero padding: exit 2"
    grep -q "data after the zero bytes that pad" "$TMP/err"
    check $? "data after a gzip capture's zero padding: says so ($(head -c 200 "$TMP/err"))"
    ;;
esac
# refused_capture FILE MESSAGE DESCRIPTION: csum pcap verify FILE exits 2, saying only
# "csum: pcap verify: FILE: MESSAGE".
refused_capture() {
    "$CSUM" pcap verify "$1" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "$3: exit 2"
    [ "$(cat "$TMP/err")" = "csum: pcap verify: $1: $2" ]
    check $? "$3: said so ($(head -c 300 "$TMP/err"))"
}
for z in $compressors; do # compressed twice: named as such, not as an unknown magic number
    "$z" -c "$C/clean.pcap" | "$z" -c >"$TMP/twice"
    refused_capture "$TMP/twice" "compressed twice ($z inside $z): decompress the outer layer first" \
        "$z inside $z, named as such, not as malformed"
done
# A file csum does not read is not malformed: the message says what it is, with no offset,
# and the JSON error's kind is unsupported.
printf '\xfd7zXZ\x00rest' >"$TMP/x.pcap.xz"
refused_capture "$TMP/x.pcap.xz" "xz-compressed capture, which csum does not read: decompress it first, e.g. xz -dc FILE | csum pcap verify -" \
    "xz-compressed capture, named as such, not as malformed"
"$CSUM" pcap verify --json "$TMP/x.pcap.xz" 2>/dev/null | grep -q '"error": {"offset": 0, "kind": "unsupported", "message": "xz-compressed capture, which'
check $? "xz-compressed capture with --json: error of kind unsupported"
# Nor is a well-formed capture of a version csum does not read (pcap 3.4, pcapng 2.0): the
# message names the version and the one csum reads, without an offset; the JSON error is of
# kind unsupported, at the version field.
check $(( $(echo "$unsupported" | wc -w) != 2 )) "MANIFEST lists the captures of versions csum does not read ($(echo $unsupported))"
for f in $unsupported; do
    off=$(want_status "$f")
    case $f in
    *.pcapng) want="pcapng version 2.0, which csum does not read: it reads version 1 (1.0, the current one)" ;;
    *) want="pcap version 3.4, which csum does not read: it reads version 2 (2.4, the current one)" ;;
    esac
    refused_capture "$C/$f" "$want" "$f (a version csum does not read), the version named, not malformed"
    "$CSUM" pcap verify --json "$C/$f" 2>/dev/null | grep -q "\"error\": {\"offset\": $off, \"kind\": \"unsupported\", \"message\": \"$want\"}"
    check $? "$f with --json: error of kind unsupported at offset $off"
    "$CSUM" pcap fix "$C/$f" "$TMP/fixed-unsupported" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "fix of $f: exit 2"
    [ ! -e "$TMP/fixed-unsupported" ] && [ "$(cat "$TMP/err")" = "csum: pcap fix: $C/$f: $want" ]
    check $? "fix of $f: no output written, the version named ($(head -c 200 "$TMP/err"))"
done
# A later pcapng section of such a version: the sections before it are walked, the message
# says which section.
cat "$C/clean.pcapng" "$C/bad-ng-version.pcapng" >"$TMP/second.pcapng"
size=$(wc -c <"$C/clean.pcapng")
refused_capture "$TMP/second.pcapng" "pcapng version 2.0 (the section at byte offset $size), which csum does not read: it reads version 1 (1.0, the current one)" \
    "a second pcapng section of version 2.0, with the section's offset"
"$CSUM" pcap verify "$TMP/second.pcapng" >"$TMP/out" 2>/dev/null
"$CSUM" pcap verify "$C/clean.pcapng" | head -n 1 >"$TMP/want"
head -n 1 "$TMP/out" | sed "s|$TMP/second.pcapng|$C/clean.pcapng|" | cmp -s - "$TMP/want"
check $? "a second pcapng section of version 2.0: the first section's packets counted ($(head -c 200 "$TMP/out"))"
"$CSUM" pcap verify --json "$TMP/second.pcapng" 2>/dev/null | grep -q "\"error\": {\"offset\": $((size + 12)), \"kind\": \"unsupported\""
check $? "a second pcapng section of version 2.0 with --json: error of kind unsupported at offset $((size + 12))"
# A zstd frame with a window larger than the decoder's limit (zstd --long=30 from a pipe, whose
# size it does not know) is a well-formed stream csum does not read, not corrupt data.
if "$CSUM" pcap --help | grep -q "zstd: yes" && zstd -q --long=30 -c <"$C/clean.pcap" >"$TMP/long.pcap.zst" 2>/dev/null; then
    refused_capture "$TMP/long.pcap.zst" "zstd frame whose window is larger than the 128 MiB csum decodes (as zstd --long=28 and more write): decompress it first, with zstd -d --long=31" \
        "zstd with a 1 GiB window, not malformed"
    "$CSUM" pcap verify --json "$TMP/long.pcap.zst" 2>/dev/null | grep -q '"error": {"offset": 0, "kind": "unsupported", "message": "zstd frame whose window'
    check $? "zstd with a 1 GiB window with --json: error of kind unsupported"
    zstd -dc --long=31 "$TMP/long.pcap.zst" | "$CSUM" pcap verify - >/dev/null
    check $? "zstd with a 1 GiB window: what the message suggests reads it"
else
    skip "a zstd frame with a 1 GiB window (no zstd, or a build without libzstd)"
fi
# gzip or zstd in a build without zlib or libzstd (the cross builds have no libzstd): said so.
for z in gzip zstd; do
    "$CSUM" pcap --help | grep -q "$z: no" || continue
    lib=$([ $z = gzip ] && echo zlib || echo libzstd)
    if [ $z = gzip ]; then printf '\x1f\x8b\x08\x00rest' >"$TMP/unbuilt"; else printf '\x28\xb5\x2f\xfdrest' >"$TMP/unbuilt"; fi
    refused_capture "$TMP/unbuilt" "$z-compressed capture, but this csum was built without $lib: decompress it first, e.g. $z -dc FILE | csum pcap verify -" \
        "$z-compressed capture in a build without $lib, not malformed, what to do said"
    "$CSUM" pcap fix "$TMP/unbuilt" "$TMP/unbuilt-fixed" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "fix of a $z-compressed capture in a build without $lib: exit 2"
    [ ! -e "$TMP/unbuilt-fixed" ] && [ "$(cat "$TMP/err")" = "csum: pcap fix: $TMP/unbuilt: $z-compressed capture, but this csum was built without $lib: decompress it first, e.g. $z -dc IN | csum pcap fix - - | $z >OUT" ]
    check $? "fix of a $z-compressed capture in a build without $lib: no output, what to do said ($(head -c 300 "$TMP/err"))"
    if command -v "$z" >/dev/null 2>&1; then
        "$z" -c "$C/clean.pcap" >"$TMP/unbuilt.$z"
        "$z" -dc "$TMP/unbuilt.$z" | "$CSUM" pcap verify - >/dev/null
        check $? "$z-compressed capture in a build without $lib: what the message suggests reads it"
    fi
done
# A capture that cannot be read once open (here an I/O error) is not malformed either.
# /proc/self/mem opens, and reading its address 0 fails with EIO (where it does: the guard).
if head -c 1 /proc/self/mem 2>&1 >/dev/null | grep -qE "Input/output error|I/O error"; then
    "$CSUM" pcap verify /proc/self/mem >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "a read error: exit 2"
    # strerror(EIO) as csum's C library words it: glibc's or musl's.
    eio=$(sed -n 's|^csum: pcap verify: /proc/self/mem: cannot read: ||p' "$TMP/err")
    case $eio in "Input/output error"|"I/O error") true ;; *) false ;; esac
    check $? "a read error: said as such, not malformed ($(head -c 200 "$TMP/err"))"
    "$CSUM" pcap verify --json /proc/self/mem 2>/dev/null | grep -q '"error": {"offset": 0, "kind": "system", "message": "cannot read: '
    check $? "a read error with --json: error of kind system"
    # A read that fails after CUT bytes of the file: standard input is /proc/PID/mem of a
    # python3 that maps them right before a page past the end of a file (reading it: EIO).
    # The error's offset counts bytes of the capture after decompression, compressed or not:
    # every byte read is walked, and the packets before the failure are those of the capture
    # cut there (gzip: at what zlib gives for the CUT compressed bytes).
    if command -v python3 >/dev/null 2>&1; then
        cat >"$TMP/eio.py" <<'PY'
import ctypes, mmap, os, subprocess, sys, tempfile
csum, path, cut = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(path, "rb").read()[:cut]
pad = -len(data) % mmap.PAGESIZE
with tempfile.TemporaryFile() as f:
    f.write(b"\0" * pad + data)
    f.flush()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                          ctypes.c_int, ctypes.c_long]
    addr = libc.mmap(None, pad + len(data) + mmap.PAGESIZE, mmap.PROT_READ, mmap.MAP_SHARED,
                     f.fileno(), 0)
    assert addr not in (None, ctypes.c_void_p(-1).value), os.strerror(ctypes.get_errno())
    fd = os.open("/proc/self/mem", os.O_RDONLY)
    os.lseek(fd, addr + pad, os.SEEK_SET)
    r = subprocess.run([csum, "pcap", "verify", "--json", "-"], stdin=fd, capture_output=True)
sys.stdout.buffer.write(r.stdout)
sys.stderr.buffer.write(r.stderr)
sys.exit(r.returncode)
PY
        read_error_files="$C/clean.pcap"
        case " $compressors " in
        *" gzip "*) gzip -c "$C/clean.pcap" >"$TMP/clean.pcap.gz"
                    read_error_files="$read_error_files $TMP/clean.pcap.gz" ;;
        *) skip "a read error in a gzip-compressed capture (gzip, or zlib in this build, missing)" ;;
        esac
        for cut in 3 5000 20000; do
            for f in $read_error_files; do
                python3 "$TMP/eio.py" "$CSUM" "$f" "$cut" >"$TMP/out" 2>"$TMP/err"
                check $(( $? != 2 )) "a read error after $cut bytes of ${f##*/}: exit 2"
                case $f in
                *.gz) want=$(python3 -c 'import sys, zlib; print(len(zlib.decompressobj(31).decompress(open(sys.argv[1], "rb").read()[:int(sys.argv[2])])))' "$f" "$cut")
                      msg="cannot read: $eio (after $cut compressed bytes)" ;;
                *) want=$cut; msg="cannot read: $eio" ;;
                esac
                [ "$(cat "$TMP/err")" = "csum: pcap verify: -: $msg" ]
                check $? "a read error after $cut bytes of ${f##*/}: said so ($(head -c 200 "$TMP/err"))"
                grep -q "\"error\": {\"offset\": $want, \"kind\": \"system\", \"message\": \"$msg\"}" "$TMP/out"
                check $? "a read error after $cut bytes of ${f##*/}: error.offset $want, in the capture after decompression ($(grep '"error"' "$TMP/out" | head -c 200))"
                head -c "$want" "$C/clean.pcap" | "$CSUM" pcap verify --json - 2>/dev/null | grep -o '"packets": [0-9]*' >"$TMP/want"
                grep -o '"packets": [0-9]*' "$TMP/out" | cmp -s - "$TMP/want"
                check $? "a read error after $cut bytes of ${f##*/}: the packets before it walked ($(cat "$TMP/want"))"
            done
        done
    fi
fi
# ... and what to run instead, for what was asked: verify says how to verify it, fix how to fix
# it (into a capture compressed the same way), and what they suggest does that.
for z in xz bzip2 lz4; do
    if ! command -v "$z" >/dev/null; then
        skip "the command suggested for a $z-compressed capture ($z not found)"
        continue
    fi
    "$z" -c "$C/ethernet-le-usec.pcap" >"$TMP/in.$z"
    "$CSUM" pcap verify "$TMP/in.$z" >/dev/null 2>"$TMP/err"
    grep -q ": decompress it first, e.g. $z -dc FILE | csum pcap verify -$" "$TMP/err"
    check $? "verify of a $z-compressed capture: suggests a verify ($(head -c 300 "$TMP/err"))"
    "$CSUM" pcap fix "$TMP/in.$z" "$TMP/out.$z" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "fix of a $z-compressed capture: exit 2"
    cmd=$(sed -n 's/.*: decompress it first, e.g. \(.* | csum pcap fix - - | .*\)$/\1/p' "$TMP/err")
    [ "$cmd" = "$z -dc IN | csum pcap fix - - | $z >OUT" ]
    check $? "fix of a $z-compressed capture: suggests a fix ($(head -c 300 "$TMP/err"))"
    rm -f "$TMP/out.$z"
    "$z" -dc "$TMP/in.$z" | "$CSUM" pcap fix - - 2>/dev/null | "$z" >"$TMP/out.$z" # as suggested
    "$CSUM" pcap fix "$C/ethernet-le-usec.pcap" "$TMP/want.pcap" >/dev/null
    "$z" -dc "$TMP/out.$z" 2>/dev/null | cmp -s - "$TMP/want.pcap"
    check $? "fix of a $z-compressed capture: the suggested command writes the fixed capture, $z-compressed"
done

# ---- hostile input ------------------------------------------------------------------------
# Damaged copies of every capture: any verdict, but never a crash or a hang. They go through
# a pipe, read into the reader's window, where a sanitizer build sees a read past the end.
rounds=$([ "$QUICK" = "--quick" ] && echo 4 || echo 20)
crashes=0
for f in $captures $malformed $unsupported; do
    for seed in $(seq 1 "$rounds"); do
        "$GEN" --mutate "$C/$f" "$TMP/mutated" "$seed" || continue
        timeout 20 "$CSUM" pcap verify --all - <"$TMP/mutated" >/dev/null 2>"$TMP/err"
        rc=$?
        # A sanitizer build reports with status 1: look for its report too.
        if [ "$rc" -gt 2 ] || grep -q -e 'Sanitizer' -e 'runtime error' "$TMP/err"; then
            crashes=$((crashes + 1))
            cp "$TMP/mutated" "$TMP/crash-$crashes"
            fail "mutated $f (seed $seed): exit $rc"
        fi
    done
done
[ "$crashes" -eq 0 ] && ok

# ---- fix ------------------------------------------------------------------------------------
for f in $captures; do
    mapfile -t opts < <(options_of "$f")
    in="$C/$f" out="$TMP/fixed-$f"
    "$CSUM" pcap fix --dry-run "${opts[@]}" "$in" >"$TMP/dry" 2>&1
    check $? "fix --dry-run $f: exit status"
    "$CSUM" pcap fix "${opts[@]}" "$in" "$out" >"$TMP/fixout" 2>&1
    check $? "fix $f: exit status ($(head -c 200 "$TMP/fixout"))"
    diff <(grep '^frame' "$TMP/dry" | sed 's/ (dry run)//') <(grep '^frame' "$TMP/fixout") >/dev/null
    check $? "fix $f: --dry-run lists the same changes"
    nbad=$(grep -c ' bad ' "$C/$f.expect")
    check $(( $(grep -c '^frame' "$TMP/fixout") < nbad )) "fix $f: at least the $nbad bad checksums changed"
    "$CSUM" pcap verify --all "${opts[@]}" "$out" >"$TMP/after" 2>&1
    check $? "fix $f: the fixed capture verifies clean ($(grep -m2 'checksum bad' "$TMP/after" | tr '\n' ' '))"
    # As many checksums as before: a fix never stores a value that says "none" (a UDP or ICMP
    # extension checksum computing to 0 is stored as 0xffff).
    check $(( $(normalize <"$TMP/after" | wc -l) != $(wc -l <"$C/$f.expect") )) "fix $f: $(normalize <"$TMP/after" | wc -l) checksums after the fix, $(wc -l <"$C/$f.expect") before"
    # Only checksum bytes changed: every differing byte lies in a checksum field.
    "$CSUM" pcap verify --json --all "${opts[@]}" "$in" | grep -o '"offset": [0-9]*' |
        awk '{ print $2 }' >"$TMP/starts"
    awk '{ print $1; print $1 + 1 }' "$TMP/starts" | sort -u >"$TMP/fields"
    cmp -l "$in" "$out" | awk '{ print $1 - 1 }' | sort -u >"$TMP/changed"
    # But the FCS at the end of an 802.11 frame behind a radio header (radiotap, PPI), which
    # fix computes again when it was right: the last 4 bytes of those frames ("BYTE FIELD").
    nfcs=0
    if command -v python3 >/dev/null 2>&1; then
        python3 - "$in" <<'PY' | sort -u >"$TMP/fcs-pairs"
import struct, sys
b = open(sys.argv[1], "rb").read()
def last4(end):
    for i in range(end - 4, end):
        print(i, end - 4)
if b[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
    e = "<" if b[0] in (0xd4, 0x4d) else ">"
    radio = struct.unpack_from(e + "I", b, 20)[0] & 0xffff in (127, 192)
    off = 24
    while off + 16 <= len(b):
        cap = struct.unpack_from(e + "I", b, off + 8)[0]
        if radio and off + 16 + cap <= len(b):
            last4(off + 16 + cap)
        off += 16 + cap
else:
    off, e, types = 0, "<", []
    while off + 12 <= len(b):
        t = struct.unpack_from(e + "I", b, off)[0]
        if t == 0x0a0d0d0a:
            e = "<" if b[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            types = []
        n = struct.unpack_from(e + "I", b, off + 4)[0]
        if n < 12:
            break
        if t == 1:
            types.append(struct.unpack_from(e + "H", b, off + 8)[0])
        elif t in (6, 2) and off + 28 <= len(b):
            i = struct.unpack_from(e + "I", b, off + 8)[0] if t == 6 else struct.unpack_from(e + "H", b, off + 8)[0]
            cap = struct.unpack_from(e + "I", b, off + 20)[0]
            if i < len(types) and types[i] in (127, 192):
                last4(off + 28 + cap)
        elif t == 3 and types and types[0] in (127, 192):
            last4(off + 12 + min(struct.unpack_from(e + "I", b, off + 8)[0], n - 16))
        off += n
PY
        cut -d' ' -f1 "$TMP/fcs-pairs" | sort -u >"$TMP/fcs-bytes"
        # FCS fields rewritten: each is listed once, as "frame N: fcs OLD -> NEW"
        nfcs=$(awk 'NR == FNR { field[$1] = $2; next } $1 in field { print field[$1] }' \
            "$TMP/fcs-pairs" "$TMP/changed" | sort -u | wc -l)
        sort -u "$TMP/fields" "$TMP/fcs-bytes" -o "$TMP/fields"
        comm -23 "$TMP/changed" "$TMP/fcs-bytes" >"$TMP/changed-fields"
        mv "$TMP/changed-fields" "$TMP/changed"
    fi
    check $(( $(comm -23 "$TMP/changed" "$TMP/fields" | wc -l) != 0 )) "fix $f: bytes outside checksum fields changed"
    # Only the listed checksums changed: one changed field per line, none silently (a good
    # checksum, an ICMP 0xffff for 0x0000, is left as it is); and so for the FCSs.
    nfields=$(awk 'NR == FNR { start[$1] = 1; next } { print ($1 in start) ? $1 : $1 - 1 }' \
        "$TMP/starts" "$TMP/changed" | sort -u | wc -l)
    nlisted=$(grep -cE '^frame [0-9]+: (outer|inner) [a-z0-9-]+ checksum ' "$TMP/fixout")
    check $(( nfields != nlisted )) "fix $f: $nfields checksum fields changed, $nlisted listed"
    nlisted_fcs=$(grep -cE '^frame [0-9]+: fcs 0x[0-9a-f]{8} -> 0x[0-9a-f]{8}$' "$TMP/fixout")
    check $(( nfcs != nlisted_fcs )) "fix $f: $nfcs FCS fields changed, $nlisted_fcs listed"
    check $(( $(grep -c '^frame' "$TMP/fixout") != nlisted + nlisted_fcs )) "fix $f: a listed change of another form: $(grep '^frame' "$TMP/fixout" | grep -vE ' checksum | fcs ' | head -2 | tr '\n' ' ')"
    counted="$nlisted checksum$( [ "$nlisted" = 1 ] || echo s) and $nlisted_fcs FCS$( [ "$nlisted_fcs" = 1 ] || echo s)"
    grep -q ": [0-9]* packets, fixed $counted; left alone: " "$TMP/fixout"
    check $? "fix $f: the summary counts $counted ($(tail -1 "$TMP/fixout"))"
    # ... and names the packets it could not look into (skipped, not dissected), as verify's does
    want=$("$CSUM" pcap verify "${opts[@]}" "$in" | tail -1 | sed 's/^[^;]*; checksums: [^;]*//')
    got=$(tail -1 "$TMP/fixout" | sed 's/^.*; left alone: [0-9]* not checkable, [0-9]* offload\( (--fix-offload replaces them)\)\{0,1\}//')
    check $(( $(skipped_in "$f") > 0 && ${#want} == 0 )) "verify $f: its summary names the $(skipped_in "$f") packets skipped"
    [ "$got" = "$want" ]
    check $? "fix $f: its summary names the packets not looked into as verify's does ('$got', verify: '$want')"
    check $(( $(stat -c %s "$in") != $(stat -c %s "$out") )) "fix $f: size changed"
    # Not-checkable and offload verdicts are left as they were.
    normalize <"$TMP/after" | grep -E ' (not_checkable|offload)' | sort >"$TMP/left-after"
    grep -E ' (not_checkable|offload)' "$C/$f.expect" | sort | diff - "$TMP/left-after" >/dev/null
    check $? "fix $f: not-checkable and offload checksums changed"
done
# UDP-Lite inside tunnels (and under MPLS) is checked as outside, by the same transport
# dispatch, and fix stores the oracle's value there: after the fix, every bad one is good with
# the value the .expect file computed.
u=udplite-tunnels.pcap
for via in ip gre erspan vxlan vxlan-gpe geneve; do
    n=$(awk -v v="$via" '$2 == "inner" && $3 == "udplite" && $4 == "bad" && $NF == v' "$C/$u.expect" | wc -l)
    check $(( n == 0 )) "$u: holds bad UDP-Lite checksums inside $via"
done
awk '$3 == "udplite" && $4 == "bad" { print $1, $2, $3, "good", $6, $7 }' "$C/$u.expect" | sort >"$TMP/want"
"$CSUM" pcap verify --all "$TMP/fixed-$u" | normalize | awk '$3 == "udplite" && $4 == "good"' | sort |
    comm -23 "$TMP/want" - >"$TMP/diff"
check $(( $(wc -l <"$TMP/want") < 20 || $(wc -l <"$TMP/diff") != 0 )) "fix $u: every bad UDP-Lite checksum, inner ones too, now good with the oracle's value ($(head -3 "$TMP/diff" | tr '\n' ' '))"
# Without --fix-offload, fix's summary says how to replace the placeholders it left (a
# loopback capture may hold nothing else); with it, or with none left, it does not.
"$CSUM" pcap fix -n "$C/offload.pcap" >"$TMP/out" 2>&1
tail -1 "$TMP/out" | grep -qE '; left alone: [0-9]+ not checkable, [1-9][0-9]* offload \(--fix-offload replaces them\)'
check $? "fix of placeholders without --fix-offload: the summary names --fix-offload ($(tail -1 "$TMP/out"))"
"$CSUM" pcap fix -n --fix-offload "$C/offload.pcap" >"$TMP/out" 2>&1
! tail -1 "$TMP/out" | grep -q -- '--fix-offload replaces'
check $? "fix --fix-offload: the summary does not name it ($(tail -1 "$TMP/out"))"
# --fix-offload: placeholders replaced by the computed values.
"$CSUM" pcap fix --fix-offload "$C/offload.pcap" "$TMP/offload-fixed.pcap" >/dev/null
"$CSUM" pcap verify --strict "$TMP/offload-fixed.pcap" >"$TMP/out" 2>"$TMP/err"
check $? "fix --fix-offload: the capture then verifies strictly clean ($(tail -1 "$TMP/out"))"
check $(( $(wc -c <"$TMP/err") != 0 )) "verify --strict of a capture all checked: nothing on stderr ($(head -c 200 "$TMP/err"))"
# --strict says what it found unchecked (without a bad checksum the summary alone does not say
# which count failed the run); a bad checksum is reason enough, and it says nothing more.
"$CSUM" pcap verify --strict "$C/offload.pcap" >/dev/null 2>"$TMP/err"
n=$(grep -c ' offload ' "$C/offload.pcap.expect")
[ "$(cat "$TMP/err")" = "csum: pcap verify: $C/offload.pcap: --strict: not all checked: $n offload placeholders" ]
check $? "verify --strict of placeholders: says so ($(head -c 200 "$TMP/err"))"
bad=$(for f in $captures; do grep -q ' bad ' "$C/$f.expect" && [ -z "$(options_of "$f")" ] && { echo "$f"; break; }; done)
"$CSUM" pcap verify --strict "$C/$bad" >/dev/null 2>"$TMP/err"
check $(( $? != 1 )) "verify --strict of $bad (a bad checksum): exit 1"
! grep -q -- '--strict' "$TMP/err"
check $? "verify --strict of $bad: a bad checksum is reason enough, --strict says nothing ($(head -c 200 "$TMP/err"))"

# Refusing to overwrite the input, by any name.
cp "$C/truncated.pcap" "$TMP/in.pcap"
sum_before=$(cksum <"$TMP/in.pcap")
ln "$TMP/in.pcap" "$TMP/hardlink.pcap"
ln -s "$TMP/in.pcap" "$TMP/symlink.pcap"
mkdir -p "$TMP/sub"
for target in "$TMP/in.pcap" "$TMP/./in.pcap" "$TMP/sub/../in.pcap" "$TMP/hardlink.pcap" "$TMP/symlink.pcap"; do
    "$CSUM" pcap fix "$TMP/in.pcap" "$target" >"$TMP/out" 2>"$TMP/err"
    check $(( $? != 2 )) "fix IN -> $target: must refuse (exit 2)"
    grep -q "refusing to overwrite the input" "$TMP/err"
    check $? "fix IN -> $target: message ($(head -c 200 "$TMP/err"))"
    check $(( $(wc -c <"$TMP/out") != 0 )) "fix IN -> $target: refused before reading (nothing listed)"
done
check $(( $(cksum <"$TMP/in.pcap" | cut -d' ' -f1) != $(echo "$sum_before" | cut -d' ' -f1) )) "input unchanged after refused fixes"
# OUT that cannot be written: refused before anything is read or listed.
"$CSUM" pcap fix "$C/ethernet-le-usec.pcap" "$TMP/no-such-dir/out.pcap" >"$TMP/out" 2>"$TMP/err"
check $(( $? != 2 )) "fix into a missing directory: exit 2"
check $(( $(wc -c <"$TMP/out") != 0 )) "fix into a missing directory: refused before reading"
echo original >"$TMP/readonly.pcap"
chmod 444 "$TMP/readonly.pcap"
if [ "$(id -u)" -ne 0 ]; then
    "$CSUM" pcap fix "$C/ethernet-le-usec.pcap" "$TMP/readonly.pcap" >"$TMP/out" 2>"$TMP/err"
    check $(( $? != 2 )) "fix onto a read-only OUT: exit 2"
    check $(( $(wc -c <"$TMP/out") != 0 )) "fix onto a read-only OUT: refused before reading"
    grep -qx original "$TMP/readonly.pcap"
    check $? "fix onto a read-only OUT: OUT unchanged"
    mkdir "$TMP/ro-dir" && chmod 555 "$TMP/ro-dir"
    "$CSUM" pcap fix "$C/ethernet-le-usec.pcap" "$TMP/ro-dir/out.pcap" >"$TMP/out" 2>"$TMP/err"
    check $(( $? != 2 )) "fix into a read-only directory: exit 2"
    check $(( $(wc -c <"$TMP/out") != 0 )) "fix into a read-only directory: refused before reading"
else
    skip "read-only OUT and directory refusals (running as root, which may write anyway)"
fi
"$CSUM" pcap fix "$C/ethernet-le-usec.pcap" "$TMP" >/dev/null 2>&1
check $(( $? != 2 )) "fix onto a directory: exit 2"
ls "$TMP"/.csum-tmp-* "$TMP"/*/.csum-tmp-* >/dev/null 2>&1
check $(( $? == 0 )) "no temporary files left behind"
"$CSUM" pcap fix "$TMP/in.pcap" "$TMP/out-existing.pcap" >/dev/null && \
    "$CSUM" pcap fix "$TMP/in.pcap" "$TMP/out-existing.pcap" >/dev/null
check $? "fix over an existing (different) output file"
# OUT's mode: an existing OUT keeps its own (and its owner), a new one gets IN's less the umask.
cp "$TMP/in.pcap" "$TMP/in-mode.pcap"
chmod 644 "$TMP/in-mode.pcap"
echo private >"$TMP/private.pcap"
chmod 600 "$TMP/private.pcap"
"$CSUM" pcap fix "$TMP/in-mode.pcap" "$TMP/private.pcap" >/dev/null
check $(( $(stat -c %a "$TMP/private.pcap") != 600 )) "fix over an existing OUT of mode 600: kept ($(stat -c %a "$TMP/private.pcap"))"
chmod 640 "$TMP/in-mode.pcap"
rm -f "$TMP/new-mode.pcap"
(umask 022 && "$CSUM" pcap fix "$TMP/in-mode.pcap" "$TMP/new-mode.pcap" >/dev/null)
check $(( $(stat -c %a "$TMP/new-mode.pcap") != 640 )) "fix to a new OUT: IN's mode 640 ($(stat -c %a "$TMP/new-mode.pcap"))"
rm -f "$TMP/new-mode.pcap"
(umask 077 && "$CSUM" pcap fix "$TMP/in-mode.pcap" "$TMP/new-mode.pcap" >/dev/null)
check $(( $(stat -c %a "$TMP/new-mode.pcap") != 600 )) "fix to a new OUT under umask 077: 600 ($(stat -c %a "$TMP/new-mode.pcap"))"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
    chown nobody "$TMP/private.pcap"
    "$CSUM" pcap fix "$TMP/in-mode.pcap" "$TMP/private.pcap" >/dev/null
    check $(( $(stat -c '%U %a' "$TMP/private.pcap" | grep -c '^nobody 600$') != 1 )) "fix over another user's OUT (as root): owner and mode kept ($(stat -c '%U %a' "$TMP/private.pcap"))"
fi
# Standard input and output.
"$CSUM" pcap fix "$C/ethernet-le-usec.pcap" "$TMP/ref.pcap" >/dev/null
"$CSUM" pcap fix - "$TMP/from-stdin.pcap" <"$C/ethernet-le-usec.pcap" >/dev/null
cmp -s "$TMP/ref.pcap" "$TMP/from-stdin.pcap"
check $? "fix - OUT (standard input)"
"$CSUM" pcap fix "$C/ethernet-le-usec.pcap" - >"$TMP/to-stdout.pcap" 2>"$TMP/err"
cmp -s "$TMP/ref.pcap" "$TMP/to-stdout.pcap"
check $? "fix IN - (standard output, the list on stderr)"
grep -q '^frame ' "$TMP/err"
check $? "fix IN -: the changes listed on stderr"
# A reader of the list that goes away (| head) stops the list, not the fix; a list that cannot
# be written is said, with OUT written all the same. Standard input opened on OUT is IN.
"$GEN" --write "$TMP/many-bad.pcap" --count 5000 --corrupt 100 # a list far beyond a pipe's buffer
"$CSUM" pcap fix "$TMP/many-bad.pcap" "$TMP/many-ref.pcap" >/dev/null
"$CSUM" pcap fix "$TMP/many-bad.pcap" "$TMP/headed.pcap" 2>"$TMP/err" | head -1 >/dev/null
check "${PIPESTATUS[0]}" "fix IN OUT | head -1: exit 0 ($(head -c 200 "$TMP/err"))"
cmp -s "$TMP/many-ref.pcap" "$TMP/headed.pcap"
check $? "fix IN OUT | head -1: OUT complete"
if [ -w /dev/full ]; then
    "$CSUM" pcap fix "$C/ethernet-le-usec.pcap" "$TMP/full.pcap" >/dev/full 2>"$TMP/err"
    check $(( $? != 2 )) "fix IN OUT >/dev/full: exit 2"
    grep -q "full.pcap was written, but the list of changes could not be: No space left" "$TMP/err"
    check $? "fix IN OUT >/dev/full: says so, once ($(head -c 300 "$TMP/err"))"
    check $(( $(wc -l <"$TMP/err") != 1 )) "fix IN OUT >/dev/full: one message"
    cmp -s "$TMP/ref.pcap" "$TMP/full.pcap"
    check $? "fix IN OUT >/dev/full: OUT written"
fi
# ... and after a failure, that reader gone adds nothing to the failure's own message.
{ cat "$TMP/many-bad.pcap"; printf '\000\000\000\000\000\000\000\000\360\377\377\377\360\377\377\377'; } >"$TMP/many-bad-broken.pcap"
"$CSUM" pcap fix "$TMP/many-bad-broken.pcap" "$TMP/headed.pcap" 2>"$TMP/err" | head -1 >/dev/null
check $(( ${PIPESTATUS[0]} != 2 )) "fix of a malformed IN | head -1: exit 2"
check $(( $(wc -l <"$TMP/err") != 1 )) "fix of a malformed IN | head -1: one message ($(tr '\n' ' ' <"$TMP/err" | head -c 300))"
# A device OUT that standard input also is: nothing is replaced, so nothing is refused.
"$CSUM" pcap fix - /dev/null </dev/null >/dev/null 2>"$TMP/err"
! grep -q "refusing" "$TMP/err"
check $? "fix - /dev/null </dev/null: not refused as the input ($(head -c 200 "$TMP/err"))"
cp "$C/ethernet-le-usec.pcap" "$TMP/same.pcap"
"$CSUM" pcap fix - "$TMP/same.pcap" <"$TMP/same.pcap" >/dev/null 2>"$TMP/err"
check $(( $? != 2 )) "fix - OUT <OUT: refused"
cmp -s "$C/ethernet-le-usec.pcap" "$TMP/same.pcap"
check $? "fix - OUT <OUT: OUT unchanged"

# ---- FCS at the end of the frame: from the pcap header's FCS bits, pcapng's if_fcslen or a
# packet's flags; an IPv4 length of 0 makes the transport end where the frame does, before it
if command -v python3 >/dev/null 2>&1; then
    python3 - "$TMP" <<'PY'
import struct, sys
d = sys.argv[1]
def csum(b):
    b += b"\0" * (len(b) & 1)
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff
src, dst = bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])
tcp = bytearray(struct.pack("!HHIIBBHHH", 1234, 80, 1, 0, 0x50, 0x18, 512, 0, 0) + b"payload!")
struct.pack_into("!H", tcp, 16, csum(src + dst + struct.pack("!BBH", 0, 6, len(tcp)) + bytes(tcp)))
ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 0, 0, 1, 0, 64, 6, 0, src, dst))
struct.pack_into("!H", ip, 10, csum(bytes(ip)))
frame = b"\x02" * 12 + b"\x08\x00" + bytes(ip) + bytes(tcp) + b"\xde\xad\xbe\xef"  # FCS
rec = struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame
field = 1 | 0x04000000 | (2 << 28)  # Ethernet, FCS length known: 2 16-bit words
open(d + "/fcs.pcap", "wb").write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, field) + rec)
def block(t, body):
    body += b"\0" * (-len(body) % 4)
    return struct.pack("<II", t, len(body) + 12) + body + struct.pack("<I", len(body) + 12)
shb = block(0x0a0d0d0a, struct.pack("<IHHq", 0x1a2b3c4d, 1, 0, -1))
def idb(opts):
    return block(1, struct.pack("<HHI", 1, 0, 0) + opts)
def epb(opts):
    data = frame + b"\0" * (-len(frame) % 4)  # packet data padded to 32 bits, then options
    return block(6, struct.pack("<IIIII", 0, 0, 0, len(frame), len(frame)) + data + opts)
end = struct.pack("<HH", 0, 0)
fcslen = struct.pack("<HHB3x", 13, 1, 4) + end
flags = struct.pack("<HHI", 2, 4, 4 << 5) + end
open(d + "/fcs-ifopt.pcapng", "wb").write(shb + idb(fcslen) + epb(b""))
open(d + "/fcs-flags.pcapng", "wb").write(shb + idb(b"") + epb(flags))
open(d + "/fcs-none.pcapng", "wb").write(shb + idb(b"") + epb(b""))
# 802.11 behind a radio header that says the frame has its FCS: radiotap's Flags, PPI's
# 802.11-Common field (TSF timer, then Flags 0x0001).
wlan = b"\x08\x02" + b"\x00" * 2 + b"\x02" * 18 + b"\x00\x00" + b"\xaa\xaa\x03\x00\x00\x00\x08\x00"
wlan += bytes(ip) + bytes(tcp) + b"\xde\xad\xbe\xef"
def pcap(linktype, frame):
    return (struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, linktype) +
            struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame)
radiotap = struct.pack("<BBHI", 0, 0, 9, 0x2) + b"\x10"  # Flags only: FCS at the end
ppi = struct.pack("<BBHI", 0, 0, 32, 105) + struct.pack("<HH", 2, 20) + b"\0" * 8 + \
    struct.pack("<HHHHBBbb", 1, 108, 2437, 0xc0, 0, 0, -60, -90)
open(d + "/fcs-radiotap.pcap", "wb").write(pcap(127, radiotap + wlan))
open(d + "/fcs-ppi.pcap", "wb").write(pcap(192, ppi + wlan))
PY
    for f in fcs.pcap fcs-ifopt.pcapng fcs-flags.pcapng fcs-radiotap.pcap fcs-ppi.pcap; do
        "$CSUM" pcap verify --all "$TMP/$f" >"$TMP/out" 2>&1
        grep -q "frame 1: outer tcp checksum good" "$TMP/out"
        check $? "verify $f: the FCS is not part of the segment ($(head -c 300 "$TMP/out"))"
    done
    "$CSUM" pcap verify --all "$TMP/fcs-none.pcapng" >"$TMP/out" 2>&1
    grep -q "frame 1: outer tcp checksum offload" "$TMP/out"
    check $? "verify fcs-none.pcapng: without a length, the FCS is summed ($(head -c 300 "$TMP/out"))"
    # fix keeps a right FCS right (the CRC-32 of IEEE 802.3, computed again over the fixed
    # frame) and leaves a wrong one, a frame cut before its end and a frame with nothing to fix
    # alone, in pcap and pcapng (gzip too): the corpus' captures, with an FCS added.
    python3 - "$C/ethernet-le-usec.pcap" "$TMP" <<'PY'
import struct, sys, zlib
data, d = open(sys.argv[1], "rb").read(), sys.argv[2]
recs, off = [], 24
while off < len(data):
    caplen, wirelen = struct.unpack_from("<II", data, off + 8)
    frame = data[off + 16:off + 16 + caplen]
    off += 16 + caplen
    if caplen == wirelen:
        fcs = struct.pack("<I", zlib.crc32(frame))
        if len(recs) % 5 == 4:
            fcs = b"\xde\xad\xbe\xef"  # wrong: left as it is
        recs.append(frame + fcs)
field = 1 | 0x04000000 | (2 << 28)
out = bytearray(data[:20] + struct.pack("<I", field))
for i, f in enumerate(recs):
    cap = len(f) - 3 if i % 7 == 6 else len(f)  # cut: the FCS not captured
    out += struct.pack("<IIII", i, 0, cap, len(f)) + f[:cap]
open(d + "/fcs-fix.pcap", "wb").write(out)
PY
    "$CSUM" pcap fix "$TMP/fcs-fix.pcap" "$TMP/fcs-fixed.pcap" >"$TMP/fcs-fix.out" 2>&1
    "$CSUM" pcap fix --dry-run "$TMP/fcs-fix.pcap" >"$TMP/fcs-dry.out" 2>&1
    python3 - "$TMP/fcs-fix.pcap" "$TMP/fcs-fixed.pcap" "$TMP/fcs-fix.out" "$TMP/fcs-dry.out" <<'PY' >"$TMP/pyout" 2>&1
import re, struct, sys, zlib
a, b = (open(p, "rb").read() for p in sys.argv[1:3])
out, dry = (open(p).read() for p in sys.argv[3:5])
assert len(a) == len(b)
off, frame, kept, redone, changed, rewritten = 24, 0, 0, 0, 0, []
while off < len(a):
    cap, wire = struct.unpack_from("<II", a, off + 8)
    fa, fb = a[off + 16:off + 16 + cap], b[off + 16:off + 16 + cap]
    off += 16 + cap
    frame += 1
    right = cap == wire and zlib.crc32(fa[:-4]) == struct.unpack("<I", fa[-4:])[0]
    if fa == fb:
        continue
    changed += 1
    if right:
        assert zlib.crc32(fb[:-4]) == struct.unpack("<I", fb[-4:])[0], "FCS not recomputed"
        redone += 1
        rewritten.append("frame %d: fcs 0x%s -> 0x%s" % (frame, fa[-4:].hex(), fb[-4:].hex()))
    else:
        assert fa[-4:] == fb[-4:], "a wrong or cut FCS was changed"
        kept += 1
assert redone > 10 and kept > 3, (redone, kept)
# Each FCS rewritten is listed, old and new bytes in network order (as checksums are), after
# the frame's checksums; the summary counts them; a dry run lists the same.
listed = re.findall(r"^frame \d+: fcs .*$", out, re.M)
assert listed == rewritten, (listed[:2], rewritten[:2])
lines = out.splitlines()
for line in listed:
    i = lines.index(line)
    assert i > 0 and lines[i - 1].split(":")[0] == line.split(":")[0] and " checksum " in lines[i - 1], line
assert re.search(r": \d+ packets, fixed \d+ checksums? and %d FCSs?; " % redone, out), out.splitlines()[-1]
assert [l.replace(" (dry run)", "") for l in re.findall(r"^frame \d+: fcs .*$", dry, re.M)] == listed
assert re.search(r": \d+ packets, would fix \d+ checksums? and %d FCSs?; " % redone, dry), dry.splitlines()[-1]
print("fixed frames: %d FCS recomputed and listed, %d wrong or cut ones kept" % (redone, kept))
PY
    check $? "fix of frames with an FCS: a right one recomputed and listed, others left ($(tail -1 "$TMP/pyout"))"
    if command -v tshark >/dev/null 2>&1; then # the values as tshark shows them (eth.fcs)
        for g in fcs-fix fcs-fixed; do
            tshark -n -r "$TMP/$g.pcap" -T fields -e frame.number -e eth.fcs 2>/dev/null |
                awk 'NF == 2' >"$TMP/$g.eth"
        done
        awk 'NR == FNR { before[$1] = $2; next }
             ($1 in before) && before[$1] != $2 { printf "frame %d: fcs %s -> %s\n", $1, before[$1], $2 }' \
            "$TMP/fcs-fix.eth" "$TMP/fcs-fixed.eth" >"$TMP/fcs-want"
        grep -E '^frame [0-9]+: fcs ' "$TMP/fcs-fix.out" | diff "$TMP/fcs-want" - >"$TMP/fcs-diff"
        [ -s "$TMP/fcs-want" ] && [ ! -s "$TMP/fcs-diff" ]
        check $? "fix of frames with an FCS: each listed with tshark's eth.fcs before and after ($(head -4 "$TMP/fcs-diff" | tr '\n' ' '))"
    fi
    "$CSUM" pcap verify "$TMP/fcs-fixed.pcap" >/dev/null 2>&1
    check $? "fix of frames with an FCS: the fixed capture verifies clean"
    if [[ " $compressors " == *" gzip "* ]]; then # gzip found, and csum reads it (above)
        gzip -c "$TMP/fcs-fix.pcap" >"$TMP/fcs-fix.pcap.gz"
        "$CSUM" pcap fix "$TMP/fcs-fix.pcap.gz" "$TMP/fcs-fixed.pcap.gz" >/dev/null 2>&1 &&
            gzip -dc "$TMP/fcs-fixed.pcap.gz" | cmp -s - "$TMP/fcs-fixed.pcap"
        check $? "fix of frames with an FCS, gzip-compressed: the same FCS"
    fi
fi

# The FCS of an 802.11 frame behind a radio header that says it has one (radiotap's Flags,
# PPI's 802.11-Common field), over the 802.11 frame only: fix keeps a right one right and
# leaves a wrong one alone, as tshark's FCS check says frame by frame before and after.
# fix lists each FCS it computes again, before and after: tshark's wlan.fcs, whose bytes are
# reversed (the CRC-32 as a number; fix lists the bytes in network order, as eth.fcs shows them).
wlan_fcs() { # wlan_fcs FILE: "FRAME FCS-STATUS MD5 FCS" for the frames with an FCS
    tshark -n -r "$1" -o wlan.check_checksum:TRUE -o frame.generate_md5_hash:TRUE -T fields \
        -e frame.number -e wlan.fcs.status -e frame.md5_hash -e wlan.fcs 2>/dev/null | awk 'NF == 4'
}
if command -v tshark >/dev/null 2>&1; then
    for f in radiotap.pcap ppi.pcap; do
        "$CSUM" pcap fix "$C/$f" "$TMP/fcs-$f" >"$TMP/fcs-fix.out" 2>&1
        wlan_fcs "$C/$f" >"$TMP/fcs-before"
        wlan_fcs "$TMP/fcs-$f" >"$TMP/fcs-after"
        paste -d ' ' "$TMP/fcs-before" "$TMP/fcs-after" | awk '$1 == $5 { print $1, $2, $3, $6, $7, $4, $8 }' |
            awk '$2 != $4 { print "frame " $1 ": FCS status " $2 " became " $4; bad++ }
                 $2 == 1 && $3 != $5 { redone++ } $2 == 0 && $3 != $5 { kept++ }
                 END { if (redone < 3 || kept < 1)
                           printf "too few fixed frames with an FCS: %d right, %d wrong\n", redone, kept
                       else if (!bad) print "ok: " redone " right FCSs recomputed, " kept " wrong ones kept" }' \
            >"$TMP/fcs-diff"
        [ "$(wc -l <"$TMP/fcs-before")" -gt 10 ] && grep -q '^ok: ' "$TMP/fcs-diff"
        check $? "fix of $f: the 802.11 FCS as tshark checks it ($(head -3 "$TMP/fcs-diff" | tr '\n' ' '))"
        paste -d ' ' "$TMP/fcs-before" "$TMP/fcs-after" |
            awk 'function net(x) { return "0x" substr(x, 9, 2) substr(x, 7, 2) substr(x, 5, 2) substr(x, 3, 2) }
                 $1 == $5 && $4 != $8 { printf "frame %d: fcs %s -> %s\n", $1, net($4), net($8) }' >"$TMP/fcs-want"
        grep -E '^frame [0-9]+: fcs ' "$TMP/fcs-fix.out" | diff "$TMP/fcs-want" - >"$TMP/fcs-diff"
        [ -s "$TMP/fcs-want" ] && [ ! -s "$TMP/fcs-diff" ]
        check $? "fix of $f: each FCS computed again is listed with tshark's values ($(head -4 "$TMP/fcs-diff" | tr '\n' ' '))"
    done
else
    skip "the 802.11 FCS after fix, checked by tshark (tshark not found)"
fi

# ---- --fcs: each frame's FCS checked as tshark checks it (eth.check_fcs, wlan.check_checksum),
# frame by frame with its value, on Ethernet and 802.11 frames with an FCS length (fcs-fix.pcap
# above and wlan-fcs.pcap: right, wrong and cut by the snapshot length; and the one-frame pcap
# and pcapng files), 802.11 frames behind radiotap and PPI headers (the corpus', right and
# wrong), and copies of those cut by a snapshot length, whose cut FCSs are not checkable
# (tshark shows none), never bad.
# fix --fcs then leaves none bad, as tshark sees it too. Without --fcs nothing of it shows.
fcs_tshark() { # fcs_tshark FILE: "FRAME good|bad VALUE" per FCS tshark checks (wlan.fcs reversed)
    # tshark 4.0 takes no FCS length from a pcap header for 802.11: its wlan.check_fcs
    # ("assume packets have FCS") says it for wlan-fcs.pcap (and its fixed copy)
    local assume=FALSE
    case ${1##*/} in *wlan-fcs*) assume=TRUE ;; esac
    tshark -n -r "$1" -o eth.check_fcs:TRUE -o wlan.check_checksum:TRUE \
        -o wlan.check_fcs:$assume -T fields \
        -e frame.number -e eth.fcs.status -e eth.fcs -e wlan.fcs.status -e wlan.fcs 2>/dev/null |
    awk -F'\t' 'function net(x) { return "0x" substr(x, 9, 2) substr(x, 7, 2) substr(x, 5, 2) substr(x, 3, 2) }
        $2 == "0" || $2 == "1" { print $1, $2 == "1" ? "good" : "bad", $3 }
        $4 == "0" || $4 == "1" { print $1, $4 == "1" ? "good" : "bad", net($5) }' | sort
}
fcs_ours() { # fcs_ours FILE [verify options]: "FRAME good|bad VALUE" and "FRAME not_checkable"
    local f=$1; shift
    "$CSUM" pcap verify --all "$@" "$f" 2>/dev/null |
    awk '$1 == "frame" && $3 == "fcs" { n = $2; sub(":", "", n)
        if ($4 == "good:") print n, "good", $5
        else if ($4 == "bad:") print n, "bad", substr($6, 1, length($6) - 1)
        else if ($4 == "not") print n, "not_checkable" }' | sort
}
if command -v tshark >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    # Copies cut by a snapshot length: every third frame loses its last 1 to 3 bytes (the wire
    # length stays); the numbers of those frames go to NAME.cut. The corpus' 802.11 frames with
    # an FCS length in the pcap header (LINKTYPE_IEEE802_11), as fcs-fix.pcap's Ethernet ones.
    python3 - "$TMP" "$C/radiotap.pcap" "$C/ppi.pcap" "$C/wlan.pcap" <<'PY'
import os, struct, sys, zlib
d = sys.argv[1]
data = open(sys.argv[4], "rb").read()
out, off, n = bytearray(data[:20] + struct.pack("<I", 105 | 0x04000000 | (2 << 28))), 24, 0
while off + 16 <= len(data):
    cap, wire = struct.unpack_from("<II", data, off + 8)
    frame = data[off + 16:off + 16 + cap]
    off += 16 + cap
    if cap == wire:
        n += 1
        frame += b"\xde\xad\xbe\xef" if n % 5 == 0 else struct.pack("<I", zlib.crc32(frame))
        kept = len(frame) - 3 if n % 7 == 0 else len(frame)  # cut: the FCS not captured
        out += struct.pack("<IIII", n, 0, kept, len(frame)) + frame[:kept]
open(os.path.join(d, "wlan-fcs.pcap"), "wb").write(out)
for src in sys.argv[2:4]:
    data, name = open(src, "rb").read(), "cut-" + os.path.basename(src)
    out, off, n, cut = bytearray(data[:24]), 24, 0, []
    while off + 16 <= len(data):
        ts, us, cap, wire = struct.unpack_from("<IIII", data, off)
        frame = data[off + 16:off + 16 + cap]
        off += 16 + cap
        n += 1
        if n % 3 == 0:
            frame = frame[:cap - 1 - n // 3 % 3]
            cut.append(n)
        out += struct.pack("<IIII", ts, us, len(frame), wire) + frame
    open(os.path.join(d, name), "wb").write(out)
    open(os.path.join(d, name + ".cut"), "w").write("".join("%d\n" % k for k in cut))
PY
    fcs_files="$TMP/fcs-fix.pcap $TMP/fcs-fixed.pcap $TMP/wlan-fcs.pcap $TMP/fcs.pcap $TMP/fcs-ifopt.pcapng
               $TMP/fcs-flags.pcapng $TMP/fcs-radiotap.pcap $TMP/fcs-ppi.pcap $C/radiotap.pcap
               $C/ppi.pcap $TMP/cut-radiotap.pcap $TMP/cut-ppi.pcap"
    : >"$TMP/fcs-all"
    for g in $fcs_files; do
        name=${g##*/}
        fcs_tshark "$g" >"$TMP/fcs-ts"
        fcs_ours "$g" --fcs >"$TMP/fcs-ours"
        grep -v not_checkable "$TMP/fcs-ours" | diff "$TMP/fcs-ts" - >"$TMP/fcs-diff"
        [ -s "$TMP/fcs-ts" ] && [ ! -s "$TMP/fcs-diff" ]
        check $? "verify --fcs $name: each FCS's verdict and value as tshark's (< tshark, > ours): $(head -4 "$TMP/fcs-diff" | tr '\n' ' ')"
        cat "$TMP/fcs-ours" >>"$TMP/fcs-all"
        # Not checkable: exactly the frames with an FCS that the snapshot length cut.
        case $name in
        fcs-fix.pcap | fcs-fixed.pcap | wlan-fcs.pcap) # every frame has one
            tshark -n -r "$g" -T fields -e frame.number -e frame.cap_len -e frame.len 2>/dev/null |
                awk '$2 < $3 { print $1, "not_checkable" }' | sort >"$TMP/fcs-want" ;;
        cut-*) # those of the cut frames that had one
            awk 'NR == FNR { cut[$1] = 1; next } ($1 in cut) { print $1, "not_checkable" }' \
                "$g.cut" <(fcs_ours "$C/${name#cut-}" --fcs) | sort >"$TMP/fcs-want" ;;
        *) : >"$TMP/fcs-want" ;;
        esac
        grep not_checkable "$TMP/fcs-ours" | diff "$TMP/fcs-want" - >"$TMP/fcs-diff"
        [ ! -s "$TMP/fcs-diff" ] && { [ "${name#cut-}" = "$name" ] || [ -s "$TMP/fcs-want" ]; }
        check $? "verify --fcs $name: the cut FCSs, and only those, not checkable: $(head -4 "$TMP/fcs-diff" | tr '\n' ' ')"
        # The summary counts them; a bad one fails as a bad checksum does.
        "$CSUM" pcap verify --fcs "$g" >"$TMP/out" 2>&1
        rc=$?
        counts=$(awk '{ n[$2]++ } END { printf "FCSs: %d good, %d bad, %d not checkable", n["good"], n["bad"], n["not_checkable"] }' "$TMP/fcs-ours")
        tail -1 "$TMP/out" | grep -q "; $counts"
        check $? "verify --fcs $name: the summary counts $counts ($(tail -1 "$TMP/out"))"
        # The text's "checksums:" leave the FCSs out; JSON's totals by verdict count them too.
        "$CSUM" pcap verify --fcs --json "$g" 2>/dev/null | python3 -c '
import json, re, sys
d, text = json.load(sys.stdin)["summary"], open(sys.argv[1]).read()
m = re.search(r"checksums: (\d+) good, (\d+) bad, (\d+) offload, (\d+) not checkable, (\d+) none", text)
verdicts = ("good", "bad", "offload", "not_checkable", "no_checksum")
assert [int(x) for x in m.groups()] == [d[v] - d["fcs"][v] for v in verdicts], (m.groups(), d)
' "$TMP/out" >/dev/null 2>&1
        check $? "verify --fcs $name: the text's checksums are JSON's totals less the FCSs"
        "$CSUM" pcap verify "$g" >/dev/null 2>&1
        want=$(( $? == 1 || $(grep -c ' bad ' "$TMP/fcs-ours") > 0 ))
        check $(( rc != want )) "verify --fcs $name: exit $rc, want $want"
        # Without --fcs, none of it.
        "$CSUM" pcap verify --all "$g" >"$TMP/out" 2>&1
        ! grep -qE '^frame [0-9]+: fcs |FCSs:' "$TMP/out"
        check $? "verify $name without --fcs: no FCS checked ($(grep -m1 -E 'fcs|FCS' "$TMP/out"))"
        # JSON: layer fcs, depth link at level 0, its 4 bytes at its offset.
        "$CSUM" pcap verify --fcs --json --all "$g" >"$TMP/json" 2>/dev/null
        "$CSUM" pcap verify --json --all "$g" >"$TMP/json-without" 2>/dev/null
        python3 - "$TMP/json" "$TMP/json-without" "$g" "$TMP/fcs-ours" <<'PY' >"$TMP/pyout" 2>&1
import json, sys
doc, without = (json.load(open(p)) for p in sys.argv[1:3])
data = open(sys.argv[3], "rb").read()
want = sorted(l.split() for l in open(sys.argv[4]))
got = []
for c in doc["checks"]:
    if c["layer"] != "fcs":
        continue
    assert c["depth"] == "link" and c["level"] == 0 and "via" not in c, c
    if c["verdict"] == "not_checkable":
        assert "offset" not in c and c["note"], c
        got.append([str(c["frame"]), "not_checkable"])
        continue
    assert len(c["stored"]) == len(c["computed"]) == 10, c
    assert data[c["offset"]:c["offset"] + 4].hex() == c["stored"][2:], c
    assert (c["stored"] == c["computed"]) == (c["verdict"] == "good"), c
    got.append([str(c["frame"]), c["verdict"], c["stored"]])
assert sorted(got) == want, (sorted(got)[:2], want[:2])
s = doc["summary"]
for v in ("good", "bad", "not_checkable"):
    assert s["fcs"][v] == sum(1 for w in want if w[1] == v), v
    assert s[v] == without["summary"][v] + s["fcs"][v], v
# and without --fcs, what it was: the same checks but the FCSs, none counted
assert [c for c in doc["checks"] if c["layer"] != "fcs"] == without["checks"]
assert not any(without["summary"]["fcs"].values()), without["summary"]["fcs"]
PY
        check $? "verify --fcs --json $name: $(tail -1 "$TMP/pyout")"
        # fix --fcs: every FCS right after (tshark agrees), a cut one left; each FCS written is
        # listed with tshark's values before and after, once, and counted; a dry run says the
        # same.
        out="$TMP/fcs-fixed-$name"
        "$CSUM" pcap fix --fcs "$g" "$out" >"$TMP/fixout" 2>&1
        check $? "fix --fcs $name: exit status ($(tail -1 "$TMP/fixout"))"
        fcs_tshark "$out" >"$TMP/fcs-ts-after"
        awk '{ print $1 }' "$TMP/fcs-ts" | diff - <(awk '$2 == "good" { print $1 }' "$TMP/fcs-ts-after") >"$TMP/fcs-diff"
        check $? "fix --fcs $name: tshark finds every FCS it checked before good after: $(head -4 "$TMP/fcs-diff" | tr '\n' ' ')"
        fcs_ours "$out" --fcs | grep -v ' good ' | diff <(grep not_checkable "$TMP/fcs-ours") - >"$TMP/fcs-diff"
        check $? "fix --fcs $name: verify --fcs finds none bad after, the cut ones left: $(head -4 "$TMP/fcs-diff" | tr '\n' ' ')"
        join <(cut -d' ' -f1,3 "$TMP/fcs-ts") <(cut -d' ' -f1,3 "$TMP/fcs-ts-after") |
            awk '$2 != $3 { printf "frame %d: fcs %s -> %s\n", $1, $2, $3 }' | sort >"$TMP/fcs-want"
        grep -E '^frame [0-9]+: fcs ' "$TMP/fixout" | sort | diff "$TMP/fcs-want" - >"$TMP/fcs-diff"
        [ -s "$TMP/fcs-want" ] && [ ! -s "$TMP/fcs-diff" ]
        check $? "fix --fcs $name: each FCS written listed with tshark's values: $(head -4 "$TMP/fcs-diff" | tr '\n' ' ')"
        # One line a change, the checksums' and the FCSs', each counted as what it is.
        n=$(wc -l <"$TMP/fcs-want")
        nck=$(grep -cE '^frame [0-9]+: (outer|inner) [a-z0-9-]+ checksum ' "$TMP/fixout")
        check $(( $(grep -c '^frame' "$TMP/fixout") != nck + n )) "fix --fcs $name: a listed change of another form: $(grep '^frame' "$TMP/fixout" | grep -vE ': (outer|inner) [a-z0-9-]+ checksum |: fcs ' | head -2 | tr '\n' ' ')"
        grep -q "fixed $nck checksum$([ "$nck" = 1 ] || echo s) and $n FCS$([ "$n" = 1 ] || echo s); left alone: " "$TMP/fixout"
        check $? "fix --fcs $name: the summary counts $nck checksums and $n FCSs ($(tail -1 "$TMP/fixout"))"
        "$CSUM" pcap fix --fcs --dry-run "$g" 2>&1 | grep '^frame' | sed 's/ (dry run)//' |
            diff - <(grep '^frame' "$TMP/fixout") >/dev/null
        check $? "fix --fcs --dry-run $name: lists the same changes"
    done
    # Both kinds, right and wrong, and cut ones, were compared.
    for v in good bad not_checkable; do
        check $(( $(grep -c " $v" "$TMP/fcs-all") < 3 )) "verify --fcs: the captures compared hold $v FCSs ($(grep -c " $v" "$TMP/fcs-all"))"
    done
else
    skip "verify --fcs and fix --fcs against tshark's FCS check (tshark or python3 not found)"
fi

# OSPF, RSVP, DCCP and the IPv6 Mobility Header (which tshark 4.0 does not verify): the verdicts
# of every capture of them, before and after fix, against this
# test's own reading of the RFCs, in Python (tshark's rules differ where the -unlike-tshark
# captures say). Ethernet frames of one IP layer.
if command -v python3 >/dev/null 2>&1; then
    cat >"$TMP/rfc_verdicts.py" <<'PY'
import json, struct, subprocess, sys

def ones(b):
    b += b"\0" * (len(b) % 2)
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s

def ospf(v6, pseudo, p):
    """RFC 2328 D.4.3 (version 2), RFC 5340 A.3.1 (3), RFC 7166 4.2 (a trailer: flagged by a
    Hello's or Database Description's AT-bit, 2.1; after the other types, the bytes after the
    packet, when their header says HMAC and their length, 4.1): the verdict."""
    n = struct.unpack("!H", p[2:4])[0]
    stored = struct.unpack("!H", p[12:14])[0]
    if not v6:
        auth = struct.unpack("!H", p[14:16])[0]
        if auth == 2:
            return "no_checksum"
        if auth > 2:
            return "not_checkable"
        return "good" if ones(p[:16] + p[24:n]) == 0xffff else "bad"
    options = {1: 21, 2: 17}.get(p[1])
    trailer = p[n:]
    if (options and p[options + 1] & 4) or (not options and len(trailer) >= 16 and
                                            struct.unpack("!HH", trailer[:4]) == (1, len(trailer))):
        return "no_checksum"
    return "good" if ones(pseudo(n) + p[:n]) == 0xffff else "bad"

def rsvp(v6, pseudo, p):
    """RFC 2205 3.1.1: over the message its length gives; a stored 0 is none transmitted."""
    if p[2:4] == b"\0\0":
        return "no_checksum"
    return "good" if ones(p[:struct.unpack("!H", p[6:8])[0]]) == 0xffff else "bad"

def dccp(v6, pseudo, p):
    """RFC 4340 9.1, 9.2: the pseudo-header of the whole length, the header and CsCov - 1 words
    of data (0: all); a coverage past the end, or a header shorter than 5.1's, is to be ignored."""
    header, cscov = p[4] * 4, p[5] & 15
    n = header + (cscov - 1) * 4 if cscov else len(p)
    if header < (16 if p[8] & 1 else 12) or n > len(p):
        return "not_checkable"
    return "good" if ones(pseudo(len(p)) + p[:n]) == 0xffff else "bad"

def mh(v6, pseudo, p):
    """RFC 6275 6.1.1: the IPv6 pseudo-header of the message's length and the whole message,
    (Header Len + 1) * 8 bytes; one past the payload cannot be checked."""
    n = (p[1] + 1) * 8
    if n > len(p):
        return "not_checkable"
    return "good" if ones(pseudo(n) + p[:n]) == 0xffff else "bad"

PROTOCOLS = {89: ("ospf", ospf), 46: ("rsvp", rsvp), 33: ("dccp", dccp), 135: ("mh", mh)}

def verdicts(path):
    data = open(path, "rb").read()
    off, frame, out = 24, 0, {}
    while off + 16 <= len(data):
        caplen = struct.unpack("<I", data[off + 8:off + 12])[0]
        f = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        frame += 1
        if f[12:14] == b"\x08\x00":
            ip = f[14:]
            hl, total, proto = (ip[0] & 15) * 4, struct.unpack("!H", ip[2:4])[0], ip[9]
            src, dst, p = ip[12:16], ip[16:20], ip[hl:total]
            pseudo = lambda n: src + dst + struct.pack("!BBH", 0, proto, n)
        elif f[12:14] == b"\x86\xdd":
            ip = f[14:]
            proto, src, dst = ip[6], ip[8:24], ip[24:40]
            p = ip[40:40 + struct.unpack("!H", ip[4:6])[0]]
            pseudo = lambda n: src + dst + struct.pack("!I3xB", n, proto)
        else:
            continue
        if proto in PROTOCOLS:
            layer, verdict = PROTOCOLS[proto]
            out[(frame, layer)] = verdict(f[12:14] == b"\x86\xdd", pseudo, p)
    return out

csum, path = sys.argv[1], sys.argv[2]
want = verdicts(path)
doc = json.loads(subprocess.run([csum, "pcap", "verify", "--json", "--all", path],
                                capture_output=True).stdout)
layers = {layer for layer, _ in PROTOCOLS.values()}
got = {(c["frame"], c["layer"]): c["verdict"] for c in doc["checks"] if c["layer"] in layers}
assert want, "nothing to check in " + path
assert got == want, sorted(set(got.items()) ^ set(want.items()))[:4]
PY
    for f in $(awk '$1 == "capture" && $2 ~ /^(ospf|rsvp|dccp|mh)/ { print $2 }' "$C/MANIFEST"); do
        for g in "$C/$f" "$TMP/fixed-$f"; do
            python3 "$TMP/rfc_verdicts.py" "$CSUM" "$g" >"$TMP/pyout" 2>&1
            check $? "verdicts of ${g#"$TMP"/} as computed from the RFCs: $(tail -1 "$TMP/pyout")"
        done
    done
else
    skip "OSPF, RSVP, DCCP and Mobility Header verdicts against the RFCs (python3 not found)"
fi

# An IPv6 fragment after the first: what follows its Fragment header is the middle of the
# payload, not headers to walk (RFC 8200 section 4.5), so never "malformed".
if command -v python3 >/dev/null 2>&1; then
    python3 - "$TMP/frag6.pcap" <<'PY'
import struct, sys
payload = struct.pack("!BBHI", 60, 0, 100 << 3, 7) + b"\x11\xff" + b"\xaa" * 30  # next: dest options
ip6 = struct.pack("!IHBB", 6 << 28, len(payload), 44, 64) + b"\x20\x01" + b"\0" * 13 + b"\x01" + b"\x20\x01" + b"\0" * 13 + b"\x02"
frame = b"\x02" * 12 + b"\x86\xdd" + ip6 + payload
open(sys.argv[1], "wb").write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1) +
                              struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame)
PY
    "$CSUM" pcap verify --json "$TMP/frag6.pcap" >"$TMP/out" 2>&1
    grep -q '"truncated": 0, "malformed": 0' "$TMP/out"
    check $? "a later IPv6 fragment: its payload is not walked as headers ($(grep -o '"skipped": {[^}]*}' "$TMP/out"))"
fi

# Kuznetsov's modified pcap (magic a1b2cd34, 8 more bytes per record header): the same verdicts.
if command -v python3 >/dev/null 2>&1; then
    python3 - "$C/ethernet-le-usec.pcap" "$TMP/modified.pcap" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
out = bytearray(struct.pack("<I", 0xa1b2cd34) + data[4:24])
off = 24
while off < len(data):
    caplen = struct.unpack_from("<I", data, off + 8)[0]
    out += data[off:off + 16] + struct.pack("<IHBx", 2, 0x0800, 0) + data[off + 16:off + 16 + caplen]
    off += 16 + caplen
open(sys.argv[2], "wb").write(out)
PY
    "$CSUM" pcap verify --all "$C/ethernet-le-usec.pcap" | normalize >"$TMP/want"
    "$CSUM" pcap verify --all "$TMP/modified.pcap" 2>&1 | normalize | diff - "$TMP/want" >/dev/null
    check $? "verify of Kuznetsov's modified pcap: the same verdicts"
    "$CSUM" pcap fix "$TMP/modified.pcap" "$TMP/modified-fixed.pcap" >/dev/null &&
        "$CSUM" pcap verify "$TMP/modified-fixed.pcap" >/dev/null
    check $? "fix of Kuznetsov's modified pcap: verifies clean"
fi

# ---- link types not dissected: counted by name, --strict fails ----------------------------
cp "$C/clean.pcap" "$TMP/other.pcap"
printf '\303\000' | dd of="$TMP/other.pcap" bs=1 seek=20 conv=notrunc 2>/dev/null # LINKTYPE 195
"$CSUM" pcap verify "$TMP/other.pcap" >"$TMP/out" 2>&1
check $? "verify on an undissected link type: exit 0"
grep -q "not dissected: [0-9]* packets on IEEE802_15_4_WITHFCS (195)" "$TMP/out"
check $? "verify on an undissected link type: named ($(head -c 300 "$TMP/out"))"
"$CSUM" pcap verify --strict "$TMP/other.pcap" >/dev/null 2>"$TMP/err"
check $(( $? != 1 )) "verify --strict on an undissected link type: exit 1"
grep -qE "^csum: pcap verify: $TMP/other.pcap: --strict: not all checked: [0-9]+ packets not dissected$" "$TMP/err"
check $? "verify --strict on an undissected link type: says so ($(head -c 200 "$TMP/err"))"
"$CSUM" pcap fix "$TMP/other.pcap" "$TMP/other-fixed.pcap" >"$TMP/out" 2>&1
grep -q "packets, fixed 0 checksums and 0 FCSs; .*; not dissected: [0-9]* packets on IEEE802_15_4_WITHFCS (195)$" "$TMP/out"
check $? "fix on an undissected link type: its summary says that nothing was looked into ($(head -c 300 "$TMP/out"))"
# ... also inside PKTAP (258) and PPI (192), by the link type inside: 195 after their headers.
pcap_file_header() { printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000'"$1"'\000\000'; }
{ pcap_file_header '\002\001'
  printf '\000\000\000\000\000\000\000\000\200\000\000\000\200\000\000\000' # 128 bytes
  printf '\154\000\000\000\001\000\000\000\303\000\000\000'; head -c 96 /dev/zero
  printf 'twenty bytes of data'; } >"$TMP/pktap-other.pcap"
{ pcap_file_header '\300\000'
  printf '\000\000\000\000\000\000\000\000\034\000\000\000\034\000\000\000' # 28 bytes
  printf '\000\000\010\000\303\000\000\000twenty bytes of data'; } >"$TMP/ppi-other.pcap"
for f in pktap-other.pcap ppi-other.pcap; do
    "$CSUM" pcap verify "$TMP/$f" >"$TMP/out" 2>&1
    grep -q "not dissected: 1 packets on IEEE802_15_4_WITHFCS (195)" "$TMP/out"
    check $? "verify $f (an undissected link type inside): named ($(head -c 300 "$TMP/out"))"
    "$CSUM" pcap verify --strict "$TMP/$f" >/dev/null 2>&1
    check $(( $? != 1 )) "verify --strict $f: exit 1"
done
printf '\140\352' | dd of="$TMP/other.pcap" bs=1 seek=20 conv=notrunc 2>/dev/null # 60000
"$CSUM" pcap verify --json "$TMP/other.pcap" | grep -q '"linktype": 60000, "name": null'
check $? "verify --json on an unknown link type: listed by number"

# A frame cut inside its link layer's header is skipped, truncated (malformed when the frame
# itself is that short), where it was a packet without checksum; a whole frame that is
# shorter, an 802.11 ACK (a control frame, 10 bytes), is one.
record() { printf '\000\000\000\000\000\000\000\000'"$1"'\000\000\000'"$2"'\000\000\000'; } # CAPLEN WIRELEN
{ pcap_file_header '\001\000'
  record '\015' '\074'; head -c 13 /dev/zero # 13 bytes of 60
  record '\015' '\015'; head -c 13 /dev/zero; } >"$TMP/cut-ethernet.pcap"
{ pcap_file_header '\151\000'
  record '\020' '\100'; printf '\010\001'; head -c 14 /dev/zero # a data frame's 16 of 64
  record '\012' '\012'; printf '\324\000'; head -c 8 /dev/zero; } >"$TMP/cut-wlan.pcap"
for f in cut-ethernet.pcap cut-wlan.pcap; do
    "$CSUM" pcap verify --json "$TMP/$f" >"$TMP/out" 2>&1
    want='"truncated": 1, "malformed": 1'
    [ "$f" = cut-wlan.pcap ] && want='"truncated": 1, "malformed": 0'
    grep -q "$want" "$TMP/out"
    check $? "verify $f: the cut frame skipped ($want: $(grep -o '"skipped": {[^}]*}' "$TMP/out"))"
    grep -q "\"without_checksum\": $([ "$f" = cut-wlan.pcap ] && echo 1 || echo 0)," "$TMP/out"
    check $? "verify $f: packets without checksum ($(grep -o '"without_checksum": [0-9]*' "$TMP/out"))"
    "$CSUM" pcap verify --strict "$TMP/$f" >/dev/null 2>&1
    check $(( $? != 1 )) "verify --strict $f: exit 1"
done

# ---- usage and I/O errors ------------------------------------------------------------------
usage_case() { # usage_case DESCRIPTION args...
    local what=$1; shift
    "$CSUM" "$@" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "$what: exit 2"
}
usage_case "pcap without subcommand" pcap
usage_case "pcap unknown subcommand" pcap frobnicate
usage_case "verify without file" pcap verify
usage_case "verify two files" pcap verify "$C/clean.pcap" "$C/clean.pcap"
usage_case "verify unknown option" pcap verify --bogus "$C/clean.pcap"
usage_case "verify --vxlan-port 0" pcap verify --vxlan-port 0 "$C/clean.pcap"
usage_case "verify --vxlan-port 70000" pcap verify --vxlan-port 70000 "$C/clean.pcap"
usage_case "verify --geneve-port -1" pcap verify --geneve-port=-1 "$C/clean.pcap"
usage_case "verify --vxlan-port without value" pcap verify "$C/clean.pcap" --vxlan-port
usage_case "fix without output" pcap fix "$C/clean.pcap"
usage_case "fix without arguments" pcap fix
usage_case "fix three files" pcap fix "$C/clean.pcap" "$TMP/a" "$TMP/b"
usage_case "fix --json (a verify option)" pcap fix --json "$C/clean.pcap" "$TMP/a"
grep -q "^csum: pcap fix: '--json' is an option of 'csum pcap verify', not of fix$" "$TMP/err"
check $? "fix --json: says it is verify's ($(head -1 "$TMP/err"))"
usage_case "verify --dry-run (a fix option)" pcap verify --dry-run "$C/clean.pcap"
grep -q "^csum: pcap verify: '--dry-run' is an option of 'csum pcap fix', not of verify$" "$TMP/err"
check $? "verify --dry-run: says it is fix's ($(head -1 "$TMP/err"))"
grep -q "^csum: pcap verify: unknown option '--bogus'$" <("$CSUM" pcap verify --bogus "$C/clean.pcap" 2>&1)
check $? "verify --bogus: still unknown"
usage_case "verify of a missing file" pcap verify "$TMP/missing.pcap"
grep -q "$TMP/missing.pcap" "$TMP/err"
check $? "missing file is named"
usage_case "verify of a directory" pcap verify "$TMP"
for h in "pcap --help" "pcap verify --help" "pcap fix --help"; do
    $CSUM $h >"$TMP/out" 2>&1
    check $? "$h: exit 0"
    grep -q '^Usage: csum pcap' "$TMP/out"
    check $? "$h: prints usage"
done
"$CSUM" pcap verify --vxlan-port 4789 --vxlan-port=8472 --geneve-port 6082 "$C/clean.pcap" >/dev/null
check $? "verify with tunnel port options"
# Any implementation gives the same verdicts.
"$CSUM" pcap verify --all "$C/tunnel-gre-csum.pcap" | normalize | sort >"$TMP/want"
for impl in $("$CSUM" impls | awk '/^$/ { exit } NR > 1 && $2 == "yes" { print $1 }'); do
    "$CSUM" --impl "$impl" pcap verify --all "$C/tunnel-gre-csum.pcap" | normalize | sort |
        diff - "$TMP/want" >/dev/null
    check $? "verify with --impl $impl"
done

# ---- csum-pcapgen: bounded options, complete help, --write ------------------------------
"$GEN" --help >"$TMP/out"
check $? "csum-pcapgen --help: exit 0"
for word in --bulk --write --mutate --list --link --l2 --encap --count --format --ip --corrupt \
            --offload --jumbo --ffff --fragments --seed --expect; do
    grep -q -- "$word" "$TMP/out"
    check $? "csum-pcapgen --help mentions $word"
done
gen_refuses() { # gen_refuses DESCRIPTION args...: exit 2, nothing written
    local what=$1; shift
    rm -f "$TMP/gen.pcap"
    "$GEN" "$@" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "csum-pcapgen $what: exit 2"
    [ ! -e "$TMP/gen.pcap" ]
    check $? "csum-pcapgen $what: writes nothing"
}
gen_refuses "--bulk FILE -3" --bulk "$TMP/gen.pcap" -3
gen_refuses "--bulk FILE 0" --bulk "$TMP/gen.pcap" 0
gen_refuses "--bulk FILE 65G" --bulk "$TMP/gen.pcap" 65G
gen_refuses "--bulk FILE 12x" --bulk "$TMP/gen.pcap" 12x
gen_refuses "--bulk FILE 99999999999999999999" --bulk "$TMP/gen.pcap" 99999999999999999999
gen_refuses "--write --count 0" --write "$TMP/gen.pcap" --count 0
gen_refuses "--write --count -1" --write "$TMP/gen.pcap" --count -1
gen_refuses "--write --count 10000001" --write "$TMP/gen.pcap" --count 10000001
gen_refuses "--write --corrupt 101" --write "$TMP/gen.pcap" --corrupt 101
gen_refuses "--write --link nosuch" --write "$TMP/gen.pcap" --link nosuch
gen_refuses "--write --encap nosuch" --write "$TMP/gen.pcap" --encap nosuch
gen_refuses "--write --bogus" --write "$TMP/gen.pcap" --bogus
gen_refuses "--mutate without seed" --mutate "$C/clean.pcap" "$TMP/gen.pcap"
gen_refuses "with no arguments"
"$GEN" --bulk "$TMP/gen.pcap" 64k 7 && [ "$(stat -c %s "$TMP/gen.pcap")" -ge 65536 ]
check $? "csum-pcapgen --bulk FILE 64k: at least 64 KiB"
"$CSUM" pcap verify --strict "$TMP/gen.pcap" >/dev/null
check $? "csum-pcapgen --bulk: every checksum good"
"$GEN" --list >"$TMP/list"
check $? "csum-pcapgen --list"
links=$(awk '/^link types/ { on = 1; next } /^[a-z]/ { on = 0 } on { print $1 }' "$TMP/list")
encaps=$(awk '/^tunnels/ { on = 1; next } /^[a-z]/ { on = 0 } on { print $1 }' "$TMP/list")
check $(( $(echo "$links" | wc -w) < 25 || $(echo "$encaps" | wc -w) < 14 )) "csum-pcapgen --list: link types and tunnels"
combos="radiotap:vxlan:none ppp:gre-csum:none frelay:icmp-error:none ethernet:geneve:macsec
        vlan:erspan3:mpls sll2:ipip:none wlan-amsdu:none:none nflog:none:none pppoe:vxlan-gpe:none
        ethernet:vxlan-8472:pppoe chdlc:icmp-error-cut:none loop:gre-eth:none"
[ "$QUICK" = "--quick" ] || for l in $links; do combos="$combos $l:none:none"; done
for combo in $combos; do
    IFS=: read -r link encap l2 <<<"$combo"
    extra=()
    [ "$link" = slip ] || [ "$link" = raw-versioned ] && extra=(--ip 4)
    "$GEN" --write "$TMP/w.pcapng" --format pcapng --link "$link" --encap "$encap" --l2 "$l2" \
        --count 40 --offload partial --ffff --jumbo --fragments --seed 3 --expect "${extra[@]}"
    check $? "csum-pcapgen --write --link $link --encap $encap --l2 $l2"
    opts=()
    [ "$encap" = vxlan-8472 ] && opts=(--vxlan-port 8472)
    "$CSUM" pcap verify --all "${opts[@]}" "$TMP/w.pcapng" | normalize | sort >"$TMP/got"
    sort "$TMP/w.pcapng.expect" | diff - "$TMP/got" >"$TMP/diff"
    check $? "verify of --write --link $link --encap $encap --l2 $l2: $(head -4 "$TMP/diff" | tr '\n' ' ')"
done

# ---- tshark: the same verdicts, frame by frame ---------------------------------------------
# For each frame and layer, the statuses of its checksums in order from the outermost: good
# (G), bad (B; our offload verdicts are bad to tshark), no UDP checksum (N), and the zero UDP
# checksum over IPv6 that tshark calls illegal (Z). Statuses neither side could verify
# (tshark's "unverified", our "not checkable") are left out, and so is the checksum 0 of an
# ICMP extension structure (tshark's "not present": none to report for us). Reassembly is off,
# so fragments are unverified for tshark as they are not checkable for us. One difference
# remains and is allowed: tshark calls a zero UDP checksum over IPv6 illegal even in a
# truncated packet, where we say not checkable (the value to store is not known).
# tshark 4.0 says whether an OSPF or RSVP checksum is right in its text only, no status field:
# "[correct]", "[incorrect, should be 0x...]", "(None)" for an OSPF checksum of 0.
tshark_text() { # tshark_text FILE [tshark options]: "FRAME_LAYER STATUSES", as tshark_seq
    local f=$1; shift
    tshark -n -r "$f" -o ip.defragment:FALSE -o ipv6.defragment:FALSE "$@" -Y 'ospf || rsvp' \
        -T pdml 2>/dev/null |
    awk 'BEGIN { L["ospf.checksum"] = "ospf"; L["rsvp.message_checksum"] = "rsvp" }
        /<field name="frame.number"/ { sub(/.* show="/, ""); sub(/".*/, ""); n = $0; next }
        match($0, /<field name="[a-z_.]+" showname="[^"]*"/) {
            split(substr($0, RSTART, RLENGTH), w, "\"")
            if (!(w[2] in L)) next
            s = w[4] ~ /\[correct\]/ ? "G" : w[4] ~ /\[incorrect/ ? "B" : w[4] ~ /\(None\)/ ? "N" : ""
            seq[n "_" L[w[2]]] = seq[n "_" L[w[2]]] s }
        END { for (k in seq) if (seq[k] != "") print k, seq[k] }'
}
tshark_seq() { # tshark_seq FILE [tshark options]; with TSHARK_TEXT=0, no OSPF and RSVP
    local f=$1; shift
    { tshark -n -r "$f" -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE \
        -o udp.check_checksum:TRUE -o dccp.check_checksum:TRUE -o udplite.check_checksum:TRUE \
        -o ip.defragment:FALSE \
        -o ipv6.defragment:FALSE "$@" -T fields -E occurrence=a -E aggregator=, -e frame.number -e ip.checksum.status \
        -e tcp.checksum.status -e udp.checksum.status -e icmp.checksum.status \
        -e icmpv6.checksum.status -e gre.checksum.status -e icmp.ext.checksum.status \
        -e igmp.checksum.status -e pim.cksum.status -e vrrp.checksum.status \
        -e dccp.checksum.status 2>/dev/null |
    awk -F'\t' 'BEGIN { split("ipv4 tcp udp icmp icmpv6 gre icmp-ext igmp pim vrrp dccp", L, " ")
                        m["0"] = "B"; m["1"] = "G"; m["2"] = ""; m["3"] = "N"; m["4"] = "Z" }
        { for (i = 2; i <= 12; i++) { n = split($i, v, ","); s = ""
              for (k = 1; k <= n; k++) if (!(i == 8 && v[k] == "3")) s = s m[v[k]]
              if (s != "") print $1 "_" L[i - 1], s } }'
      [ "${TSHARK_TEXT:-1}" = 0 ] || tshark_text "$f" "$@"; } | sort
}
our_seq() { # from `csum pcap verify --all` on standard input (tshark shows UDP-Lite's
    # checksum status as UDP's: udp.checksum.status)
    normalize | awk '
        { key = $1 "_" ($3 == "udplite" ? "udp" : $3); level = $2 == "inner"; v = $4
          c = v == "good" ? "G" : v == "bad" || v == "offload" ? "B" : v == "none" ? "N" : ""
          if (v == "bad" && ($3 == "udp" || $3 == "udplite") && $5 == "0x0000") c = "Z"
          if (c != "") { seq[key, level] = seq[key, level] c; keys[key] = 1 } }
        END { for (k in keys) print k, seq[k, 0] seq[k, 1] }' | sort
}
compare_tshark() { # compare_tshark FILE DESCRIPTION [csum options]: 0 when they agree
    local f=$1 what=$2; shift 2
    local targs=()
    for o in "$@"; do
        case "$o" in
            --vxlan-port=*) targs+=(-d "udp.port==${o#*=},vxlan") ;;
            --geneve-port=*) targs+=(-d "udp.port==${o#*=},geneve") ;;
        esac
    done
    "$CSUM" pcap verify --all "$@" "$f" | our_seq >"$TMP/ours"
    # tshark's OSPF and RSVP verdicts take a second tshark run (its text, -T pdml): --quick
    # asks for them only where csum found such a checksum, the full suite everywhere.
    local text=1
    [ "$QUICK" = "--quick" ] && ! grep -qE '_(ospf|rsvp) ' "$TMP/ours" && text=0
    TSHARK_TEXT=$text tshark_seq "$f" "${targs[@]}" >"$TMP/ts"
    join -a1 -a2 -e - -o 0,1.2,2.2 "$TMP/ts" "$TMP/ours" |
        awk '{ t = $2; o = $3; if (t != o && o !~ /Z/) { gsub("Z", "", t); if (t == "") t = "-" }
               if (t != o) print }' >"$TMP/tsdiff"
    check $(( $(wc -l <"$TMP/tsdiff") != 0 )) "tshark disagrees on $what (frame_layer tshark ours): $(head -4 "$TMP/tsdiff" | tr '\n' ' ')"
}
if command -v tshark >/dev/null 2>&1; then
    compared=0
    for f in $captures; do
        gap=$(tshark_gap "$f")
        if [ -n "$gap" ]; then
            skip "tshark comparison of $f: $gap"
            continue
        fi
        mapfile -t opts < <(options_of "$f")
        compare_tshark "$C/$f" "$f" "${opts[@]}"
        # The fixed copies in the full suite only: tshark's start-up (0.16 s a call) was most
        # of the quick suite's time; --quick still checks that they verify clean (above).
        [ "$QUICK" = "--quick" ] || compare_tshark "$TMP/fixed-$f" "fixed $f" "${opts[@]}"
        compared=$((compared + 1))
    done
    check $(( compared < 40 )) "tshark compared on $compared captures"
else
    skip "COMPARISON WITH TSHARK NOT RUN: tshark not found (apt-get install tshark)"
fi

echo "pcap: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
