// The runs of a study: factors parsed from -p, combined into one table of parameter sets.
#include "driver/SweepDesign.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace eqc {
namespace {

bool parseNumber(const std::string &text, double &out) {
  std::string t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
    t.pop_back();
  size_t first = t.find_first_not_of(" \t");
  if (first == std::string::npos)
    return false;
  t = t.substr(first);
  char *end = nullptr;
  out = std::strtod(t.c_str(), &end);
  return *end == 0 && std::isfinite(out);
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  std::string item;
  std::stringstream ss(s);
  while (std::getline(ss, item, sep))
    parts.push_back(item);
  if (!s.empty() && s.back() == sep)
    parts.emplace_back();
  return parts;
}

/// `first:step:last` or `first:last`: the values on the grid, last included within 1e-9 steps.
bool parseRange(const std::string &text, std::vector<double> &values, std::string &error) {
  std::vector<std::string> parts = split(text, ':');
  double first, step = 1, last;
  if (parts.size() < 2 || parts.size() > 3 || !parseNumber(parts.front(), first) ||
      !parseNumber(parts.back(), last) || (parts.size() == 3 && !parseNumber(parts[1], step))) {
    error = "a range is first:step:last or first:last with numbers, got '" + text + "'";
    return false;
  }
  if (step == 0 || (last - first) * step < 0) {
    error = "the range '" + text + "' is empty or endless (the step must lead from first to last)";
    return false;
  }
  double count = std::floor((last - first) / step + 1e-9) + 1;
  if (count > 1e8) {
    error = "the range '" + text + "' has more than 10^8 values";
    return false;
  }
  for (long k = 0; k < static_cast<long>(count); ++k)
    values.push_back(first + static_cast<double>(k) * step);
  return true;
}

/// Uniform numbers in (0, 1) from 53 random bits: the same on every platform (std's
/// distributions are not specified bit for bit).
double uniform01(std::mt19937_64 &rng) { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1p-53; }

double sample(const Factor &f, double u) {
  switch (f.distribution) {
  case Distribution::Normal:
    return f.a + f.b * normalQuantile(u);
  case Distribution::Uniform:
    return f.a + (f.b - f.a) * u;
  case Distribution::LogNormal:
    return std::exp(f.a + f.b * normalQuantile(u));
  }
  return NAN;
}

/// The CSV's header and rows as a block of the design.
bool readRunsFile(const std::string &path, std::vector<std::string> &names, std::vector<std::vector<double>> &rows,
                  std::ostream &err) {
  std::ifstream in(path);
  if (!in) {
    err << "eqc: error: --runs " << path << ": cannot be read\n";
    return false;
  }
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#')
      continue;
    std::vector<std::string> cells = split(line, ',');
    if (names.empty()) {
      for (std::string &cell : cells) {
        std::string name = cell;
        name.erase(0, name.find_first_not_of(" \t\""));
        while (!name.empty() && (name.back() == ' ' || name.back() == '\t' || name.back() == '"'))
          name.pop_back();
        if (name.empty()) {
          err << path << ":" << lineNo << ": error: an empty column name in the header\n";
          return false;
        }
        names.push_back(name);
      }
      continue;
    }
    if (cells.size() != names.size()) {
      err << path << ":" << lineNo << ": error: " << cells.size() << " values for " << names.size()
          << " columns\n";
      return false;
    }
    std::vector<double> row(cells.size());
    for (size_t k = 0; k < cells.size(); ++k)
      if (!parseNumber(cells[k], row[k])) {
        err << path << ":" << lineNo << ": error: '" << cells[k] << "' (column '" << names[k]
            << "') is not a finite number\n";
        return false;
      }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) {
    err << "eqc: error: --runs " << path << ": no runs (a header of names, then one row of values per run)\n";
    return false;
  }
  return true;
}

} // namespace

bool parseFactor(const std::string &spec, Factor &factor, std::string &error) {
  size_t eq = spec.find('='), tilde = spec.find('~');
  size_t at = std::min(eq, tilde);
  if (at == std::string::npos || at == 0) {
    error = "-p expects NAME=VALUES or NAME~DISTRIBUTION(a,b), got '" + spec + "'";
    return false;
  }
  factor = Factor{};
  factor.name = spec.substr(0, at);
  std::string rhs = spec.substr(at + 1);
  if (at == tilde) {
    size_t open = rhs.find('('), close = rhs.rfind(')');
    std::string dist = rhs.substr(0, open);
    bool known = false;
#define EQC_X(id, text, help)                                                                                         \
  if (dist == text) {                                                                                                 \
    factor.distribution = Distribution::id;                                                                           \
    known = true;                                                                                                     \
  }
    EQC_SWEEP_DISTRIBUTIONS(EQC_X)
#undef EQC_X
    std::vector<std::string> args;
    if (open != std::string::npos && close == rhs.size() - 1 && close > open)
      args = split(rhs.substr(open + 1, close - open - 1), ',');
    if (!known || args.size() != 2 || !parseNumber(args[0], factor.a) || !parseNumber(args[1], factor.b)) {
      error = "-p " + spec + ": expected a distribution with two numbers, one of:\n" + distributionHelp();
      return false;
    }
    bool valid = factor.distribution == Distribution::Uniform ? factor.a < factor.b : factor.b > 0;
    if (!valid) {
      error = "-p " + spec + ": " +
              (factor.distribution == Distribution::Uniform ? "uniform(low, high) needs low < high"
                                                            : "the standard deviation must be positive");
      return false;
    }
    factor.random = true;
    return true;
  }
  if (rhs.find(':') != std::string::npos) {
    if (!parseRange(rhs, factor.values, error)) {
      error = "-p " + spec + ": " + error;
      return false;
    }
    return true;
  }
  for (const std::string &item : split(rhs, ',')) {
    double v;
    if (!parseNumber(item, v)) {
      error = "-p " + spec + ": '" + item + "' is not a finite number";
      return false;
    }
    factor.values.push_back(v);
  }
  return true;
}

bool makeDesign(const DesignOptions &options, Design &design, std::ostream &err) {
  design = Design{};
  struct Block {
    std::vector<size_t> columns;
    std::vector<std::vector<double>> rows;
  };
  std::vector<Block> blocks;
  std::vector<const Factor *> random;
  std::set<std::string> seen;
  auto column = [&](const std::string &name) -> long {
    if (!seen.insert(name).second) {
      err << "eqc: error: '" << name << "' is given more than once (in -p or --runs)\n";
      return -1;
    }
    design.names.push_back(name);
    return static_cast<long>(design.names.size() - 1);
  };
  for (const Factor &f : options.factors) {
    long col = column(f.name);
    if (col < 0)
      return false;
    if (f.random) {
      random.push_back(&f);
      continue;
    }
    Block b{{static_cast<size_t>(col)}, {}};
    for (double v : f.values)
      b.rows.push_back({v});
    blocks.push_back(std::move(b));
  }
  if (!random.empty()) {
    if (options.samples <= 0) {
      err << "eqc: error: -p " << random.front()->name << "~...: random parameters need --samples N\n";
      return false;
    }
    Block b;
    for (const Factor *f : random)
      b.columns.push_back(static_cast<size_t>(std::find(design.names.begin(), design.names.end(), f->name) -
                                              design.names.begin()));
    std::mt19937_64 rng(options.seed);
    const long n = options.samples;
    b.rows.assign(static_cast<size_t>(n), std::vector<double>(random.size()));
    if (options.latinHypercube) {
      // Per factor, a random permutation of the n strata, then a uniform point inside each.
      for (size_t j = 0; j < random.size(); ++j) {
        std::vector<long> stratum(static_cast<size_t>(n));
        for (long i = 0; i < n; ++i)
          stratum[static_cast<size_t>(i)] = i;
        for (long i = n - 1; i > 0; --i)
          std::swap(stratum[static_cast<size_t>(i)], stratum[static_cast<size_t>(rng() % static_cast<uint64_t>(i + 1))]);
        for (long i = 0; i < n; ++i) {
          double u = (static_cast<double>(stratum[static_cast<size_t>(i)]) + uniform01(rng)) / static_cast<double>(n);
          b.rows[static_cast<size_t>(i)][j] = sample(*random[j], std::min(u, 1 - 0x1p-53));
        }
      }
    } else {
      for (auto &row : b.rows)
        for (size_t j = 0; j < random.size(); ++j)
          row[j] = sample(*random[j], uniform01(rng));
    }
    blocks.push_back(std::move(b));
  } else if (options.samples > 0) {
    err << "eqc: error: --samples needs a random parameter (-p NAME~normal(mean,std), ...)\n";
    return false;
  }
  if (!options.runsFile.empty()) {
    std::vector<std::string> names;
    Block b;
    if (!readRunsFile(options.runsFile, names, b.rows, err))
      return false;
    for (const std::string &name : names) {
      long col = column(name);
      if (col < 0)
        return false;
      b.columns.push_back(static_cast<size_t>(col));
    }
    blocks.push_back(std::move(b));
  }
  // The Cartesian product, the last block fastest.
  double total = 1;
  for (const Block &b : blocks)
    total *= static_cast<double>(b.rows.size());
  if (total > 1e9) {
    err << "eqc: error: the study has " << total << " runs (more than 10^9)\n";
    return false;
  }
  const size_t count = static_cast<size_t>(total);
  design.runs.assign(count, std::vector<double>(design.names.size()));
  for (size_t r = 0; r < count; ++r) {
    size_t rest = r;
    for (size_t k = blocks.size(); k-- > 0;) {
      const Block &b = blocks[k];
      const std::vector<double> &row = b.rows[rest % b.rows.size()];
      rest /= b.rows.size();
      for (size_t j = 0; j < b.columns.size(); ++j)
        design.runs[r][b.columns[j]] = row[j];
    }
  }
  return true;
}

double normalQuantile(double p) {
  // Wichura, Algorithm AS 241 (PPND16), Applied Statistics 37 (1988) 477-484.
  static const double a[8] = {3.3871328727963666080e0, 1.3314166789178437745e+2, 1.9715909503065514427e+3,
                              1.3731693765509461125e+4, 4.5921953931549871457e+4, 6.7265770927008700853e+4,
                              3.3430575583588128105e+4, 2.5090809287301226727e+3};
  static const double b[8] = {1.0, 4.2313330701600911252e+1, 6.8718700749205790830e+2, 5.3941960214247511077e+3,
                              2.1213794301586595867e+4, 3.9307895800092710610e+4, 2.8729085735721942674e+4,
                              5.2264952788528545610e+3};
  static const double c[8] = {1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0,
                              3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1,
                              2.27238449892691845833e-2, 7.74545014278341407640e-4};
  static const double d[8] = {1.0, 2.05319162663775882187e0, 1.67638483018380384940e0, 6.89767334985100004550e-1,
                              1.48103976427480074590e-1, 1.51986665636164571966e-2, 5.47593808499534494600e-4,
                              1.05075007164441684324e-9};
  static const double e[8] = {6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0,
                              2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                              2.71155556874348757815e-5, 2.01033439929228813265e-7};
  static const double f[8] = {1.0, 5.99832206555887937690e-1, 1.36929880922735805310e-1, 1.48753612908506148525e-2,
                              7.86869131145613259100e-4, 1.84631831751005468180e-5, 1.42151175831644588870e-7,
                              2.04426310338993978564e-15};
  auto ratio = [](const double *num, const double *den, double r) {
    double n = 0, m = 0;
    for (int k = 7; k >= 0; --k) {
      n = n * r + num[k];
      m = m * r + den[k];
    }
    return n / m;
  };
  if (!(p > 0 && p < 1))
    return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
  double q = p - 0.5;
  if (std::fabs(q) <= 0.425)
    return q * ratio(a, b, 0.180625 - q * q);
  double r = std::sqrt(-std::log(q < 0 ? p : 1 - p));
  double v = r <= 5 ? ratio(c, d, r - 1.6) : ratio(e, f, r - 5);
  return q < 0 ? -v : v;
}

std::string distributionHelp() {
  std::string help;
#define EQC_X(id, text, line) help += std::string("    ") + line + "\n";
  EQC_SWEEP_DISTRIBUTIONS(EQC_X)
#undef EQC_X
  return help;
}

} // namespace eqc
