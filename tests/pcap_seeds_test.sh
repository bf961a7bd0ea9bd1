#!/usr/bin/env bash
# fuzz/pcap_seeds.py reproduces the committed seeds of the pcap fuzz targets: run on
# csum-pcapgen's corpus into a copy of fuzz/corpus/ and fuzz/pcap_seeds.generated, it changes
# nothing. A capture csum-pcapgen writes differently (new cases, shifted frames) without the
# seeds cut again, or a script that does not give the same bytes twice, fails here.
# Usage: tests/pcap_seeds_test.sh path/to/csum-pcapgen
set -u
GEN=${1:?usage: pcap_seeds_test.sh path/to/csum-pcapgen}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if ! command -v python3 >/dev/null 2>&1; then
    printf 'SKIPPED pcap seeds: python3 not found\n'
    finish pcap_seeds_test
    exit
fi
mkdir "$TMP/captures" "$TMP/fuzz"
"$GEN" "$TMP/captures" >/dev/null
check "csum-pcapgen writes its corpus" -- test -s "$TMP/captures/MANIFEST"
cp -R "$root/fuzz/corpus" "$TMP/fuzz/corpus"
cp "$root/fuzz/pcap_seeds.generated" "$TMP/fuzz/"
check "fuzz/pcap_seeds.py runs" -- python3 "$root/fuzz/pcap_seeds.py" "$TMP/captures" --into "$TMP/fuzz"
if diff -r "$root/fuzz/corpus" "$TMP/fuzz/corpus" >"$TMP/diff" &&
   cmp -s "$root/fuzz/pcap_seeds.generated" "$TMP/fuzz/pcap_seeds.generated"; then
    ok "fuzz/pcap_seeds.py changes no committed seed"
else
    fail "fuzz/pcap_seeds.py changes $(grep -c '^\(Only in\|Binary files\|diff\)' "$TMP/diff") committed seeds (build/csum-pcapgen DIR && fuzz/pcap_seeds.py DIR, then commit them)"
    head -n 10 "$TMP/diff" | sed "s|$TMP/fuzz|NEW|g; s|$root/||g; s/^/        /"
fi
finish pcap_seeds_test
