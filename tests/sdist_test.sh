#!/usr/bin/env bash
# The Python package's sdist, as pyproject.toml's backend (scikit-build-core) makes it, without
# the network: its PEP 517 build_sdist hook called directly, then, from the sdist unpacked away
# from the source tree, the wheel built with pip --no-build-isolation --no-index (as a
# distribution builds a Python package) and installed and imported, and the csum tool and
# csum-pcapgen that python/tests compare with built with CMake. The sdist must leave out the
# lab's measurements (docs/results), the fuzz corpus and CI's script (it was 5.2 MB with them),
# keep what those builds and the tests read, and stay under SDIST_LIMIT bytes.
# scikit-build-core comes from the Python (PYTHON=python3) if it has it, else from this suite's
# wheelhouse (BUILD/sdist-suite/wheelhouse), filled from PyPI on the first run; with none of
# them it says SKIPPED loudly.
# Usage: tests/sdist_test.sh BUILD_DIR
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
build=$(cd "${1:?usage: sdist_test.sh BUILD_DIR}" && pwd)
python=${PYTHON:-python3}
work="$build/sdist-suite"
limit=${SDIST_LIMIT:-1048576} # 1 MiB; about 0.6 MB in version 1.0.0 without the data
gen=$(command -v ninja >/dev/null && echo "-G Ninja")

export PIP_CACHE_DIR="$work/pip-cache" TMPDIR="$work/tmp" PIP_DISABLE_PIP_VERSION_CHECK=1 \
       PIP_NO_INPUT=1 PYTHONDONTWRITEBYTECODE=1 PIP_DEFAULT_TIMEOUT=30 CMAKE_BUILD_PARALLEL_LEVEL=2
unset PYTHONPATH CSUM_IMPL CSUM_DISPATCH CSUM_CPU_DISABLE CSUM_COPY_IMPL
rm -rf "$work/venv" "$work/tmp" "$work/dist" "$work/unpacked" "$work/wheel" "$work/programs"
mkdir -p "$work/tmp" "$work/dist" "$work/unpacked" "$PIP_CACHE_DIR"

# ---- the backend ----------------------------------------------------------------------------
# A virtual environment that sees the Python's own packages (a distribution's
# python3-scikit-build-core), to install the wheel into.
if ! "$python" -m venv --system-site-packages "$work/venv" >"$work/venv.log" 2>&1; then
    cat "$work/venv.log"; fail "sdist: cannot create a virtual environment with $python"
    finish sdist_test; exit
fi
py="$work/venv/bin/python"
# Else from the suite's wheelhouse, filled from PyPI the first time: later runs need no network.
backend() {
    "$py" -c 'import scikit_build_core' 2>/dev/null && return
    "$py" -m pip install -q --no-index --find-links "$work/wheelhouse" scikit-build-core \
        >"$work/pip-backend.log" 2>&1 && return
    "$py" -m pip download -q -d "$work/wheelhouse" scikit-build-core >>"$work/pip-backend.log" 2>&1 &&
        "$py" -m pip install -q --no-index --find-links "$work/wheelhouse" scikit-build-core \
            >>"$work/pip-backend.log" 2>&1
}
if ! backend; then
    tail -n 3 "$work/pip-backend.log" | sed 's/^/    /'
    printf 'SKIPPED sdist: %s\n' \
        "==================================================================" \
        "scikit-build-core is neither installed for $python nor to be had from PyPI" \
        "(offline?) nor in $work/wheelhouse: the sdist was NOT checked" \
        "=================================================================="
    finish sdist_test; exit
fi

# ---- the sdist --------------------------------------------------------------------------------
make_sdist() {
    (cd "$root" && "$py" -c 'import sys; from scikit_build_core.build import build_sdist
print(build_sdist(sys.argv[1]))' "$work/dist")
}
check "sdist: scikit-build-core $("$py" -c 'import scikit_build_core as s; print(s.__version__)') makes it offline" -- \
    make_sdist
sdist=$(find "$work/dist" -name '*.tar.gz' | head -n 1)
[ -n "$sdist" ] || { fail "sdist: no .tar.gz made"; finish sdist_test; exit; }
size=$(stat -c %s "$sdist")
if [ "$size" -lt "$limit" ]; then
    ok "sdist: ${sdist##*/} is $size bytes, under $limit"
else
    fail "sdist: ${sdist##*/} is $size bytes, not under $limit; its largest files:"
    tar tzvf "$sdist" | sort -k3 -rn | head -n 10 | awk '{ print "        " $3 "  " $6 }'
fi
contents() { # the sdist's members, less the top directory (csum-1.0.0/)
    tar tzf "$sdist" | sed -n 's|^[^/]*/||p' | grep -v '^$'
}
leaks=$(contents | grep -E '^(docs/results|docs/img|fuzz/corpus|\.ci|\.git|bench-results|build[^/]*|\.venv)(/|$)' |
        cut -d/ -f1-2 | sort -u)
if [ -z "$leaks" ]; then
    ok "sdist: no docs/results, fuzz/corpus, .ci, .git, build trees, bench-results or .venv"
else
    fail "sdist: carries $(echo $leaks)"
fi
need=(PKG-INFO pyproject.toml CMakeLists.txt cmake/dependency_option.cmake include/csum.h
      include/csum_version.h src/dispatch.c src/isa.h src/x86/avx2.c src/arm/neon.c
      src/generic/generic.c pcap/csum_pcap.h cli/file_io.c
      python/CMakeLists.txt python/src/module.c python/csum/__init__.py python/csum/py.typed
      python/tests/conftest.py README.md python/README.md CHANGELOG.md docs/SOURCES.md
      oracle/oracle.c tools/pcapgen/main.c bench/lab_build.h.in man/csum.1.in
      $(cd "$root" && echo cli/cmd_pcap*)) # csum pcap's files, which the extension compiles
missing=$(comm -23 <(printf '%s\n' "${need[@]}" | sort) <(contents | sort))
if [ -z "$missing" ]; then
    ok "sdist: has the sources, python/ with its tests, the READMEs, CHANGELOG.md, docs/SOURCES.md"
else
    fail "sdist: misses $(echo $missing)"
fi

# ---- built from the sdist alone -------------------------------------------------------------------
tar xzf "$sdist" -C "$work/unpacked" || { fail "sdist: cannot unpack"; finish sdist_test; exit; }
src=$(find "$work/unpacked" -mindepth 1 -maxdepth 1 -type d)
wheel_from_sdist() {
    "$py" -m pip wheel -v --no-cache-dir --no-build-isolation --no-deps --no-index -w "$work/wheel" \
        --config-settings=cmake.define.CSUM_WERROR=ON "$src" >"$work/wheel.log" 2>&1 ||
        { tail -n 30 "$work/wheel.log"; return 1; }
    "$py" -m pip install -q --no-cache-dir --no-deps --no-index "$work"/wheel/*.whl >>"$work/wheel.log" 2>&1 ||
        { tail -n 10 "$work/wheel.log"; return 1; }
    # From the installed wheel, not a source tree; the docstring's example header.
    (cd "$work/tmp" && "$py" -c 'import csum, os, sys
assert "site-packages" in csum._csum.__file__, csum._csum.__file__
assert csum.checksum(bytes.fromhex("450000730000400040110000c0a80001c0a800c7")) == 0xb861
print("csum", csum.__version__, "from", os.path.dirname(csum._csum.__file__))')
}
check "sdist: pip builds the wheel from it offline (--no-build-isolation), and it imports" -- \
    wheel_from_sdist
programs_from_sdist() {
    cmake -S "$src" -B "$work/programs" $gen -DCSUM_BUILD_TESTS=OFF -DCSUM_INSTALL=OFF \
        -DCSUM_LAB_DPDK=OFF -DCSUM_WERROR=ON >"$work/programs.log" 2>&1 &&
        cmake --build "$work/programs" --target csum csum-pcapgen >>"$work/programs.log" 2>&1 &&
        "$work/programs/csum" --version ||
        { tail -n 30 "$work/programs.log"; return 1; }
}
check "sdist: the csum tool and csum-pcapgen (what python/tests compare with) build from it" -- \
    programs_from_sdist
finish sdist_test
