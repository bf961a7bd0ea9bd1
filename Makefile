# Thin driver over CMake. `make help` lists the targets.
BUILD      ?= build
BUILD_TYPE ?= RelWithDebInfo
CMAKE      ?= cmake
GENERATOR  := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")
# Extra -D options for cmake, e.g. CMAKE_ARGS="-DCSUM_WERROR=ON".
CMAKE_ARGS ?=

.PHONY: all build check test test-asan bench help clean

all: build

$(BUILD)/CMakeCache.txt:
	$(CMAKE) -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)

build: $(BUILD)/CMakeCache.txt
	$(CMAKE) --build $(BUILD) --parallel

check: build ## fast suite for the edit loop (< 1 min)
	$(BUILD)/csum-test --quick
	tests/cli_test.sh $(BUILD)/csum
	tests/pcap_test.sh $(BUILD)/csum $(BUILD)/csum-pcapgen --quick

test: build ## full suite (< 10 min)
	$(BUILD)/csum-test
	tests/cli_test.sh $(BUILD)/csum
	tests/pcap_test.sh $(BUILD)/csum $(BUILD)/csum-pcapgen

test-asan: ## full suite under AddressSanitizer + UndefinedBehaviorSanitizer
	$(MAKE) BUILD=build-asan BUILD_TYPE=Debug CMAKE_ARGS="-DCSUM_SANITIZE=ON $(CMAKE_ARGS)" build
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build-asan/csum-test
	tests/cli_test.sh build-asan/csum
	tests/pcap_test.sh build-asan/csum build-asan/csum-pcapgen

bench: build ## the lab (for now: list implementations and verify them on this CPU)
	$(BUILD)/csum impls
	$(BUILD)/csum verify

clean:
	rm -rf build build-asan build-clang

help:
	@echo "csum make targets:"
	@echo "  make            build build/libcsum.a, build/libcsum.so, build/csum, build/csum-test"
	@echo "  make check      quick tests (< 1 min)"
	@echo "  make test       full test suite (< 10 min)"
	@echo "  make test-asan  full suite with ASan + UBSan (build-asan/)"
	@echo "  make bench      the lab"
	@echo "  make clean      remove build directories"
	@echo "Variables: BUILD=dir  BUILD_TYPE=Release|Debug|...  CC=clang  CMAKE_ARGS='-D...'"
