#!/usr/bin/env bash
# Installs the Debian 12 packages that only bench/ uses as peers to compare against (run as root;
# idempotent): SUNDIALS (CVODE), Boost (Odeint) and GSL for eqc_bench_workprecision, SuiteSparse
# (KLU) for eqc_bench_sparselu, clang for the compile-time comparison of bench/run.py. Nothing else
# in the build or in CI needs them; without them CMake skips those benchmarks and run.py says so
# (without Boost or GSL, eqc_bench_workprecision runs without that peer).
set -euo pipefail

packages=(
  libsundials-dev                  # bench/workprecision.cpp: CVODE 6.4, nvecserial, dense solver
  libboost-dev                     # bench/workprecision.cpp: Boost.Odeint's dopri5 (header-only)
  libgsl-dev                       # bench/workprecision.cpp: GSL's odeiv2 rk8pd
  libsuitesparse-dev               # bench/sparselu_bench.cpp: KLU against Eigen's SparseLU
  clang-14                         # bench/run.py: the C right-hand sides compiled -O0 and -O2
  python3                          # bench/run.py, bench/gen_models.py
  python3-scipy python3-numpy      # bench/scipy_peer.py: solve_ivp as a peer (for /usr/bin/python3)
)
exec "$(dirname "$0")/../scripts/install-deps.sh" "${packages[@]}"
