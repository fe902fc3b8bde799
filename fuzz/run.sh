#!/usr/bin/env bash
# Builds the fuzz targets with clang in build-fuzz/ and runs each for FUZZ_SECONDS (default 60),
# with a limit of FUZZ_TIMEOUT seconds per input (default 10; raise it on a loaded machine, where
# the default reports slow inputs that are no hang),
# starting from the examples and the corpus of bad models, with the language's dictionary.
# Findings go to build-fuzz/findings/<target>/; the growing corpus to build-fuzz/corpus/<target>/.
#   fuzz/run.sh [seconds] [target ...]     targets: parser frontend middle
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-${FUZZ_SECONDS:-60}}
timeout=${FUZZ_TIMEOUT:-10}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parser frontend middle)
CC=clang-14 CXX=clang++-14 cmake -G Ninja -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEQC_FUZZ=ON > /dev/null
cmake --build build-fuzz --target $(printf 'eqc_fuzz_%s ' "${targets[@]}")
for t in "${targets[@]}"; do
  corpus=build-fuzz/corpus/$t findings=build-fuzz/findings/$t
  mkdir -p "$corpus" "$findings"
  cp -n examples/*.eq tests/diagnostics/*.eq "$corpus"/ 2>/dev/null || true
  for f in examples/lib/*.eq; do cp -n "$f" "$corpus/lib_$(basename "$f")" 2>/dev/null || true; done
  echo "fuzz: $t for $seconds s"
  # A finding ends this target's run (libFuzzer stops at the first); the other targets still run.
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS=suppressions=fuzz/lsan.supp \
    build-fuzz/fuzz/eqc_fuzz_"$t" -max_total_time="$seconds" -dict=fuzz/eqc.dict -max_len=4096 -timeout="$timeout" \
    -rss_limit_mb=4096 -artifact_prefix="$findings"/ -print_final_stats=1 "$corpus" 2>&1 | tail -25 || status=1
done
echo "fuzz: findings (if any) in build-fuzz/findings/:"
ls build-fuzz/findings/*/ 2>/dev/null || true
exit "${status:-0}"
