#!/usr/bin/env bash
# The embedding path as a user takes it: `cmake --install` eqc into a fresh prefix, build
# examples/embed against it with find_package(eqc) (static runtime), build one program again with
# pkg-config and the shared runtime, and once more with the model as a shared library
# (`eqc compile --shared`), run them, and check that the CSV of the embedded Lotka-Volterra
# program is exactly `eqc simulate`'s.
#   run.sh <eqc build dir> <eqc source dir> <scratch dir> [extra C flags]
set -euo pipefail
build=$1 source=$2 scratch=$3 cflags=${4:-}
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" > "$scratch/install.log"
test -f "$prefix/lib/libeqcrt.a" && test -f "$prefix/lib/libeqcrt.so" && test -f "$prefix/include/eqc/eqc_model.h"

cmake -S "$source/examples/embed" -B "$scratch/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$cflags" > "$scratch/configure.log"
cmake --build "$scratch/cmake" > "$scratch/build.log"
"$scratch/cmake/pendulum_energy"
"$scratch/cmake/two_models" > "$scratch/two_models.csv"
test "$(wc -l < "$scratch/two_models.csv")" -eq 16

# pkg-config and the shared library, as the README shows.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc -std=c99 -Wall -Wextra -Werror -pedantic $cflags -I"$scratch/cmake" "$source/examples/embed/pendulum_energy.c" \
  "$scratch/cmake/Pendulum.o" $(pkg-config --cflags --libs eqc) -o "$scratch/pendulum_energy_shared"
LD_LIBRARY_PATH=$prefix/lib "$scratch/pendulum_energy_shared" > "$scratch/shared.txt"
LD_LIBRARY_PATH=$prefix/lib ldd "$scratch/pendulum_energy_shared" | grep "$prefix/lib/libeqcrt.so" > /dev/null  # not -q: with pipefail, an early exit would fail ldd

# A shared-library model from the installed eqc (which finds the installed libeqcrt.a to link in).
"$prefix/bin/eqc" compile "$source/examples/pendulum.eq" --shared -o "$scratch/libPendulum.so"
cc -std=c99 -Wall -Wextra -Werror -pedantic $cflags -I"$scratch/cmake" "$source/examples/embed/pendulum_energy.c" \
  -L"$scratch" -lPendulum $(pkg-config --cflags --libs eqc) -o "$scratch/pendulum_energy_so"
LD_LIBRARY_PATH=$prefix/lib:$scratch "$scratch/pendulum_energy_so" > "$scratch/so.txt"
cmp "$scratch/shared.txt" "$scratch/so.txt"

# An FMU from the installed eqc (which finds the installed libeqcfmi2.a); its contents are checked
# in tests/driver/FmuTest.cpp.
"$prefix/bin/eqc" compile "$source/examples/pendulum.eq" --fmu -o "$scratch/Pendulum.fmu"
test -s "$scratch/Pendulum.fmu"

# The embedded program's numbers are eqc simulate's, exactly.
"$scratch/cmake/lotka_volterra_csv" > "$scratch/embedded.csv"
"$prefix/bin/eqc" simulate "$source/examples/lotka_volterra.eq" --vars x,y --quiet -o "$scratch/simulate.csv"
paste -d'|' "$scratch/embedded.csv" "$scratch/simulate.csv" | awk -F'|' '
  NR == 1 { if ($1 != $2) { print "headers differ: " $1 " against " $2; bad = 1; exit 1 } next }
  { n = split($1, a, ","); m = split($2, b, ",")
    if (n != m) { print "row " NR - 1 ": " n " against " m " columns"; bad = 1; exit 1 }
    for (i = 1; i <= n; ++i)
      if (a[i] + 0 != b[i] + 0) { print "row " NR - 1 " differs: " $1 " against " $2; bad = 1; exit 1 } }
  END { if (!bad) print "embedded = eqc simulate: " NR - 1 " rows, bit for bit" }'
test "$(wc -l < "$scratch/embedded.csv")" -eq "$(wc -l < "$scratch/simulate.csv")"
echo "embed: ok"
