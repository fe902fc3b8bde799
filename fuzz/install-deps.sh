#!/usr/bin/env bash
# Installs the Debian 12 packages that only the fuzz targets need (run as root;
# idempotent): clang and its libFuzzer runtime. Nothing else in the build or in CI needs them.
set -euo pipefail

packages=(
  clang-14                         # fuzz/: the compiler with -fsanitize=fuzzer
  libclang-rt-14-dev               # libFuzzer and the sanitizer runtimes for clang 14
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-fuzz-deps: all packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-fuzz-deps: missing packages: ${missing[*]}; run as root (or: sudo $0)" >&2
  exit 1
fi
echo "install-fuzz-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
