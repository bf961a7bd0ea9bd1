#!/usr/bin/env bash
# make bench: run the lab, write bench-results/<date>-<host>/, and plot it.
# Usage: scripts/bench.sh BUILD_DIR [csum bench options...]
set -u
build=${1:?usage: bench.sh BUILD_DIR [options]}; shift
out="bench-results/$(date -u +%Y-%m-%d)-$(hostname -s 2>/dev/null || hostname)"
mkdir -p "$out"
"$build/csum" bench --out "$out" "$@" || exit $?

# Plots need matplotlib: use a local venv (.venv), made on first use.
why=""
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import matplotlib" 2>/dev/null; then
    echo "bench: setting up .venv with matplotlib (first run only)..." >&2
    if ! python3 -m venv .venv >/dev/null 2>&1; then
        why="python3 -m venv failed (is python3 with venv installed?)"
    elif ! timeout 300 .venv/bin/pip install -q matplotlib >/dev/null 2>&1; then
        why="pip could not install matplotlib into .venv (offline?)"
    fi
fi
if [ -z "$why" ]; then
    .venv/bin/python scripts/plot_bench.py "$out" || why="the plotting script failed"
fi
if [ -n "$why" ]; then
    printf '\n## Plots\n\nNot generated: %s. The tables above are complete.\n' "$why" >>"$out/report.md"
    echo "bench: no plots: $why" >&2
fi
echo "bench: report in $out/report.md"
