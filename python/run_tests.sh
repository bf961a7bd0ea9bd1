#!/usr/bin/env bash
# The Python package's suite (CTest: `python`, label full). In a fresh virtual environment
# under the build tree: `pip install` of the package from this source tree (scikit-build-core
# builds it with CMake, as a user's `pip install .` does) and of pytest, hypothesis, scapy,
# dpkt, numpy, mypy and build from PyPI; `python -m build` (sdist, and a wheel built from it);
# then pytest on python/tests, with the csum tool and csum-pcapgen of this build for the pcap
# comparisons. Everything it writes (venv, pip's cache and temporary files, Hypothesis'
# database) stays in BUILD/python-suite.
# If PyPI cannot be reached, it says SKIPPED loudly, builds the extension with CMake alone
# and fails only if that build fails.
# Usage: python/run_tests.sh BUILD_DIR [path/to/csum path/to/csum-pcapgen]   (PYTHON=python3.X)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: python/run_tests.sh BUILD_DIR [csum csum-pcapgen]}" && pwd)
cli=${2:-$build/csum}
gen=${3:-$build/csum-pcapgen}
python=${PYTHON:-python3}
work="$build/python-suite"

say() { printf 'python suite: %s\n' "$*"; }
fail() { say "FAIL: $*"; exit 1; }

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    fail "$python is missing or older than 3.9 (set PYTHON=...)"
fi
export PIP_CACHE_DIR="$work/pip-cache" TMPDIR="$work/tmp" PIP_DISABLE_PIP_VERSION_CHECK=1 \
       PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1 PIP_DEFAULT_TIMEOUT=30
unset PYTHONPATH CSUM_IMPL CSUM_DISPATCH CSUM_CPU_DISABLE CSUM_COPY_IMPL
export CSUM_DISPATCH_FILE=
rm -rf "$work/venv" "$work/tmp" "$work/pytest"
mkdir -p "$work/tmp" "$PIP_CACHE_DIR"
"$python" -m venv "$work/venv" || fail "cannot create a virtual environment with $python"
py="$work/venv/bin/python"
say "$("$py" --version) in $work/venv"

# Test tools first: when this fails, PyPI is out of reach (the package build would fail too).
if ! "$py" -m pip install -q pytest hypothesis scapy dpkt numpy mypy build >"$work/pip-tools.log" 2>&1; then
    tail -n 5 "$work/pip-tools.log" | sed 's/^/    /'
    say "=================================================================="
    say "SKIPPED: cannot install pytest/hypothesis/scapy/dpkt from PyPI (offline?)."
    say "SKIPPED: the Python tests did NOT run; checking that the extension builds."
    say "=================================================================="
    cmake -S "$root" -B "$work/cmake" -DCSUM_BUILD_PROGRAMS=OFF -DCSUM_BUILD_TESTS=OFF \
          -DCSUM_INSTALL=OFF -DCSUM_BUILD_PYTHON=ON -DPython_EXECUTABLE="$py" >"$work/cmake.log" 2>&1 &&
        cmake --build "$work/cmake" --parallel 2 >>"$work/cmake.log" 2>&1 ||
        { tail -n 30 "$work/cmake.log"; fail "the extension does not build"; }
    say "the extension builds (tests SKIPPED)"
    exit 0
fi

# The package, from this tree, the way users install it.
# -Werror as in CI: the extension and the library build without a warning.
if ! "$py" -m pip install -v --config-settings=cmake.define.CSUM_WERROR=ON "$root" \
        >"$work/pip-csum.log" 2>&1; then
    tail -n 40 "$work/pip-csum.log"
    fail "pip install of the package failed (log: $work/pip-csum.log)"
fi
grep -iE '(warning|error):' "$work/pip-csum.log" | grep -v 'WARNING: Skipping' | head -n 20
"$py" - "$root" <<'PY' || fail "the installed package is not the one just built"
import os, sys, csum, csum._csum
source = os.path.join(os.path.realpath(sys.argv[1]), "python", "csum")
where = os.path.realpath(csum._csum.__file__)
assert os.path.dirname(where) != source, f"imported from the source tree: {where}"
assert "site-packages" in where, where
print(f"python suite: csum {csum.__version__} from {os.path.dirname(where)}, "
      f"{csum.active().name} ({csum.dispatch()})")
PY

# `python -m build`: an sdist that holds what the wheel needs, and a wheel built from it.
if ! "$py" -m build --outdir "$work/dist" "$root" >"$work/build.log" 2>&1; then
    tail -n 30 "$work/build.log"
    fail "python -m build failed (log: $work/build.log)"
fi
"$py" - "$work/dist" "$root/python/src/pcap_adapter.c" <<'PY' || fail "python -m build made an incomplete sdist or wheel"
import glob, re, sys, tarfile, zipfile
(sdist,), (wheel,) = glob.glob(sys.argv[1] + "/*.tar.gz"), glob.glob(sys.argv[1] + "/*.whl")
names = {n.split("/", 1)[1] for n in tarfile.open(sdist).getnames() if "/" in n}
need = {"pyproject.toml", "CMakeLists.txt", "include/csum_version.h", "python/src/pcap_adapter.c",
        "cli/file_io.c", "cli/file_io.h", "pcap/csum_pcap.h", "python/csum/py.typed"}
# every file of the CLI's csum pcap, which the extension compiles (src/pcap_adapter.c)
need |= {"cli/cmd_pcap.h"} | {"cli/" + f for f in re.findall(r'#include "(cmd_pcap[a-z_]*\.c)"',
                                                              open(sys.argv[2]).read())}
assert need <= names, need - names
files = zipfile.ZipFile(wheel).namelist()
assert any(f.startswith("csum/_csum.") and f.endswith(".so") for f in files), files
assert {"csum/py.typed", "csum/_csum.pyi", "csum/scapy.py", "csum/pcap.py"} <= set(files), files
print(f"python suite: python -m build made {sdist.rsplit('/', 1)[1]} and {wheel.rsplit('/', 1)[1]}")
PY

abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
[ -x "$cli" ] && export CSUM_CLI="$(abs "$cli")"
[ -x "$gen" ] && export CSUM_PCAPGEN="$(abs "$gen")"
cd "$work" || exit 1 # Hypothesis keeps its database in the working directory
"$py" -m pytest "$root/python/tests" -p no:cacheprovider --basetemp="$work/pytest" -q -rs \
    --durations=5
