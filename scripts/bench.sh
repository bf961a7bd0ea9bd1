#!/usr/bin/env bash
# make bench: run the lab into a new directory bench-results/<UTC time>-<host>-<kind>/ (never
# one that exists: a quick run cannot overwrite a full one), then plot it. The kind is "full"
# only for the whole lab (every table, subject, mode and case: options that change none of
# them, --cpu, --noise, --repeats, --busy, allowed), "quick" with --quick, else "partial"
# (BENCH_ARGS="lenalign -M x86-herbert"): `make results` publishes full runs only.
# Usage: scripts/bench.sh BUILD_DIR [csum bench options...]
# Writes nothing outside the repository: matplotlib's config and cache live in .venv/.
set -u
build=${1:?usage: bench.sh BUILD_DIR [options]}; shift
kind=full value=0
for a in "$@"; do
    if [ "$value" = 1 ]; then value=0; continue; fi
    case $a in
    --quick) kind=quick ;;
    --cpu|--noise|--repeats) value=1 ;;
    --busy) ;;
    *) [ "$kind" = full ] && kind=partial ;;
    esac
done
base="bench-results/$(date -u +%Y-%m-%dT%H%M%S)-$(hostname -s 2>/dev/null || hostname)-$kind"
out=$base
n=1
while [ -e "$out" ]; do n=$((n + 1)); out="$base-$n"; done
mkdir -p bench-results
"$build/csum" bench --out "$out" "$@" || exit $?

scripts/plot.sh "$out" || true
echo "bench: report in $out/report.md"
