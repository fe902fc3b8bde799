#!/usr/bin/env bash
# Installs the Debian 12 packages that only the fuzz targets need (run as root;
# idempotent): clang and its libFuzzer runtime. Nothing else in the build or in CI needs them.
set -euo pipefail

packages=(
  clang-14                         # fuzz/: the compiler with -fsanitize=fuzzer
  libclang-rt-14-dev               # libFuzzer and the sanitizer runtimes for clang 14
)
exec "$(dirname "$0")/../scripts/install-deps.sh" "${packages[@]}"
