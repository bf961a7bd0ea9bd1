#!/usr/bin/env bash
# Plot a lab run: scripts/plot.sh DIR (DIR/results.json -> DIR/*.png, a Plots section in
# DIR/report.md). matplotlib comes from a local venv (.venv, made on first use); its config and
# font cache are kept in .venv too (MPLCONFIGDIR), pip keeps no cache: nothing is written
# outside the repository. If plotting is impossible the report says why.
set -u
out=${1:?usage: plot.sh RUN_DIR}
cd "$(dirname "$0")/.."
export MPLCONFIGDIR="$PWD/.venv/mplconfig" XDG_CACHE_HOME="$PWD/.venv/cache" PIP_NO_CACHE_DIR=1
why=""
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import matplotlib" 2>/dev/null; then
    echo "plot: setting up .venv with matplotlib (first run only)..." >&2
    if ! python3 -m venv .venv >/dev/null 2>&1; then
        why="python3 -m venv failed (is python3 with venv installed?)"
    elif ! timeout 300 .venv/bin/pip install --no-cache-dir -q matplotlib >/dev/null 2>&1; then
        why="pip could not install matplotlib into .venv (offline?)"
    fi
fi
if [ -z "$why" ]; then
    mkdir -p "$MPLCONFIGDIR" "$XDG_CACHE_HOME"
    .venv/bin/python scripts/plot_bench.py "$out" || why="the plotting script failed"
fi
if [ -n "$why" ]; then
    printf '\n## Plots\n\nNot generated: %s. The tables above are complete.\n' "$why" >>"$out/report.md"
    echo "plot: no plots: $why" >&2
    exit 1
fi
