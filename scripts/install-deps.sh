#!/usr/bin/env bash
# Installs the Debian 12 packages eqc needs to build and test (run as root; idempotent).
#   scripts/install-deps.sh [package ...]   with arguments: those packages instead (bench/ and
#                                           fuzz/ install their peers through this)
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  antlr4 libantlr4-runtime-dev     # grammar/: the 4.7.2 tool, the 4.9 C++ runtime
  llvm-14-dev                      # backend/: IR, optimizer, ORC JIT (linked as libLLVM-14.so)
  libeigen3-dev                    # runtime/: dense LU
  libjemalloc-dev                  # the eqc executable's allocator (faster than glibc's on the pipeline)
  libzip-dev                       # driver/: the FMU archive (deflated)
  libffi-dev                       # middle/: calls of external C functions at translation time
  liblapack-dev                    # external "FORTRAN 77" functions of MSL's Modelica.Math.Matrices.LAPACK
  libhdf5-dev zlib1g-dev           # driver/: eqc sweep's results file, compressed; -o run.h5
  libmatio-dev                     # driver/: eqc simulate -o run.mat (the MAT v4 layout of Modelica tools)
  libopenmpi-dev openmpi-bin       # driver/: mpirun -n N eqc sweep (optional: eqc builds without it)
  qemu-user                        # tests/: FMUs run on an older CPU (qemu-x86_64 -cpu Nehalem)
  libgtest-dev libgmock-dev        # tests/
  python3                          # bench/run.py and bench/gen_models.py (their smoke test runs in ctest)
  python3-h5py python3-scipy       # tests/: the HDF5 and MAT files read back as Python users do
)
if [ $# -gt 0 ]; then
  packages=("$@")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}; run as root (or: sudo $0)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
