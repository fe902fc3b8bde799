// `eqc_bench_gen N out.eq [sin|cubic]`: writes the benchmark's chain of N oscillators (2N equations).
#include "bench/ChainModel.h"

#include <cstdlib>
#include <fstream>
#include <iostream>

int main(int argc, char **argv) {
  eqc::bench::ChainForce force = eqc::bench::ChainForce::Sine;
  if ((argc != 3 && argc != 4) || (argc == 4 && !eqc::bench::parseForce(argv[3], force))) {
    std::cerr << "usage: eqc_bench_gen N out.eq [sin|cubic]   (N oscillators: 2N states and equations)\n";
    return 2;
  }
  char *end = nullptr;
  long n = std::strtol(argv[1], &end, 10);
  if (*end != '\0' || n < 1 || n > 10000000) {
    std::cerr << "eqc_bench_gen: error: N must be a positive integer, got '" << argv[1] << "'\n";
    return 2;
  }
  std::ofstream out(argv[2]);
  eqc::bench::writeChainModel(out, static_cast<int>(n), force);
  out.close();
  if (!out) {
    std::cerr << "eqc_bench_gen: error: cannot write '" << argv[2] << "'\n";
    return 1;
  }
  return 0;
}
