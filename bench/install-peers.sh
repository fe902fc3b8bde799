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
exec "$(dirname "$0")/../scripts/install-deps.sh" "${packages[@]}"
