# Thin driver over CMake. `make help` lists the targets.
BUILD      ?= build
BUILD_TYPE ?= RelWithDebInfo
CMAKE      ?= cmake
GENERATOR  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
# Extra -D options for cmake, e.g. CMAKE_ARGS="-DCSUM_WERROR=ON".
CMAKE_ARGS ?=

# make install: where to (cmake --install --prefix), and an optional staging root.
PREFIX     ?= /usr/local
DESTDIR    ?=
# make fuzz: seconds per libFuzzer target; the compiler (libFuzzer needs clang).
FUZZ_SECONDS ?= 60
FUZZ_CC    ?= clang

.PHONY: all build check test test-asan test-tsan test-cpus test-arm64 test-s390x test-musl bench results tune-results golden install uninstall fuzz help clean

all: build

# Configured once, when the build directory has no CMakeCache.txt yet. The check is in the
# recipe, not a file target: make cannot name a path with a space as a target or prerequisite,
# and BUILD may have one. Every $(BUILD) below is quoted for the same reason.
build:
	test -f "$(BUILD)/CMakeCache.txt" || \
	    $(CMAKE) -S . -B "$(BUILD)" $(GENERATOR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)
	$(CMAKE) --build "$(BUILD)" --parallel

# The suites are registered with CTest (CMakeLists.txt): `ctest --test-dir build -N -L full`
# lists them, `ctest --test-dir build -R NAME` runs one. Two at a time, output on failure.
CTEST      ?= ctest --output-on-failure --parallel 2 --test-dir

check: build ## fast suite for the edit loop (< 1 min)
	$(CTEST) "$(BUILD)" -L check

test: build ## full suite (< 10 min)
	$(CTEST) "$(BUILD)" -L full

test-asan: ## the suites labelled sanitize (unit, cli, pcap, fuzz-corpus) under ASan + UBSan
	$(MAKE) BUILD=build-asan BUILD_TYPE=Debug CMAKE_ARGS="-DCSUM_SANITIZE=ON $(CMAKE_ARGS)" build
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(CTEST) build-asan -L sanitize

test-tsan: ## the tests of concurrent first use (plans, plan file, copies) under ThreadSanitizer
	$(MAKE) BUILD=build-tsan BUILD_TYPE=RelWithDebInfo CMAKE_ARGS="-DCSUM_SANITIZE_THREAD=ON $(CMAKE_ARGS)" build
	TSAN_OPTIONS=halt_on_error=1 build-tsan/csum-test -t api-selection -t dispatch-sources -t copy-api

test-cpus: build ## the x86-64 suite under qemu-x86_64 on CPUs without AVX2, ADX, BMI2, ...
	tests/run_cpus.sh "$(BUILD)"

test-arm64: ## cross-build for arm64 and run csum-test, the cli, the quick pcap suite and the fuzz corpus under qemu-aarch64, then csum-test --quick under UBSan
	tests/run_emulated.sh aarch64

test-s390x: ## the same for big-endian s390x under qemu-s390x
	tests/run_emulated.sh s390x

test-musl: ## build with musl-gcc (musl-tools; build-musl/) and run csum-test, the cli, the quick pcap suite and the fuzz corpus
	tests/run_musl.sh

# Extra options for the lab, e.g. BENCH_ARGS="--quick" or BENCH_ARGS="lenalign -M x86-herbert".
BENCH_ARGS ?=

bench: build ## the lab: every table, report + JSON + CSV + plots in a new bench-results/<time>-<host>-<kind>/
	scripts/bench.sh "$(BUILD)" $(BENCH_ARGS)

# make results: the run to publish (default: the newest full run) and a one-line note for the
# README (who ran it, on what, why).
RUN  ?=
NOTE ?=
results: ## publish a full run to docs/results/<cpu>/ and regenerate the README's Results section
	python3 scripts/results.py publish $(RUN) $(if $(NOTE),--note "$(NOTE)")

# make tune-results: the measurements a compiled-in plan rests on (src/dispatch_defaults.c), kept
# with the machine class's results. TUNE_ARGS='--runs 3' for more tune runs, '--quick' to try it.
TUNE_ARGS ?=
tune-results: build ## csum tune (twice) and the short table under each plan it proposes, kept in docs/results/<cpu>/tune/
	python3 scripts/tune_results.py "$(BUILD)" $(TUNE_ARGS)

install: build ## install into $(PREFIX), staged under $(DESTDIR) if set
	DESTDIR="$(DESTDIR)" $(CMAKE) --install "$(BUILD)" --prefix "$(PREFIX)"

# The files in $(BUILD)/install_manifest.txt, and the directories that install created
# (cmake/uninstall.cmake). No build first: it needs only what the last install left.
uninstall: ## remove what the last make install from $(BUILD) installed (the same DESTDIR)
	DESTDIR="$(DESTDIR)" $(CMAKE) -DCSUM_BUILD_DIR="$(BUILD)" -P cmake/uninstall.cmake

fuzz: ## each libFuzzer target for FUZZ_SECONDS, from its seed corpus (clang, ASan, build-fuzz/)
	$(CMAKE) -S . -B build-fuzz $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCMAKE_C_COMPILER=$(FUZZ_CC) -DCSUM_FUZZ=ON $(CMAKE_ARGS)
	$(CMAKE) --build build-fuzz --parallel --target csum-fuzzers
	fuzz/run_fuzzers.sh build-fuzz $(FUZZ_SECONDS)

golden: build ## regenerate tests/golden_vectors.h from the oracle (then review the diff)
	"$(BUILD)/csum-test" --print-golden > tests/golden_vectors.h

clean:
	rm -rf build build-asan build-tsan build-clang build-arm64 build-arm64-ubsan build-s390x build-s390x-ubsan build-musl build-gcc-O1 build-gcc-Os build-gcc-O3 build-fuzz

help:
	@echo "csum make targets:"
	@echo "  make            build build/libcsum.a, build/libcsum.so, build/csum, build/csum-test"
	@echo "  make check      quick tests (< 1 min)"
	@echo "  make test       full test suite (< 10 min)"
	@echo "  make test-asan  the unit, cli, pcap and fuzz-corpus suites with ASan + UBSan"
	@echo "                  (build-asan/; the suites labelled sanitize)"
	@echo "  make test-tsan  concurrent first use under ThreadSanitizer (build-tsan/)"
	@echo "  make test-cpus  x86-64 suite under qemu-x86_64 -cpu qemu64, Haswell-v4, max,-bmi2, ..."
	@echo "  make test-arm64 csum-test, cli, quick pcap, fuzz corpus for arm64 under qemu-aarch64 (build-arm64/),"
	@echo "                  and csum-test --quick built with UBSan (build-arm64-ubsan/)"
	@echo "  make test-s390x the same for big-endian s390x under qemu-s390x (build-s390x/, build-s390x-ubsan/)"
	@echo "  make test-musl  csum-test, cli, quick pcap, fuzz corpus built with musl-gcc (musl-tools;"
	@echo "                  build-musl/): the C library Alpine uses"
	@echo "  make bench      the lab: all tables, report/JSON/CSV/plots in bench-results/"
	@echo "                  (BENCH_ARGS='--quick' for a check run; never overwrites a run)"
	@echo "  make results    publish a full run (RUN=dir, default the newest; NOTE='...') to"
	@echo "                  docs/results/<cpu>/ and regenerate the README's Results section"
	@echo "  make tune-results  csum tune (twice) and the lab's short table under each plan it"
	@echo "                  proposes, kept in docs/results/<cpu>/tune/, and the dispatch row"
	@echo "                  they suggest (TUNE_ARGS='--runs 3', '--quick')"
	@echo "  make install    install into PREFIX=$(PREFIX) (DESTDIR=dir to stage): library,"
	@echo "                  header, csum, csum(1), csum.pc, CMake package"
	@echo "  make uninstall  remove what the last make install from BUILD installed (its files,"
	@echo "                  and the directories it created once empty; DESTDIR as for install)"
	@echo "  make fuzz       each libFuzzer target for FUZZ_SECONDS=$(FUZZ_SECONDS) s (clang; build-fuzz/)"
	@echo "  make golden     regenerate tests/golden_vectors.h from the oracle (then review the diff)"
	@echo "  make clean      remove build directories"
	@echo "Variables: BUILD=dir  BUILD_TYPE=Release|Debug|...  CC=clang  CMAKE_ARGS='-D...'"
	@echo "           PREFIX=dir  DESTDIR=dir  FUZZ_SECONDS=n"
