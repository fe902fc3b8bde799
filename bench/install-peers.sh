#!/usr/bin/env bash
# Installs the Debian 12 packages that only bench/ uses as peers to compare against (run as root;
# idempotent): SUNDIALS (CVODE) for eqc_bench_workprecision, SuiteSparse (KLU) for
# eqc_bench_sparselu. Nothing else in the build or in CI needs them; without them CMake simply
# skips those benchmarks.
set -euo pipefail

packages=(
  libsundials-dev                  # bench/workprecision.cpp: CVODE 6.4, nvecserial, dense solver
  libsuitesparse-dev               # bench/sparselu_bench.cpp: KLU against Eigen's SparseLU
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-peers: all packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-peers: missing packages: ${missing[*]}; run as root (or: sudo $0)" >&2
  exit 1
fi
echo "install-peers: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
