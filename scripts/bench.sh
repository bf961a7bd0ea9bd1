#!/usr/bin/env bash
# make bench: run the lab into a new directory bench-results/<UTC time>-<host>-<full|quick>/
# (never one that exists: a quick run cannot overwrite a full one), then plot it.
# Usage: scripts/bench.sh BUILD_DIR [csum bench options...]
# Writes nothing outside the repository: matplotlib's config and cache live in .venv/.
set -u
build=${1:?usage: bench.sh BUILD_DIR [options]}; shift
kind=full
for a in "$@"; do [ "$a" = "--quick" ] && kind=quick; done
base="bench-results/$(date -u +%Y-%m-%dT%H%M%S)-$(hostname -s 2>/dev/null || hostname)-$kind"
out=$base
n=1
while [ -e "$out" ]; do n=$((n + 1)); out="$base-$n"; done
mkdir -p bench-results
"$build/csum" bench --out "$out" "$@" || exit $?

scripts/plot.sh "$out" || true
echo "bench: report in $out/report.md"
