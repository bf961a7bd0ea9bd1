#!/usr/bin/env bash
# Tests of `csum pcap verify|fix` on captures written by csum-pcapgen, whose checksums come
# from the reference oracle and whose wrong ones are listed next to each file:
#   NAME.bad  the exact lines `csum pcap verify NAME` must print for bad checksums
#   NAME.nc   "frame N: LAYER" for every checksum that must be reported not checkable
#   MANIFEST  expected exit statuses, and the byte offset each malformed file's error names
# Where tshark is installed, our verdicts are compared with tshark's checksum validation,
# and fixed captures must be clean for tshark too.
# Usage: tests/pcap_test.sh path/to/csum path/to/csum-pcapgen [--quick]
set -u
CSUM=${1:?usage: pcap_test.sh path/to/csum path/to/csum-pcapgen [--quick]}
GEN=${2:?usage: pcap_test.sh path/to/csum path/to/csum-pcapgen [--quick]}
QUICK=${3:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL    pcap: %s\n' "$1"; }
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
want_status() { awk -v f="$1" '$2 == f { print $3 }' "$C/MANIFEST"; }

# ---- verify: exit status, exactly the corrupted set, not-checkable set, JSON -------------
for f in $captures; do
    "$CSUM" pcap verify --verbose "$C/$f" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check $(( rc != $(want_status "$f") )) "verify $f: exit $rc, want $(want_status "$f") ($(head -c 200 "$TMP/err"))"
    grep ' checksum bad: ' "$TMP/out" >"$TMP/bad"
    diff "$C/$f.bad" "$TMP/bad" >"$TMP/diff"
    check $? "verify $f: bad checksums differ from the corrupted set: $(head -5 "$TMP/diff" | tr '\n' ' ')"
    grep '^frame .* checksum not checkable: ' "$TMP/out" | sed 's/ checksum not checkable: .*//' >"$TMP/nc"
    diff "$C/$f.nc" "$TMP/nc" >"$TMP/diff"
    check $? "verify $f: not-checkable checksums differ: $(head -5 "$TMP/diff" | tr '\n' ' ')"
    # Without --verbose: the same bad lines and a summary, nothing else.
    "$CSUM" pcap verify "$C/$f" >"$TMP/plain" 2>&1
    check $(( $(grep -vc ' checksum bad: ' "$TMP/plain") != 1 )) "verify $f: plain output is bad lines + one summary"
    grep -q "^$C/$f: [0-9]* packets; checksums: " "$TMP/plain"
    check $? "verify $f: summary line names the file"
done

if command -v python3 >/dev/null 2>&1; then
    for f in $captures; do
        "$CSUM" pcap verify --json "$C/$f" >"$TMP/json"
        python3 - "$TMP/json" "$C/$f.bad" <<'PY' >"$TMP/pyout" 2>&1
import json, re, sys
doc = json.load(open(sys.argv[1]))
want = []
for line in open(sys.argv[2]):
    m = re.match(r"frame (\d+): (\w+) checksum bad: stored (0x[0-9a-f]{4}), computed (0x[0-9a-f]{4})", line)
    want.append((int(m[1]), m[2], m[3], m[4]))
got = [(b["frame"], b["layer"], b["stored"], b["computed"]) for b in doc["bad"]]
assert set(doc) >= {"packets", "summary", "bad"}, "missing keys"
assert isinstance(doc["packets"], int) and doc["packets"] > 0, "packets"
assert got == want, "bad list %r != %r" % (got[:3], want[:3])
assert doc["summary"]["bad"] == len(want), "summary bad count"
assert all(re.fullmatch(r"0x[0-9a-f]{4}", b["stored"] + b["computed"][:0]) for b in doc["bad"])
assert all(b["layer"] in ("ipv4", "tcp", "udp", "icmp", "icmpv6") for b in doc["bad"])
PY
        check $? "verify --json $f: $(head -c 300 "$TMP/pyout")"
    done
else
    echo "SKIPPED pcap: JSON checks (python3 not found)"
fi

# ---- malformed files: exit 2, the file and the byte offset named, never a crash ----------
for f in $malformed; do
    off=$(want_status "$f")
    "$CSUM" pcap verify "$C/$f" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    check $(( rc != 2 )) "malformed $f: exit $rc, want 2"
    grep -q "$C/$f: malformed capture at byte offset $off: " "$TMP/err"
    check $? "malformed $f: message does not name offset $off: $(head -c 200 "$TMP/err")"
    "$CSUM" pcap verify --json "$C/$f" >"$TMP/out" 2>/dev/null
    check $(( $? != 2 )) "malformed $f with --json: exit 2"
    "$CSUM" pcap fix "$C/$f" "$TMP/fixed-malformed" >/dev/null 2>&1
    check $(( $? != 2 )) "fix of malformed $f: exit 2"
    [ ! -e "$TMP/fixed-malformed" ]
    check $? "fix of malformed $f: no output written"
done

# Damaged copies of every capture: any verdict, but never a crash or a hang. They go through
# a pipe, so the CLI reads them into a heap buffer of the exact size, where a sanitizer
# build sees a read past the end (it cannot in a mapped file).
rounds=$([ "$QUICK" = "--quick" ] && echo 5 || echo 25)
crashes=0
for f in $captures $malformed; do
    for seed in $(seq 1 "$rounds"); do
        "$GEN" --mutate "$C/$f" "$TMP/mutated" "$seed" || continue
        cat "$TMP/mutated" | timeout 20 "$CSUM" pcap verify /dev/stdin >/dev/null 2>"$TMP/err"
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

# ---- fix ---------------------------------------------------------------------------------
for f in $captures; do
    in="$C/$f" out="$TMP/fixed-$f"
    "$CSUM" pcap verify --json "$in" >"$TMP/before.json"
    nbad=$(grep -c ' checksum bad: ' "$C/$f.bad")
    "$CSUM" pcap fix --dry-run "$in" >"$TMP/dry" 2>&1
    check $? "fix --dry-run $f: exit status"
    check $(( $(grep -c ' -> 0x.* (dry run)$' "$TMP/dry") != nbad )) "fix --dry-run $f lists $nbad changes"
    "$CSUM" pcap fix "$in" "$out" >"$TMP/fixout" 2>&1
    check $? "fix $f: exit status ($(head -c 200 "$TMP/fixout"))"
    "$CSUM" pcap verify --verbose "$out" >"$TMP/after" 2>&1
    check $? "fix $f: the fixed capture verifies clean ($(grep -m2 'checksum bad' "$TMP/after" | tr '\n' ' '))"
    # Only checksum bytes changed: every differing byte lies in a field reported bad.
    cmp -l "$in" "$out" | awk '{ print $1 - 1 }' >"$TMP/changed"
    grep -o '"offset": [0-9]*' "$TMP/before.json" | awk '{ print $2; print $2 + 1 }' | sort >"$TMP/fields"
    check $(( $(comm -23 <(sort "$TMP/changed") "$TMP/fields" | wc -l) != 0 )) "fix $f: bytes outside bad checksum fields changed"
    check $(( $(stat -c %s "$in") != $(stat -c %s "$out") )) "fix $f: size changed"
    # The not-checkable ones are left alone: same not-checkable set after fixing.
    grep 'not checkable' "$TMP/after" | grep -v '^/' >"$TMP/nc-after"
    "$CSUM" pcap verify --verbose "$in" | grep 'not checkable' | grep -v '^/' | diff - "$TMP/nc-after" >/dev/null
    check $? "fix $f: not-checkable checksums changed"
done

# Refusing to overwrite the input, by any name.
cp "$C/truncated.pcap" "$TMP/in.pcap"
sum_before=$(cksum <"$TMP/in.pcap")
ln "$TMP/in.pcap" "$TMP/hardlink.pcap"
ln -s "$TMP/in.pcap" "$TMP/symlink.pcap"
mkdir -p "$TMP/sub"
for target in "$TMP/in.pcap" "$TMP/./in.pcap" "$TMP/sub/../in.pcap" "$TMP/hardlink.pcap" "$TMP/symlink.pcap"; do
    "$CSUM" pcap fix "$TMP/in.pcap" "$target" >/dev/null 2>"$TMP/err"
    check $(( $? != 2 )) "fix IN -> $target: must refuse (exit 2)"
    grep -q "refusing to overwrite the input" "$TMP/err"
    check $? "fix IN -> $target: message ($(head -c 200 "$TMP/err"))"
done
check $(( $(cksum <"$TMP/in.pcap" | cut -d' ' -f1) != $(echo "$sum_before" | cut -d' ' -f1) )) "input unchanged after refused fixes"
"$CSUM" pcap fix "$TMP/in.pcap" "$TMP/no-such-dir/out.pcap" >/dev/null 2>"$TMP/err"
check $(( $? != 2 )) "fix into a missing directory: exit 2"
ls "$TMP"/.csum-tmp-* >/dev/null 2>&1
check $(( $? == 0 )) "no temporary files left behind"
"$CSUM" pcap fix "$TMP/in.pcap" "$TMP/out-existing.pcap" >/dev/null && \
    "$CSUM" pcap fix "$TMP/in.pcap" "$TMP/out-existing.pcap" >/dev/null
check $? "fix over an existing (different) output file"

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
usage_case "fix without output" pcap fix "$C/clean.pcap"
usage_case "fix without arguments" pcap fix
usage_case "fix three files" pcap fix "$C/clean.pcap" "$TMP/a" "$TMP/b"
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
# Not a regular file: read instead of mapped.
cat "$C/multi.pcapng" | "$CSUM" pcap verify /dev/stdin >"$TMP/out" 2>&1
check $(( $? != 1 )) "verify from a pipe: exit 1"
grep ' checksum bad: ' "$TMP/out" | diff - "$C/multi.pcapng.bad" >/dev/null
check $? "verify from a pipe: same verdicts"
# A link type we do not dissect (802.11): counted, nothing checked, exit 0.
cp "$C/clean.pcap" "$TMP/wifi.pcap"
printf '\151' | dd of="$TMP/wifi.pcap" bs=1 seek=20 conv=notrunc 2>/dev/null # LINKTYPE 105
"$CSUM" pcap verify "$TMP/wifi.pcap" >"$TMP/out" 2>&1
check $? "verify on an undissected link type: exit 0"
grep -q "packets on link types not dissected" "$TMP/out"
check $? "verify on an undissected link type: says so ($(head -c 200 "$TMP/out"))"
# Any implementation gives the same verdicts.
for impl in $("$CSUM" impls | awk '/^$/ { exit } NR > 1 && $2 == "yes" { print $1 }'); do
    "$CSUM" --impl "$impl" pcap verify "$C/ethernet-le-usec.pcap" | grep ' checksum bad: ' |
        diff - "$C/ethernet-le-usec.pcap.bad" >/dev/null
    check $? "verify with --impl $impl"
done

# ---- tshark: the same verdicts -------------------------------------------------------------
# tshark's statuses: 0 bad, 1 good, 2 unverified, 3 not present, 4 illegal (UDP zero over
# IPv6). Reassembly is off, so fragments are unverified in tshark as they are not checkable
# for us. One documented difference: tshark calls a zero UDP checksum over IPv6 illegal even
# when the packet is truncated; we say not checkable there (we cannot give the right value).
tshark_bad() { # tshark_bad FILE: "frame layer" for every checksum tshark rejects
    tshark -n -r "$1" -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE \
        -o udp.check_checksum:TRUE -o ip.defragment:FALSE -o ipv6.defragment:FALSE \
        -T fields -E occurrence=f -e frame.number -e ip.checksum.status -e tcp.checksum.status \
        -e udp.checksum.status -e icmp.checksum.status -e icmpv6.checksum.status 2>/dev/null |
        awk -F'\t' 'BEGIN { split("ipv4 tcp udp icmp icmpv6", L, " ") }
                    { for (i = 2; i <= 6; i++) if ($i == "0" || $i == "4") print $1, L[i - 1] }'
}
our_bad() { sed -nE 's/^frame ([0-9]+): ([a-z0-9]+) checksum bad: .*/\1 \2/p'; }
truncated_zero_udp() { # frames where tshark's status 4 meets our "not checkable: truncated"
    "$CSUM" pcap verify --verbose "$1" | sed -nE 's/^frame ([0-9]+): udp checksum not checkable: truncated$/\1 udp/p'
}
if command -v tshark >/dev/null 2>&1; then
    for f in $captures; do
        tshark_bad "$C/$f" | sort >"$TMP/ts"
        "$CSUM" pcap verify "$C/$f" | our_bad | sort >"$TMP/ours"
        truncated_zero_udp "$C/$f" | sort >"$TMP/allowed"
        comm -23 "$TMP/ts" "$TMP/ours" | comm -23 - "$TMP/allowed" >"$TMP/only-tshark"
        comm -13 "$TMP/ts" "$TMP/ours" >"$TMP/only-ours"
        check $(( $(cat "$TMP/only-tshark" "$TMP/only-ours" | wc -l) != 0 )) \
            "tshark disagrees on $f: tshark only: $(head -3 "$TMP/only-tshark" | tr '\n' ' ') ours only: $(head -3 "$TMP/only-ours" | tr '\n' ' ')"
        "$CSUM" pcap fix "$C/$f" "$TMP/tsfixed" >/dev/null
        tshark_bad "$TMP/tsfixed" | sort | comm -23 - "$TMP/allowed" >"$TMP/ts-after"
        check $(( $(wc -l <"$TMP/ts-after") != 0 )) "tshark still finds bad checksums in fixed $f: $(head -3 "$TMP/ts-after" | tr '\n' ' ')"
    done
else
    echo "SKIPPED pcap: comparison with tshark (tshark not found)"
fi

echo "pcap: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
