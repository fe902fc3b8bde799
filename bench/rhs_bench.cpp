// `eqc_bench_rhs`: ns per right-hand-side call of eqc's JIT code against the same rhs written in C (-O2).
//
// For each force (sin: the issue's model; cubic: the same chain without libm calls) it generates
// the oscillator chain (bench/ChainModel.h), compiles it with runPipeline, checks that the JIT rhs
// and the C rhs agree at random states, then times both interleaved in rounds and reports medians.
// Speed is measured here, never in a timed test; the ctest runs only --smoke.
#include "bench/ChainModel.h"
#include "bench/chain_rhs.h"
#include "driver/Pipeline.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

using namespace eqc;
using namespace eqc::bench;

namespace {

const char *kUsage = R"(usage: eqc_bench_rhs [options]

Times one rhs call of the JIT code of a generated chain of N oscillators (2N equations) against
the same rhs hand-written in C and compiled with -O2, and one call of the generated sparse ODE
Jacobian against a hand-written C Jacobian filling the same compressed columns; prints medians
and the ratios JIT/C, for the sin force (the issue's model) and the cubic force (no libm calls).

options:
  --n N              oscillators (default 500, i.e. 1,000 equations)
  --force sin|cubic  only this force (default: both)
  --rounds R         timed rounds, each timing both functions (default 15)
  --round-ms MS      target duration of one function's batch in a round (default 30)
  --csv FILE         also write the results as CSV (model,equations,metric,value,unit)
  --keep-model DIR   write the generated models to DIR and keep them (default: temporary files)
  --smoke            N = 10, 3 short rounds: checks agreement and that timing runs (the ctest)
  -h, --help         this help
)";

struct Options {
  int n = 500;
  std::vector<ChainForce> forces{ChainForce::Sine, ChainForce::Cubic};
  int rounds = 15;
  double roundMs = 30;
  std::string csv;
  std::string keepModelDir;
};

using Clock = std::chrono::steady_clock;

/// The two functions under test and their buffers. Both are called through pointers so that
/// neither call can be inlined into the timing loop.
struct Subjects {
  eqc_model_rhs_fn jit = nullptr;
  chain_rhs_fn c = nullptr;
  int n = 0;
  std::vector<double> xJit, dxJit, a, pJit; ///< in the eqc model's slot order
  std::vector<double> xC, dxC, pC;          ///< in chain_rhs's layout (for the agreement check)
};

/// Seconds for `calls` calls of the JIT rhs.
double timeJit(Subjects &s, long calls, const double *x, double *dx) {
  eqc_model_rhs_fn fn = s.jit;
  auto start = Clock::now();
  int status = 0;
  for (long i = 0; i < calls; ++i)
    status |= fn(0.0, x, dx, s.a.data(), s.pJit.data());
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (status) {
    std::cerr << "eqc_bench_rhs: error: the JIT rhs returned " << status << " while timing\n";
    std::exit(1);
  }
  return seconds;
}

/// Seconds for `calls` calls of the C rhs.
double timeC(const Subjects &s, long calls, const double *x, double *dx) {
  chain_rhs_fn volatile pointer = s.c; // opaque to the optimizer, like the JIT's pointer
  chain_rhs_fn fn = pointer;
  auto start = Clock::now();
  int status = 0;
  for (long i = 0; i < calls; ++i)
    status |= fn(s.n, 0.0, x, dx, s.pC.data());
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (status)
    std::exit(1);
  return seconds;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// For each state slot of the eqc model, its index in chain_rhs's layout (x{i} → 2(i-1), v{i} →
/// 2(i-1)+1); empty when the model's states are not exactly the chain's 2n variables.
std::vector<int> stateLayout(const Compilation &c, int n) {
  const OdeModel &model = *c.model;
  if (model.states.size() != size_t(2 * n))
    return {};
  std::vector<int> toC(model.states.size(), -1);
  std::vector<char> seen(2 * n, 0);
  for (size_t s = 0; s < model.states.size(); ++s) {
    const std::string &name = c.flat->vars[model.states[s]].name;
    char *end = nullptr;
    long i = name.size() > 1 ? std::strtol(name.c_str() + 1, &end, 10) : 0;
    if ((name[0] != 'x' && name[0] != 'v') || !end || *end != '\0' || i < 1 || i > n)
      return {};
    int index = 2 * int(i - 1) + (name[0] == 'v');
    if (seen[index]++)
      return {};
    toC[s] = index;
  }
  return toC;
}

/// Compares the two rhs at `trials` random states in [-1, 1]; prints the first mismatch and
/// returns false. `worst` is the largest error seen, relative to max(|dx|, 1).
bool checkAgreement(Subjects &s, const std::vector<int> &toC, int trials, double &worst) {
  std::mt19937_64 rng(20240601);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  worst = 0;
  for (int trial = 0; trial < trials; ++trial) {
    for (double &v : s.xC)
      v = uniform(rng);
    for (size_t j = 0; j < toC.size(); ++j)
      s.xJit[j] = s.xC[toC[j]];
    std::fill(s.dxJit.begin(), s.dxJit.end(), NAN);
    std::fill(s.dxC.begin(), s.dxC.end(), NAN);
    int status = s.jit(0.0, s.xJit.data(), s.dxJit.data(), s.a.data(), s.pJit.data());
    s.c(s.n, 0.0, s.xC.data(), s.dxC.data(), s.pC.data());
    if (status) {
      std::cerr << "eqc_bench_rhs: error: the JIT rhs returned " << status << "\n";
      return false;
    }
    for (size_t j = 0; j < toC.size(); ++j) {
      double jit = s.dxJit[j], ref = s.dxC[toC[j]];
      // The terms are O(1), so the floor of 1 keeps cancellation near dx = 0 from counting.
      double err = std::fabs(jit - ref) / std::max(1.0, std::fabs(ref));
      if (!(err <= 1e-12)) {
        std::fprintf(stderr,
                     "eqc_bench_rhs: error: JIT and C rhs disagree (trial %d, slot %zu = C index %d): "
                     "JIT %.17g, C %.17g, relative error %.3g > 1e-12\n",
                     trial, j, toC[j], jit, ref, err);
        return false;
      }
      worst = std::max(worst, err);
    }
  }
  return true;
}

struct CaseResult {
  std::string model;
  int equations = 0;
  long calls = 0;
  double worstError = 0;
  std::vector<double> jitNs, cNs, ratios;
  int nonZeros = 0; ///< of the Jacobian; 0 when it was not timed
  long jacCalls = 0;
  double jacWorstError = 0;
  std::vector<double> jacJitNs, jacCNs, jacRatios;
  double compileSeconds = 0;
  std::vector<std::pair<std::string, double>> timings;
};

/// Calls per batch so that the slower of `a` and `b` (each: seconds for a number of calls) takes
/// about `roundMs`, then `rounds` interleaved rounds (the order alternating so that neither always
/// runs second): ns per call of each, and their per-round ratios.
template <typename A, typename B>
long timeInterleaved(A a, B b, double roundMs, int rounds, std::vector<double> &aNs, std::vector<double> &bNs,
                     std::vector<double> &ratios) {
  auto slower = [&](long calls) { return std::max(a(calls), b(calls)); };
  long calls = 1;
  while (slower(calls) < 1e-3 * roundMs / 4 && calls < (1L << 40))
    calls *= 2;
  calls = std::max(1L, long(1e-3 * roundMs / (slower(calls) / double(calls))));
  slower(calls); // warm-up round, not counted
  for (int round = 0; round < rounds; ++round) {
    double ta, tb;
    if (round % 2 == 0) {
      ta = a(calls);
      tb = b(calls);
    } else {
      tb = b(calls);
      ta = a(calls);
    }
    aNs.push_back(1e9 * ta / double(calls));
    bNs.push_back(1e9 * tb / double(calls));
    ratios.push_back(ta / tb);
  }
  return calls;
}

/// The generated Jacobian against chain_jac_*: the same pattern, values within 1e-12 at the
/// state x (where rhs was just evaluated), then timed; false (message printed) on a mismatch.
bool timeJacobian(const Options &o, Compilation &c, ChainForce force, Subjects &s, CaseResult &r) {
  eqc_model_jac_fn jit = c.jit->jacobian();
  const SparsityPattern *pattern = c.jit->jacobianPattern();
  if (!jit || !pattern) {
    std::cerr << "eqc_bench_rhs: error: no generated Jacobian for " << r.model << "\n";
    return false;
  }
  const int n = o.n;
  std::vector<int> colStart(2 * n + 1), rowIndex(5 * n - 2);
  chain_jac_pattern(n, colStart.data(), rowIndex.data());
  if (pattern->colStart != colStart || pattern->rowIndex != rowIndex) {
    std::cerr << "eqc_bench_rhs: error: the generated Jacobian's pattern (" << pattern->nnz()
              << " entries) is not the chain's (" << rowIndex.size() << ")\n";
    return false;
  }
  chain_jac_fn cJac = force == ChainForce::Sine ? &chain_jac_sin : &chain_jac_cubic;
  std::vector<double> jitValues(rowIndex.size()), cValues(rowIndex.size());
  if (s.jit(0.0, s.xJit.data(), s.dxJit.data(), s.a.data(), s.pJit.data()) ||
      jit(0.0, s.xJit.data(), s.dxJit.data(), s.a.data(), s.pJit.data(), jitValues.data())) {
    std::cerr << "eqc_bench_rhs: error: the JIT rhs or Jacobian failed\n";
    return false;
  }
  cJac(n, 0.0, s.xJit.data(), cValues.data(), s.pC.data());
  for (size_t k = 0; k < cValues.size(); ++k) {
    double err = std::fabs(jitValues[k] - cValues[k]) / std::max(1.0, std::fabs(cValues[k]));
    if (!(err <= 1e-12)) {
      std::fprintf(stderr, "eqc_bench_rhs: error: JIT and C Jacobians disagree at entry %zu: %.17g, %.17g\n", k,
                   jitValues[k], cValues[k]);
      return false;
    }
    r.jacWorstError = std::max(r.jacWorstError, err);
  }
  r.nonZeros = static_cast<int>(cValues.size());
  auto jitCalls = [&](long calls) {
    auto start = Clock::now();
    int status = 0;
    for (long i = 0; i < calls; ++i)
      status |= jit(0.0, s.xJit.data(), s.dxJit.data(), s.a.data(), s.pJit.data(), jitValues.data());
    if (status)
      std::exit(1);
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  auto cCalls = [&](long calls) {
    chain_jac_fn volatile pointer = cJac; // opaque to the optimizer, like the JIT's pointer
    chain_jac_fn fn = pointer;
    auto start = Clock::now();
    for (long i = 0; i < calls; ++i)
      fn(n, 0.0, s.xJit.data(), cValues.data(), s.pC.data());
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  r.jacCalls = timeInterleaved(jitCalls, cCalls, o.roundMs, o.rounds, r.jacJitNs, r.jacCNs, r.jacRatios);
  return true;
}

/// Generates, compiles, checks and times one force; false (message printed) on any failure.
bool runCase(const Options &o, ChainForce force, CaseResult &r) {
  r.model = chainModelName(o.n, force);
  r.equations = 2 * o.n;
  // The model goes through the same entry point as `eqc simulate`: a file on disk.
  std::filesystem::path path =
      o.keepModelDir.empty()
          ? std::filesystem::temp_directory_path() / (r.model + "_" + std::to_string(getpid()) + ".eq")
          : std::filesystem::path(o.keepModelDir) / (r.model + ".eq");
  {
    std::ofstream out(path);
    writeChainModel(out, o.n, force);
    if (!out) {
      std::cerr << "eqc_bench_rhs: error: cannot write '" << path.string() << "'\n";
      return false;
    }
  }
  Compilation c;
  auto compileStart = Clock::now();
  PipelineOptions options;
  options.optLevel = 2; // the optimized code itself, not the first tier of the automatic level
  ExitCode code = runPipeline(path.string(), options, c, std::cerr);
  r.compileSeconds = std::chrono::duration<double>(Clock::now() - compileStart).count();
  r.timings = c.timings;
  if (o.keepModelDir.empty())
    std::filesystem::remove(path);
  if (code != ExitOk) {
    std::cerr << "eqc_bench_rhs: error: the pipeline failed on " << r.model << " (exit " << int(code)
              << ")\n";
    return false;
  }

  // Map the eqc model's slots and parameters onto chain_rhs's layout by name.
  std::vector<int> toC = stateLayout(c, o.n);
  if (toC.empty()) {
    std::cerr << "eqc_bench_rhs: error: the states of " << r.model << " are not x1..xN, v1..vN\n";
    return false;
  }
  ChainParameters params;
  Subjects s;
  s.jit = c.jit->rhs;
  s.c = force == ChainForce::Sine ? &chain_rhs_sin : &chain_rhs_cubic;
  s.n = o.n;
  s.pC.assign(CHAIN_P_COUNT, 0.0);
  s.pC[CHAIN_P_K] = params.k;
  s.pC[CHAIN_P_C] = params.c;
  s.pC[CHAIN_P_D] = params.d;
  for (int v : c.model->params) {
    const std::string &name = c.flat->vars[v].name;
    if (name != "k" && name != "c" && name != "d") {
      std::cerr << "eqc_bench_rhs: error: unexpected parameter '" << name << "'\n";
      return false;
    }
    s.pJit.push_back(name == "k" ? params.k : name == "c" ? params.c : params.d);
  }
  s.xJit.assign(2 * o.n, 0.0);
  s.dxJit.assign(2 * o.n, 0.0);
  s.a.assign(std::max<size_t>(1, c.model->algebraics.size()), 0.0);
  s.xC.assign(2 * o.n, 0.0);
  s.dxC.assign(2 * o.n, 0.0);
  if (!checkAgreement(s, toC, 5, r.worstError))
    return false;

  // Both are timed at the last random state. When the slot order is chain_rhs's (the generator
  // declares the variables in that order), both also use the same buffers, so that neither gets a
  // luckier placement of x relative to dx (4K aliasing) than the other.
  bool sameLayout = true;
  for (size_t j = 0; j < toC.size(); ++j)
    sameLayout &= toC[j] == int(j);
  const double *xC = sameLayout ? s.xJit.data() : s.xC.data();
  double *dxC = sameLayout ? s.dxJit.data() : s.dxC.data();
  auto jit = [&](long calls) { return timeJit(s, calls, s.xJit.data(), s.dxJit.data()); };
  auto cRhs = [&](long calls) { return timeC(s, calls, xC, dxC); };

  r.calls = timeInterleaved(jit, cRhs, o.roundMs, o.rounds, r.jitNs, r.cNs, r.ratios);
  // The Jacobian is compared where the slots are chain_rhs's (the generator's order).
  return !sameLayout || timeJacobian(o, c, force, s, r);
}

void printCase(const Options &o, const CaseResult &r) {
  double jitMedian = median(r.jitNs), cMedian = median(r.cNs);
  auto [jitMin, jitMax] = std::minmax_element(r.jitNs.begin(), r.jitNs.end());
  auto [cMin, cMax] = std::minmax_element(r.cNs.begin(), r.cNs.end());
  std::printf("%s: %d equations; JIT and C agree at 5 random states (worst relative error %.2g)\n",
              r.model.c_str(), r.equations, r.worstError);
  std::printf("  %d rounds x %ld calls per function, interleaved\n", o.rounds, r.calls);
  std::printf("  JIT rhs    median %9.1f ns/call  (min %.1f, max %.1f)  %.2f ns/equation\n", jitMedian,
              *jitMin, *jitMax, jitMedian / r.equations);
  std::printf("  C rhs -O2  median %9.1f ns/call  (min %.1f, max %.1f)  %.2f ns/equation\n", cMedian, *cMin,
              *cMax, cMedian / r.equations);
  std::printf("  ratio JIT/C  %.3f (of the medians), %.3f (median of the per-round ratios)\n",
              jitMedian / cMedian, median(r.ratios));
  if (r.nonZeros) {
    double jj = median(r.jacJitNs), jc = median(r.jacCNs);
    std::printf("  Jacobian: %d non-zeros, the same pattern and values (worst relative error %.2g); %d rounds x %ld "
                "calls\n",
                r.nonZeros, r.jacWorstError, o.rounds, r.jacCalls);
    std::printf("  JIT jac    median %9.1f ns/call  %.2f ns/non-zero\n", jj, jj / r.nonZeros);
    std::printf("  C jac -O2  median %9.1f ns/call  %.2f ns/non-zero\n", jc, jc / r.nonZeros);
    std::printf("  ratio JIT/C  %.3f (of the medians), %.3f (median of the per-round ratios)\n", jj / jc,
                median(r.jacRatios));
  }
  std::printf("  compile %.1f ms:", 1e3 * r.compileSeconds);
  for (auto &[phase, seconds] : r.timings)
    std::printf(" %s %.1f", phase.c_str(), 1e3 * seconds);
  std::printf("\n");
}

void writeCsvRows(std::ostream &csv, const CaseResult &r) {
  auto row = [&](const std::string &metric, double value, const char *unit) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    csv << r.model << "," << r.equations << "," << metric << "," << buf << "," << unit << "\n";
  };
  row("rhs_jit_median", median(r.jitNs), "ns");
  row("rhs_c_median", median(r.cNs), "ns");
  row("rhs_jit_min", *std::min_element(r.jitNs.begin(), r.jitNs.end()), "ns");
  row("rhs_c_min", *std::min_element(r.cNs.begin(), r.cNs.end()), "ns");
  row("ratio_jit_over_c", median(r.jitNs) / median(r.cNs), "");
  row("ratio_jit_over_c_paired", median(r.ratios), "");
  row("rounds", double(r.jitNs.size()), "");
  row("calls_per_round", double(r.calls), "");
  row("max_relative_error", r.worstError, "");
  if (r.nonZeros) {
    row("jac_nonzeros", r.nonZeros, "");
    row("jac_jit_median", median(r.jacJitNs), "ns");
    row("jac_c_median", median(r.jacCNs), "ns");
    row("jac_ratio_jit_over_c", median(r.jacJitNs) / median(r.jacCNs), "");
    row("jac_ratio_jit_over_c_paired", median(r.jacRatios), "");
  }
  row("compile_total", r.compileSeconds, "s");
  for (auto &[phase, seconds] : r.timings)
    row("compile_" + phase, seconds, "s");
}

bool parseArgs(int argc, char **argv, Options &o) {
  auto integer = [&](int &i, long lo, long hi, int &out) {
    if (i + 1 >= argc)
      return false;
    char *end = nullptr;
    long v = std::strtol(argv[++i], &end, 10);
    out = int(v);
    return *end == '\0' && v >= lo && v <= hi;
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    ChainForce force;
    char *end = nullptr;
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--smoke") {
      o.n = 10;
      o.rounds = 3;
      o.roundMs = 1;
    } else if (arg == "--n" && integer(i, 1, 1000000, o.n)) {
    } else if (arg == "--rounds" && integer(i, 1, 10000, o.rounds)) {
    } else if (arg == "--round-ms" && i + 1 < argc && (o.roundMs = std::strtod(argv[++i], &end)) > 0 &&
               *end == '\0') {
    } else if (arg == "--force" && i + 1 < argc && parseForce(argv[++i], force)) {
      o.forces = {force};
    } else if (arg == "--csv" && i + 1 < argc) {
      o.csv = argv[++i];
    } else if (arg == "--keep-model" && i + 1 < argc) {
      o.keepModelDir = argv[++i];
    } else {
      std::cerr << "eqc_bench_rhs: error: bad option or value near '" << arg << "'\n" << kUsage;
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseArgs(argc, argv, o))
    return 2;
  std::vector<CaseResult> results;
  for (ChainForce force : o.forces) {
    results.emplace_back();
    if (!runCase(o, force, results.back()))
      return 1;
    printCase(o, results.back());
  }
  if (!o.csv.empty()) {
    std::ofstream csv(o.csv);
    csv << "model,equations,metric,value,unit\n";
    for (const CaseResult &r : results)
      writeCsvRows(csv, r);
    csv.close();
    if (!csv) {
      std::cerr << "eqc_bench_rhs: error: cannot write '" << o.csv << "'\n";
      return 1;
    }
  }
  return 0;
}
