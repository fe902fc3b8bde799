# The two entry points of the README: `make demo` and `make test` (each installs what is missing first).
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: deps configure build demo test test-asan bench fuzz clean

deps:
	scripts/install-deps.sh

configure: deps
	cmake -G Ninja -S . -B $(BUILD) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/eqc check examples/oscillator.eq
	$(BUILD)/eqc simulate examples/oscillator.eq -o $(BUILD)/oscillator.csv --stats
	@echo "first and last rows of $(BUILD)/oscillator.csv:"
	@head -3 $(BUILD)/oscillator.csv && tail -1 $(BUILD)/oscillator.csv

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (Debug).
test-asan: deps
	cmake -G Ninja -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DEQC_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# The benchmark suite (bench/README.md): installs the peers (SUNDIALS, KLU, clang) first, then
# writes $(BUILD)/bench-results/results.csv and summary.md. BENCH_ARGS: e.g. --sizes 100,1000.
BENCH_ARGS ?=
bench: deps
	bench/install-peers.sh
	cmake -G Ninja -S . -B $(BUILD) $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	python3 bench/run.py --build $(BUILD) $(BENCH_ARGS)

# libFuzzer targets (clang, in build-fuzz/): FUZZ_SECONDS per target (default 60), FUZZ_TIMEOUT
# seconds per input (default 10).
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
fuzz: deps
	fuzz/install-deps.sh
	FUZZ_TIMEOUT=$(FUZZ_TIMEOUT) fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
