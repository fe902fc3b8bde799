// Tests of the Σ-method on models built by the frontend: canonical offsets, index and dof of known
// DAEs (pendulum in first- and second-order form, the seed chain, Pryce & Nedialkov's DAEs (2), (3)),
// agreement with Pantelides' differentiation counts, structural singularity, random systems against
// brute force, and a large chain.
#include "middle/SigmaMethod.h"

#include "frontend/Flatten.h"
#include "frontend/Parser.h"
#include "middle/Pantelides.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>

namespace eqc {
namespace {

/// A model flattened from source text; `flat` is empty on a frontend error (reported in `messages`).
struct Parsed {
  SourceManager sources;
  std::ostringstream messages;
  std::unique_ptr<Diagnostics> diags;
  std::optional<FlatSystem> flat;

  /// `text` is the model's file; `libraries` the texts of library files (examples/lib).
  explicit Parsed(const std::string &text, const std::vector<std::string> &libraries = {}) {
    diags = std::make_unique<Diagnostics>(sources, &messages);
    std::vector<ast::File> files;
    std::optional<ast::File> file = parseBuffer(sources, sources.addBuffer("test.eq", text), *diags);
    if (!file)
      return;
    files.push_back(std::move(*file));
    for (size_t i = 0; i < libraries.size(); ++i) {
      std::optional<ast::File> lib =
          parseBuffer(sources, sources.addBuffer("lib" + std::to_string(i) + ".eq", libraries[i]), *diags);
      if (!lib)
        return;
      files.push_back(std::move(*lib));
    }
    std::vector<const ast::File *> all;
    for (const ast::File &f : files)
      all.push_back(&f);
    flat = flattenModel(all, "", *diags);
  }
};

std::string readSource(const std::string &relative) {
  // This file is tests/middle/SigmaMethodTest.cpp; the examples live two levels up.
  std::filesystem::path root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  std::ifstream in(root / relative);
  EXPECT_TRUE(in) << "cannot read " << (root / relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The model `equations` over the Real unknowns `unknowns` (declared in that order).
std::string model(const std::string &unknowns, const std::string &equations, const std::string &params = "") {
  return "model M\n" + params + "  Real " + unknowns + ";\nequation\n" + equations + "\nend M;\n";
}

/// d_j by variable name.
std::map<std::string, int> offsetsByName(const FlatSystem &flat, const SigmaResult &r) {
  std::map<std::string, int> out;
  for (size_t j = 0; j < r.variables.size(); ++j)
    out[flat.varName(r.variables[j])] = r.d[j];
  return out;
}

/// -1 stands for −∞.
std::vector<std::vector<int>> dense(const SigmaResult &r) {
  size_t n = r.variables.size();
  std::vector<std::vector<int>> m(r.sigma.size(), std::vector<int>(n, -1));
  for (size_t i = 0; i < r.sigma.size(); ++i)
    for (auto [j, s] : r.sigma[i])
      m[i][j] = s;
  return m;
}

/// The invariants every result must satisfy: a permutation, the stated value, d_j − c_i ≥ σ_ij with
/// equality on the transversal, non-negative offsets, d_j as small as c allows, dof and index as
/// defined. Valid offsets with Σd − Σc equal to the value also certify that the transversal is of
/// highest value: by weak duality no transversal exceeds Σd − Σc.
void expectConsistent(const SigmaResult &r) {
  const size_t n = r.variables.size();
  ASSERT_EQ(r.sigma.size(), n);
  ASSERT_EQ(r.transversal.size(), n);
  ASSERT_EQ(r.c.size(), n);
  ASSERT_EQ(r.d.size(), n);
  std::vector<int> cols = r.transversal;
  std::sort(cols.begin(), cols.end());
  for (size_t j = 0; j < n; ++j)
    ASSERT_EQ(cols[j], static_cast<int>(j)) << "the transversal is not a permutation";
  int value = 0;
  std::vector<int> smallestD(n, 0);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_GE(r.c[i], 0);
    bool onTransversal = false;
    for (auto [j, s] : r.sigma[i]) {
      EXPECT_GE(r.d[j] - r.c[i], s) << "entry (" << i << ", " << j << ")";
      smallestD[j] = std::max(smallestD[j], s + r.c[i]);
      if (j == r.transversal[i]) {
        onTransversal = true;
        value += s;
        EXPECT_EQ(r.d[j] - r.c[i], s) << "transversal entry of row " << i;
      }
    }
    ASSERT_TRUE(onTransversal) << "transversal entry of row " << i << " is −∞";
  }
  EXPECT_EQ(r.transversalValue, value);
  EXPECT_EQ(r.d, smallestD);
  int sumC = std::accumulate(r.c.begin(), r.c.end(), 0), sumD = std::accumulate(r.d.begin(), r.d.end(), 0);
  EXPECT_EQ(r.dof, sumD - sumC);
  EXPECT_EQ(r.dof, value);
  int maxC = n ? *std::max_element(r.c.begin(), r.c.end()) : 0;
  bool algebraic = std::find(r.d.begin(), r.d.end(), 0) != r.d.end();
  EXPECT_EQ(r.index, maxC + (algebraic ? 1 : 0));
}

/// Pantelides' per-equation differentiation counts, on a copy (it adds derivative variables).
std::optional<std::vector<int>> pantelidesCounts(const FlatSystem &flat) {
  FlatSystem copy = flat;
  Differentiator diff(*copy.ctx);
  std::optional<PantelidesResult> p = runPantelides(copy, diff, 1000);
  if (!p)
    return std::nullopt;
  return p->differentiations;
}

/// Runs the Σ-method on `text` and checks the invariants and the agreement with Pantelides.
std::optional<SigmaResult> analyze(const std::string &text, std::string *table = nullptr,
                                   const std::vector<std::string> &libraries = {}) {
  Parsed p(text, libraries);
  EXPECT_TRUE(p.flat) << p.messages.str();
  if (!p.flat)
    return std::nullopt;
  std::optional<SigmaResult> r = runSigmaMethod(*p.flat);
  EXPECT_TRUE(r) << "structurally singular:\n" << text;
  if (!r)
    return std::nullopt;
  expectConsistent(*r);
  if (table)
    *table = formatSignatureMatrix(*p.flat, *r);
  std::optional<std::vector<int>> counts = pantelidesCounts(*p.flat);
  EXPECT_TRUE(counts) << "Pantelides gave up";
  if (counts) {
    EXPECT_EQ(*counts, r->c) << "Pantelides and the Σ-method disagree on\n"
                             << text << formatSignatureMatrix(*p.flat, *r);
  }
  return r;
}

TEST(SigmaMethod, PendulumFirstOrder) {
  std::string table;
  std::optional<SigmaResult> r = analyze(readSource("examples/pendulum.eq"), &table);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, (std::vector<int>{1, 1, 0, 0, 2}));
  Parsed p(readSource("examples/pendulum.eq"));
  EXPECT_EQ(offsetsByName(*p.flat, *r),
            (std::map<std::string, int>{{"x", 2}, {"y", 2}, {"vx", 1}, {"vy", 1}, {"lambda", 0}}));
  EXPECT_EQ(r->transversalValue, 2);
  EXPECT_EQ(r->index, 3);
  EXPECT_EQ(r->dof, 2);
  // The transversal is one of several of value 2; the table pins the one the algorithm picks.
  EXPECT_EQ(table, "Σ     x   y   vx   vy   lambda   c\n"
                   "eq 1  1   -    0*   -        -   1\n"
                   "eq 2  -   1*   -    0        -   1\n"
                   "eq 3  0   -    1    -        0*  0\n"
                   "eq 4  -   0    -    1*       0   0\n"
                   "eq 5  0*  0    -    -        -   2\n"
                   "d     2   2    1    1        0\n"
                   "value 2, structural index 3, 2 degrees of freedom\n");
}

TEST(SigmaMethod, PendulumSecondOrder) {
  std::string text = model("x, y, lambda",
                           "  der(der(x)) = -lambda*x;\n"
                           "  der(der(y)) = -lambda*y - g;\n"
                           "  x^2 + y^2 = L^2;",
                           "  parameter Real L = 1, g = 9.81;\n");
  std::optional<SigmaResult> r = analyze(text);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, (std::vector<int>{0, 0, 2}));
  EXPECT_EQ(r->d, (std::vector<int>{2, 2, 0}));
  EXPECT_EQ(r->index, 3);
  EXPECT_EQ(r->dof, 2);
}

// Equation k differentiates x_{7-k}; x6 = cos(time) closes the chain. The only transversal is
// e1..e5 → x5..x1 and e6 → x6 (value 0); from c5 = d1 = 0 each der() up the chain adds one:
// d = (0, 1, 2, 3, 4, 5), c = d of the matched variable = (4, 3, 2, 1, 0, 5).
TEST(SigmaMethod, SeedChain) {
  std::optional<SigmaResult> r = analyze(model("x1, x2, x3, x4, x5, x6", "  der(x6) + x5 = sin(time);\n"
                                                                         "  der(x5) + x4 = sin(time);\n"
                                                                         "  der(x4) + x3 = sin(time);\n"
                                                                         "  der(x3) + x2 = sin(time);\n"
                                                                         "  der(x2) + x1 = sin(time);\n"
                                                                         "  x6 = cos(time);"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->transversal, (std::vector<int>{4, 3, 2, 1, 0, 5}));
  EXPECT_EQ(r->transversalValue, 0);
  EXPECT_EQ(r->d, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(r->c, (std::vector<int>{4, 3, 2, 1, 0, 5}));
  EXPECT_EQ(r->dof, 0);
  EXPECT_EQ(r->index, 6);
}

// Pryce & Nedialkov's DAE (2): an ODE in x2 with x1 algebraic, dof 1, index 1.
TEST(SigmaMethod, SeedDaeTwo) {
  std::optional<SigmaResult> r = analyze(model("x1, x2", "  x1 - sin(time) = 0;\n  der(x2) - x1 = 0;"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, (std::vector<int>{0, 0}));
  EXPECT_EQ(r->d, (std::vector<int>{0, 1}));
  EXPECT_EQ(r->dof, 1);
  EXPECT_EQ(r->index, 1);
}

// DAE (3): the first equation must be differentiated once, nothing is left to integrate.
TEST(SigmaMethod, SeedDaeThree) {
  std::optional<SigmaResult> r = analyze(model("x1, x2", "  x2 - sin(time) = 0;\n  x1 - der(x2) = 0;"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, (std::vector<int>{1, 0}));
  EXPECT_EQ(r->d, (std::vector<int>{0, 1}));
  EXPECT_EQ(r->dof, 0);
  EXPECT_EQ(r->index, 2);
}

TEST(SigmaMethod, OdeWithAlgebraicVariable) {
  std::optional<SigmaResult> r = analyze(readSource("examples/oscillator.eq"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(r->d, (std::vector<int>{1, 1, 0})); // x, v, a
  EXPECT_EQ(r->index, 1);
  EXPECT_EQ(r->dof, 2);
}

TEST(SigmaMethod, PureOde) {
  std::optional<SigmaResult> r =
      analyze(model("x, v, z", "  der(x) = v;\n  der(v) = -x - 0.1*v;\n  der(der(z)) + der(z) = x;"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->c, (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(r->d, (std::vector<int>{1, 1, 2}));
  EXPECT_EQ(r->index, 0);
  EXPECT_EQ(r->dof, 4);
}

// Seed 004 in semi-explicit form (x, y, z, x_dot): the constraint y*(1 - y/2) + z = 0 is
// differentiated twice, the equations for y' and z' once; x_dot is algebraic. Index 3, dof 1.
TEST(SigmaMethod, SeedFour) {
  std::optional<SigmaResult> r = analyze(readSource("examples/seed004.eq"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->transversalValue, 1);
  EXPECT_EQ(r->c, (std::vector<int>{0, 1, 1, 2}));
  EXPECT_EQ(r->d, (std::vector<int>{1, 2, 2, 0}));
  EXPECT_EQ(r->index, 3);
  EXPECT_EQ(r->dof, 1);
}

// Every example model: consistent offsets, and Pantelides differentiates each equation c_i times.
TEST(SigmaMethod, ExamplesAgreeWithPantelides) {
  std::filesystem::path examples =
      std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "examples";
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::directory_iterator(examples))
    if (entry.path().extension() == ".eq")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  EXPECT_GE(files.size(), 5u);
  // The component library, for the examples built from it.
  std::vector<std::string> libraries;
  for (const auto &entry : std::filesystem::directory_iterator(examples / "lib"))
    if (entry.path().extension() == ".eq")
      libraries.push_back(readSource("examples/lib/" + entry.path().filename().string()));
  for (const std::filesystem::path &file : files) {
    SCOPED_TRACE(file.filename().string());
    analyze(readSource("examples/" + file.filename().string()), nullptr, libraries);
  }
}

TEST(SigmaMethod, StructurallySingular) {
  // Three equations in x and y only: no transversal, whatever the derivative orders.
  Parsed q(model("a, b, x, y", "  der(a) + b = x;\n  x + y = 1;\n  x - der(y) = 0;\n  x*y = 3;"));
  ASSERT_TRUE(q.flat) << q.messages.str();
  EXPECT_FALSE(runSigmaMethod(*q.flat));
  // An unknown that no equation uses is an empty column.
  Parsed u(model("x, y, unused", "  der(x) = y;\n  y = x + der(y);\n  x + y = 1;"));
  ASSERT_TRUE(u.flat) << u.messages.str();
  EXPECT_FALSE(runSigmaMethod(*u.flat));
  // Not singular: a and b occur only in two equations, but both equations also hold x, so
  // a, b, x match (a = 1.5x, b = -0.5x); singularity needs k equations in fewer than k unknowns.
  Parsed r(model("a, b, x", "  a + b = x;\n  a - b = 2*x;\n  der(x) = -x;"));
  ASSERT_TRUE(r.flat) << r.messages.str();
  EXPECT_TRUE(runSigmaMethod(*r.flat));
}

/// Brute force over all permutations: the highest transversal value, or nullopt if none is finite.
std::optional<int> bruteForceValue(const std::vector<std::vector<int>> &m) {
  std::vector<int> perm(m.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::optional<int> best;
  do {
    int value = 0;
    bool finite = true;
    for (size_t i = 0; i < m.size() && finite; ++i) {
      finite = m[i][perm[i]] >= 0;
      value += m[i][perm[i]];
    }
    if (finite && (!best || value > *best))
      best = value;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

/// The smallest d for given c: d_j = max_i(σ_ij + c_i); valid with the value iff Σd − Σc == value.
bool optimalOffsets(const std::vector<std::vector<int>> &m, const std::vector<int> &c, int value) {
  const size_t n = m.size();
  int sum = 0;
  for (size_t j = 0; j < n; ++j) {
    int dj = 0;
    for (size_t i = 0; i < n; ++i)
      if (m[i][j] >= 0)
        dj = std::max(dj, m[i][j] + c[i]);
    sum += dj;
  }
  return sum - std::accumulate(c.begin(), c.end(), 0) == value;
}

/// Pryce's iteration sweep by sweep, as written in the paper, for comparison with the worklist form.
std::vector<int> sweepOffsets(const SigmaResult &r) {
  const size_t n = r.sigma.size();
  std::vector<int> c(n, 0), d(n, 0), sigmaOnT(n);
  for (size_t i = 0; i < n; ++i)
    for (auto [j, s] : r.sigma[i])
      if (j == r.transversal[i])
        sigmaOnT[i] = s;
  for (bool changed = true; changed;) {
    changed = false;
    std::fill(d.begin(), d.end(), 0);
    for (size_t i = 0; i < n; ++i)
      for (auto [j, s] : r.sigma[i])
        d[j] = std::max(d[j], s + c[i]);
    for (size_t i = 0; i < n; ++i) {
      int ci = d[r.transversal[i]] - sigmaOnT[i];
      changed |= ci != c[i];
      c[i] = ci;
    }
  }
  return c;
}

/// A random n×n signature matrix (σ ≤ 2, -1 for −∞), with a planted transversal when `plant`.
std::vector<std::vector<int>> randomSigma(std::mt19937 &rng, int n, bool plant) {
  std::uniform_int_distribution<int> order(0, 2), percent(0, 99);
  std::vector<std::vector<int>> m(n, std::vector<int>(n, -1));
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (percent(rng) < 35)
        m[i][j] = order(rng);
    if (plant && m[i][perm[i]] < 0)
      m[i][perm[i]] = order(rng);
    if (std::all_of(m[i].begin(), m[i].end(), [](int s) { return s < 0; }))
      m[i][std::uniform_int_distribution<int>(0, n - 1)(rng)] = order(rng);
  }
  return m;
}

using SparseSigma = std::vector<std::vector<std::pair<int, int>>>;

/// Model text with signature matrix `rows` (sparse, sorted by column); sometimes a lower derivative
/// occurs next to the highest, which must not change σ.
std::string modelText(std::mt19937 &rng, const SparseSigma &rows) {
  std::string unknowns, equations;
  for (size_t j = 0; j < rows.size(); ++j)
    unknowns += (j ? ", x" : "x") + std::to_string(j + 1);
  auto derivative = [](int j, int order) {
    std::string s = "x" + std::to_string(j + 1);
    for (int k = 0; k < order; ++k)
      s = "der(" + s + ")";
    return s;
  };
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string terms;
    for (auto [j, s] : rows[i]) {
      std::string term = derivative(j, s);
      if (s > 0 && rng() % 3 == 0)
        term += "*" + derivative(j, static_cast<int>(rng() % s));
      terms += (terms.empty() ? "  " : " + ") + term;
    }
    equations += terms + " = sin(" + std::to_string(i + 1) + "*time);\n";
  }
  return model(unknowns, equations);
}

SparseSigma sparse(const std::vector<std::vector<int>> &m) {
  SparseSigma rows(m.size());
  for (size_t i = 0; i < m.size(); ++i)
    for (size_t j = 0; j < m[i].size(); ++j)
      if (m[i][j] >= 0)
        rows[i].push_back({static_cast<int>(j), m[i][j]});
  return rows;
}

TEST(SigmaMethod, RandomSystemsAgainstBruteForce) {
  std::mt19937 rng(20240611);
  int nonsingular = 0, singular = 0, pantelidesDisagreements = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 1 + trial % 7;
    std::vector<std::vector<int>> m = randomSigma(rng, n, trial % 4 != 0);
    std::string text = modelText(rng, sparse(m));
    Parsed p(text);
    ASSERT_TRUE(p.flat) << p.messages.str() << text;
    std::optional<SigmaResult> r = runSigmaMethod(*p.flat);
    std::optional<int> best = bruteForceValue(m);
    ASSERT_EQ(r.has_value(), best.has_value()) << text;
    if (!r) {
      ++singular;
      continue;
    }
    ++nonsingular;
    ASSERT_EQ(dense(*r), m) << text;
    expectConsistent(*r);
    EXPECT_EQ(r->transversalValue, *best) << text;
    EXPECT_EQ(r->c, sweepOffsets(*r)) << text;

    // Smallest: no single offset can be lowered, and every valid c' in the box [0, max c]^n is ≥ c
    // (valid offsets are closed under elementwise min, so a smaller one would show up in the box).
    for (int i = 0; i < n; ++i)
      if (r->c[i] > 0) {
        std::vector<int> lower = r->c;
        --lower[i];
        EXPECT_FALSE(optimalOffsets(m, lower, r->transversalValue)) << "c_" << i << " can be lowered\n"
                                                                    << text;
      }
    int maxC = *std::max_element(r->c.begin(), r->c.end());
    long box = 1;
    for (int i = 0; i < n && box <= 20000; ++i)
      box *= maxC + 1;
    if (box <= 20000) {
      std::vector<int> c(n, 0);
      for (long k = 0; k < box; ++k) {
        for (int i = 0, rest = static_cast<int>(k); i < n; ++i, rest /= maxC + 1)
          c[i] = rest % (maxC + 1);
        if (optimalOffsets(m, c, r->transversalValue)) {
          for (int i = 0; i < n; ++i)
            ASSERT_GE(c[i], r->c[i]) << "smaller valid offsets exist\n" << text;
        }
      }
    }

    std::optional<std::vector<int>> counts = pantelidesCounts(*p.flat);
    EXPECT_TRUE(counts) << text;
    if (counts && *counts != r->c) {
      ++pantelidesDisagreements;
      ADD_FAILURE() << "Pantelides and the Σ-method disagree on\n"
                    << text << formatSignatureMatrix(*p.flat, *r);
    }
  }
  EXPECT_GT(nonsingular, 250);
  EXPECT_GT(singular, 5);
  EXPECT_EQ(pantelidesDisagreements, 0);
}

/// The seed chain stretched to n equations, in either order: der(x_{k+1}) + x_k = sin(time) for
/// k < n and x_n = cos(time). Offsets d(x_k) = k − 1, c = d of the matched x_k, c(x_n = cos) = n − 1.
std::string chainText(int n, bool reversed) {
  std::string unknowns;
  std::vector<std::string> equations;
  for (int k = 1; k <= n; ++k)
    unknowns += (k > 1 ? ", x" : "x") + std::to_string(k);
  for (int k = 1; k < n; ++k)
    equations.push_back("  der(x" + std::to_string(k + 1) + ") + x" + std::to_string(k) + " = sin(time);\n");
  if (reversed)
    std::reverse(equations.begin(), equations.end());
  equations.push_back("  x" + std::to_string(n) + " = cos(time);");
  std::string text;
  for (const std::string &eq : equations)
    text += eq;
  return model(unknowns, text);
}

// 10^4 equations of index 10^4: the greedy start takes e_k → x_{k+1}, so the last equation needs one
// augmenting path along the whole chain, and the offsets propagate along it. Both run in O(E log n);
// sweeping Pryce's iteration matrix by matrix would take n sweeps (10^8 steps here).
TEST(SigmaMethod, LargeChain) {
  const int n = 10000;
  for (bool reversed : {false, true}) {
    Parsed p(chainText(n, reversed));
    ASSERT_TRUE(p.flat) << p.messages.str();
    std::optional<SigmaResult> r = runSigmaMethod(*p.flat);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->transversalValue, 0);
    for (int e = 0; e < n; ++e) {
      int k = e == n - 1 ? n - 1 : reversed ? n - 2 - e : e; // the x_{k+1} matched to equation e
      ASSERT_EQ(r->transversal[e], k) << "equation " << e;
      ASSERT_EQ(r->c[e], k) << "equation " << e;
      ASSERT_EQ(r->d[e], e) << "x" << e + 1;
    }
    EXPECT_EQ(r->dof, 0);
    EXPECT_EQ(r->index, n);
  }
}

// Random sparse systems of a few thousand equations with a planted transversal under a random
// column permutation, so that the greedy start leaves real augmenting paths: the result must be
// consistent (which certifies the value) and the offsets those of the plain sweep iteration.
TEST(SigmaMethod, LargeRandomSparse) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 3; ++trial) {
    const int n = 3000;
    std::vector<int> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    SparseSigma rows(n);
    for (int i = 0; i < n; ++i) {
      std::map<int, int> row{{perm[i], static_cast<int>(rng() % 3)}};
      for (int extra = rng() % 4; extra > 0; --extra)
        row[rng() % n] = static_cast<int>(rng() % 3);
      rows[i].assign(row.begin(), row.end());
    }
    std::string text = modelText(rng, rows);
    Parsed p(text);
    ASSERT_TRUE(p.flat) << p.messages.str();
    std::optional<SigmaResult> r = runSigmaMethod(*p.flat);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->sigma, rows);
    expectConsistent(*r);
    EXPECT_EQ(r->c, sweepOffsets(*r));
  }
}

} // namespace
} // namespace eqc
