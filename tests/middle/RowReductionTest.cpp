// The seeds' reduction by rows (middle/RowReduction.h), checked numerically at random points against
// the seeds' own results: seed 001's six ODEs and six invariants, seed 004's ODE in x, y, z with the
// invariants C and C' (with the seed's slip in Step 1 corrected) and its Baumgarte form, and the
// Cartesian pendulum with its multiplier.
#include "middle/RowReduction.h"
#include "frontend/Flatten.h"
#include "frontend/Parser.h"
#include "middle/OdeModel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

namespace eqc {
namespace {

std::string example(const char *name) {
  std::ifstream in(std::string(EQC_SOURCE_DIR) + "/examples/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Reduced {
  SourceManager sources;
  std::unique_ptr<Diagnostics> diags;
  std::optional<FlatSystem> flat;
  std::optional<RowReduction> rows;
  std::vector<double> start;

  explicit Reduced(const std::string &text) {
    diags = std::make_unique<Diagnostics>(sources);
    uint32_t buf = sources.addBuffer("test.eq", text);
    auto file = parseBuffer(sources, buf, *diags);
    if (!file)
      return;
    flat = flattenModel(*file, "", *diags);
    if (!flat)
      return;
    start = startPoint(*flat, 0);
    rows = reduceByRows(*flat, start, 0, true, *diags);
    start.resize(flat->vars.size(), 0.0);
  }
  int var(const std::string &name) const {
    for (size_t v = 0; v < flat->vars.size(); ++v)
      if (flat->vars[v].name == name)
        return static_cast<int>(v);
    ADD_FAILURE() << "no variable " << name;
    return 0;
  }
  std::vector<std::string> columns() const {
    std::vector<std::string> names;
    for (int c : rows->columns)
      names.push_back(flat->vars[c].name);
    return names;
  }
  /// The ODE's value of der(name) at `values`, from the row whose pivot is that column.
  double ode(const std::string &name, const std::vector<double> &values, double t) const {
    int v = var(name);
    for (const TableRow &row : rows->rows)
      if (rows->columns[row.pivot] == v)
        return evaluate(solvedRow(*flat->ctx, *rows, row), values, t);
    ADD_FAILURE() << "no row for der(" << name << ")";
    return NAN;
  }
};

/// Random values for every unknown (parameters keep their values), and a random time.
std::vector<double> randomPoint(const Reduced &r, std::mt19937 &rng, double &t) {
  std::uniform_real_distribution<double> u(-2, 2);
  std::vector<double> values = r.start;
  for (size_t v = 0; v < r.flat->vars.size(); ++v)
    if (!r.flat->vars[v].isKnown())
      values[v] = u(rng);
  t = u(rng) * 5;
  return values;
}

/// Each found constraint is a non-zero constant multiple of the expected one (the same factor at
/// every point).
void expectMultiples(
    const Reduced &r,
    const std::vector<std::function<double(const std::vector<double> &, double)>> &expected) {
  ASSERT_EQ(r.rows->constraints.size(), expected.size());
  std::mt19937 rng(7);
  std::vector<double> factor(expected.size(), NAN);
  for (int trial = 0; trial < 5; ++trial) {
    double t;
    std::vector<double> x = randomPoint(r, rng, t);
    for (size_t k = 0; k < expected.size(); ++k) {
      double mine = evaluate(r.rows->constraints[k].expr, x, t), theirs = expected[k](x, t);
      ASSERT_GT(std::fabs(theirs), 1e-6);
      double f = mine / theirs;
      if (trial == 0) {
        factor[k] = f;
        EXPECT_GT(std::fabs(f), 1e-12) << "[alg" << k + 1 << "] is zero";
      } else {
        EXPECT_NEAR(f, factor[k], 1e-10 * std::fabs(factor[k]))
            << "[alg" << k + 1 << "] is no multiple of the seed's";
      }
    }
  }
}

TEST(RowReduction, Seed001GivesTheSeedsSixOdesAndSixInvariants) {
  Reduced r(example("seed001_dae.eq"));
  ASSERT_TRUE(r.rows) << "reduction failed";
  ASSERT_TRUE(r.rows->applies()) << r.rows->notApplicable;
  EXPECT_EQ(r.columns(), (std::vector<std::string>{"x1", "x2", "x3", "x4", "x5", "x6"}));
  int x[7];
  for (int i = 1; i <= 6; ++i)
    x[i] = r.var("x" + std::to_string(i));
  // The seed: x1' = 2 cos t, x_{k}' = sin t - x_{k-1}.
  std::mt19937 rng(1);
  for (int trial = 0; trial < 5; ++trial) {
    double t;
    std::vector<double> v = randomPoint(r, rng, t);
    EXPECT_NEAR(r.ode("x1", v, t), 2 * std::cos(t), 1e-12);
    for (int k = 2; k <= 6; ++k)
      EXPECT_NEAR(r.ode("x" + std::to_string(k), v, t), std::sin(t) - v[x[k - 1]], 1e-12) << "x" << k;
  }
  // [alg1] = cos t - x6, [alg2] = x5 - 2 sin t, [alg3] = x4 + 2 cos t - sin t,
  // [alg4] = x3 + sin t + cos t, [alg5] = x2 - cos t, [alg6] = x1 - 2 sin t.
  expectMultiples(r, {
                         [&](auto &v, double t) { return std::cos(t) - v[x[6]]; },
                         [&](auto &v, double t) { return v[x[5]] - 2 * std::sin(t); },
                         [&](auto &v, double t) { return v[x[4]] + 2 * std::cos(t) - std::sin(t); },
                         [&](auto &v, double t) { return v[x[3]] + std::sin(t) + std::cos(t); },
                         [&](auto &v, double t) { return v[x[2]] - std::cos(t); },
                         [&](auto &v, double t) { return v[x[1]] - 2 * std::sin(t); },
                     });
  for (const FoundConstraint &k : r.rows->constraints)
    EXPECT_EQ(k.chain, 0);
  EXPECT_TRUE(r.rows->pivotConditions.empty());
}

TEST(RowReduction, Seed004GivesXYZWithCAndItsCorrectedDerivative) {
  Reduced r(example("seed004.eq"));
  ASSERT_TRUE(r.rows);
  ASSERT_TRUE(r.rows->applies()) << r.rows->notApplicable;
  EXPECT_EQ(r.columns(), (std::vector<std::string>{"x", "y", "z"}));
  ASSERT_EQ(r.rows->aliases.size(), 1u);
  EXPECT_EQ(r.flat->vars[r.rows->aliases[0].first].name, "x_dot");
  int x = r.var("x"), y = r.var("y"), z = r.var("z"), alpha = r.var("alpha"), eta = r.var("eta");
  std::mt19937 rng(2);
  for (int trial = 0; trial < 5; ++trial) {
    double t;
    std::vector<double> v = randomPoint(r, rng, t);
    double a = v[alpha], e = v[eta];
    EXPECT_NEAR(r.ode("y", v, t), t - v[x], 1e-12);
    EXPECT_NEAR(r.ode("z", v, t), 1 - t + v[x] - (a * v[x] + e) * v[y], 1e-12);
    // From C'' = 0 with C' = 1 + y((1 - alpha) x - t - eta): x' = (y - (t - x)((1 - alpha) x - t - eta)) / (y
    // (1 - alpha)).
    double expected = (v[y] - (t - v[x]) * ((1 - a) * v[x] - t - e)) / (v[y] * (1 - a));
    EXPECT_NEAR(r.ode("x", v, t), expected, 1e-10 * (1 + std::fabs(expected)));
  }
  expectMultiples(r, {
                         [&](auto &v, double) { return v[y] * (1 - v[y] / 2) + v[z]; },
                         [&](auto &v, double t) { return 1 + v[y] * ((1 - v[alpha]) * v[x] - t - v[eta]); },
                     });
  // The pivot y*(1 - alpha) is reported with the factors where it vanishes.
  ASSERT_EQ(r.rows->pivotConditions.size(), 1u);
  EXPECT_EQ(r.rows->pivotConditions[0].factors.size(), 2u);
}

TEST(RowReduction, Seed004BaumgarteIsTheSeedsStabilizedOde) {
  Reduced r(example("seed004.eq"));
  ASSERT_TRUE(r.rows && r.rows->applies());
  ReductionOptions options;
  options.stabilization = Stabilization::Baumgarte;
  options.eta = 0.7;
  options.omega = 3;
  OdeModel m = setupRowReducedModel(*r.flat, *r.rows, options, *r.diags);
  int x = r.var("x"), y = r.var("y"), z = r.var("z"), dx = r.var("der(x)"), alpha = r.var("alpha"),
      eta = r.var("eta");
  const Expr *stabilized = nullptr;
  for (size_t k = 0; k < m.simulation.residuals.size(); ++k)
    if (m.simulation.labels[k].find("Baumgarte") != std::string::npos)
      stabilized = m.simulation.residuals[k];
  ASSERT_TRUE(stabilized);
  std::mt19937 rng(3);
  for (int trial = 0; trial < 5; ++trial) {
    double t;
    std::vector<double> v = randomPoint(r, rng, t);
    double a = v[alpha], e = v[eta], w = options.omega, h = options.eta;
    // The residual is linear in der(x): solve it.
    v[dx] = 0;
    double r0 = evaluate(stabilized, v, t);
    v[dx] = 1;
    double r1 = evaluate(stabilized, v, t);
    double xdot = -r0 / (r1 - r0);
    // The seed's f = (a - 2ηω b - ω² c) / pivot with the corrected a, b = C', c = C.
    double pivot = v[y] * (1 - a);
    double aa = v[y] - (t - v[x]) * ((1 - a) * v[x] - t - e);
    double b = 1 + v[y] * ((1 - a) * v[x] - t - e);
    double c = v[y] * (1 - v[y] / 2) + v[z];
    double f = (aa - 2 * h * w * b - w * w * c) / pivot;
    EXPECT_NEAR(xdot, f, 1e-9 * (1 + std::fabs(f)));
  }
}

TEST(RowReduction, PendulumKeepsItsMultiplierAsAState) {
  Reduced r(example("pendulum.eq"));
  ASSERT_TRUE(r.rows && r.rows->applies());
  EXPECT_EQ(r.columns(), (std::vector<std::string>{"x", "y", "vx", "vy", "lambda"}));
  int x = r.var("x"), y = r.var("y"), vx = r.var("vx"), vy = r.var("vy"), lambda = r.var("lambda"),
      g = r.var("g"), L = r.var("L");
  std::mt19937 rng(4);
  for (int trial = 0; trial < 5; ++trial) {
    double t;
    std::vector<double> v = randomPoint(r, rng, t);
    double r2 = v[x] * v[x] + v[y] * v[y];
    // d/dt of C'' = 2(λ r² − v² + g y) = 0 with the other rows substituted.
    double expected = -(8 * v[lambda] * (v[x] * v[vx] + v[y] * v[vy]) + 6 * v[g] * v[vy]) / (2 * r2);
    EXPECT_NEAR(r.ode("lambda", v, t), expected, 1e-10 * (1 + std::fabs(expected)));
    EXPECT_NEAR(r.ode("vx", v, t), -v[lambda] * v[x], 1e-12);
  }
  expectMultiples(r, {
                         [&](auto &v, double) { return v[x] * v[x] + v[y] * v[y] - v[L] * v[L]; },
                         [&](auto &v, double) { return v[x] * v[vx] + v[y] * v[vy]; },
                         [&](auto &v, double) {
                           return v[vx] * v[vx] + v[vy] * v[vy] - v[lambda] * (v[x] * v[x] + v[y] * v[y]) -
                                  v[g] * v[y];
                         },
                     });
  for (size_t k = 0; k < 3; ++k)
    EXPECT_EQ(r.rows->constraints[k].level, static_cast<int>(k));
}

TEST(RowReduction, ConstantSingularMassMatrixRevealsTheHiddenConstraint) {
  // Σ-method sees a transversal (index 0), but the rows are negatives of each other: adding them
  // removes the derivatives and leaves 0 = f1 + f2 (seed 002's "not SA-friendly" class).
  Reduced r(R"(model Amp
  parameter Real C1 = 2;
  Real y1(start = 1), y2(start = 0);
equation
  -C1*der(y1) + C1*der(y2) = y1 - sin(time);
  C1*der(y1) - C1*der(y2) = y2;
end Amp;)");
  ASSERT_TRUE(r.rows && r.rows->applies()) << (r.rows ? r.rows->notApplicable : "");
  ASSERT_EQ(r.rows->constraints.size(), 1u);
  int y1 = r.var("y1"), y2 = r.var("y2");
  expectMultiples(r, {[&](auto &v, double t) { return v[y1] - std::sin(t) + v[y2]; }});
}

TEST(RowReduction, DependentEquationsAreAnErrorNamingTheRow) {
  Reduced r(R"(model Dep
  Real x, y;
equation
  der(x) + der(y) = x;
  2*der(x) + 2*der(y) = 2*x;
end Dep;)");
  EXPECT_FALSE(r.rows);
  EXPECT_TRUE(r.diags->hasErrors());
}

} // namespace
} // namespace eqc
