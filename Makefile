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

bench: build
	$(BUILD)/bench/eqc_bench_rhs --n 500 --csv $(BUILD)/bench-rhs.csv
	@if [ -x $(BUILD)/bench/eqc_bench_workprecision ]; then $(BUILD)/bench/eqc_bench_workprecision --csv $(BUILD)/bench-workprecision.csv; else echo "bench: eqc_bench_workprecision not built (needs SUNDIALS: bench/install-peers.sh)"; fi

# libFuzzer targets (clang, in build-fuzz/): FUZZ_SECONDS per target (default 60).
FUZZ_SECONDS ?= 60
fuzz: deps
	fuzz/install-deps.sh
	fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
