// The runs of a study for `eqc sweep`: grids, lists, Monte Carlo samples (plain or Latin
// hypercube) and a CSV of parameter sets, combined as a Cartesian product (driver-internal).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace eqc {

/// The distributions of `-p name~dist(a,b)`: one list drives the parser, the sampler and the help.
#define EQC_SWEEP_DISTRIBUTIONS(X)                                                                                    \
  X(Normal, "normal", "normal(mean, std)")                                                                            \
  X(Uniform, "uniform", "uniform(low, high)")                                                                         \
  X(LogNormal, "lognormal", "lognormal(mu, sigma): exp of normal(mu, sigma)")

enum class Distribution {
#define EQC_X(id, name, help) id,
  EQC_SWEEP_DISTRIBUTIONS(EQC_X)
#undef EQC_X
};

/// One `-p` of a sweep: a name with its values (one value, a list, a range) or a distribution.
struct Factor {
  std::string name;
  std::vector<double> values; ///< empty for a distribution
  bool random = false;
  Distribution distribution = Distribution::Normal;
  double a = 0, b = 0; ///< the distribution's two arguments
};

/// Parses `name=v`, `name=v1,v2,...`, `name=first:step:last` (last included when on the grid),
/// `name=first:last` (step 1) or `name~dist(a,b)`. False with the reason in `error`.
bool parseFactor(const std::string &spec, Factor &factor, std::string &error);

/// How a study is made.
struct DesignOptions {
  std::vector<Factor> factors;
  long samples = 0;           ///< Monte Carlo samples of the random factors (required with any)
  std::uint64_t seed = 1;     ///< of the samples: the same seed, the same runs
  bool latinHypercube = false; ///< stratified samples: each of `samples` equal-probability bins once
  std::string runsFile;       ///< CSV of parameter sets: a header of names, one run per row
};

/// The runs: names (the columns) and one row of values per run. Rows are the Cartesian product of
/// the blocks, in the order given: each list or range factor, the Monte Carlo samples (all random
/// factors jointly), the CSV's rows; the last block varies fastest.
struct Design {
  std::vector<std::string> names;
  std::vector<std::vector<double>> runs;
};

/// Requires: factors parsed. Ensures: the design, or false with the reason on `err` (a name
/// given twice, random factors without --samples, a bad CSV with its line).
bool makeDesign(const DesignOptions &options, Design &design, std::ostream &err);

/// The standard normal distribution's quantile function (Wichura's AS 241, relative accuracy
/// about 1e-16); p in (0, 1).
double normalQuantile(double p);

/// The help lines of the distributions (one per line, indented).
std::string distributionHelp();

} // namespace eqc
