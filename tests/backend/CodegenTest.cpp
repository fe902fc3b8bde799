// Generated code against the C library, and the symbolic ODE Jacobian against finite differences.
#include "backend/Jit.h"
#include "frontend/Flatten.h"
#include "frontend/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>

namespace eqc {
namespace {

/// A model compiled in-process from source text.
struct Compiled {
  SourceManager sources;
  std::ostringstream messages;
  std::unique_ptr<Diagnostics> diags;
  std::optional<FlatSystem> flat;
  std::optional<OdeModel> model;
  std::unique_ptr<JitModel> jit;

  explicit Compiled(const std::string &text) {
    diags = std::make_unique<Diagnostics>(sources, &messages);
    uint32_t buf = sources.addBuffer("test.eq", text);
    auto file = parseBuffer(sources, buf, *diags);
    if (!file)
      return;
    flat = flattenModel(*file, "", *diags);
    if (!flat)
      return;
    model = buildOdeModel(*flat, *diags);
    if (!model || diags->hasErrors() || !causalizeOdeModel(*flat, *model, *diags))
      return;
    std::string error;
    jit = jitCompile(*flat, *model, BackendOptions{}, error);
    EXPECT_TRUE(jit) << error;
  }
  int param(const std::string &name) const {
    for (size_t i = 0; i < model->params.size(); ++i)
      if (flat->vars[model->params[i]].name == name)
        return static_cast<int>(i);
    ADD_FAILURE() << "no parameter " << name;
    return 0;
  }
  int algebraic(const std::string &name) const {
    for (size_t i = 0; i < model->algebraics.size(); ++i)
      if (flat->vars[model->algebraics[i]].name == name)
        return static_cast<int>(i);
    ADD_FAILURE() << "no algebraic " << name;
    return 0;
  }
};

struct Case {
  const char *name, *source;
  double (*reference)(double u, double w);
};

// u in (0.1, 0.9), w in (1.1, 3): inside every function's domain.
const Case kCases[] = {
    {"add", "u + w", [](double u, double w) { return u + w; }},
    {"sub", "u - w", [](double u, double w) { return u - w; }},
    {"mul", "u * w", [](double u, double w) { return u * w; }},
    {"div", "u / w", [](double u, double w) { return u / w; }},
    {"neg", "-u", [](double u, double) { return -u; }},
    {"pow_real", "w ^ u", [](double u, double w) { return std::pow(w, u); }},
    {"pow_int", "w ^ 3", [](double, double w) { return w * w * w; }},
    {"pow_neg", "w ^ (-2)", [](double, double w) { return 1 / (w * w); }},
    {"pow_half", "w ^ 0.5", [](double, double w) { return std::sqrt(w); }},
    {"sin", "sin(u)", [](double u, double) { return std::sin(u); }},
    {"cos", "cos(u)", [](double u, double) { return std::cos(u); }},
    {"tan", "tan(u)", [](double u, double) { return std::tan(u); }},
    {"asin", "asin(u)", [](double u, double) { return std::asin(u); }},
    {"acos", "acos(u)", [](double u, double) { return std::acos(u); }},
    {"atan", "atan(w)", [](double, double w) { return std::atan(w); }},
    {"atan2", "atan2(u, -w)", [](double u, double w) { return std::atan2(u, -w); }},
    {"sinh", "sinh(w)", [](double, double w) { return std::sinh(w); }},
    {"cosh", "cosh(w)", [](double, double w) { return std::cosh(w); }},
    {"tanh", "tanh(u)", [](double u, double) { return std::tanh(u); }},
    {"exp", "exp(w)", [](double, double w) { return std::exp(w); }},
    {"log", "log(w)", [](double, double w) { return std::log(w); }},
    {"log10", "log10(w)", [](double, double w) { return std::log10(w); }},
    {"sqrt", "sqrt(w)", [](double, double w) { return std::sqrt(w); }},
    {"abs", "abs(u - w)", [](double u, double w) { return std::fabs(u - w); }},
    {"sign", "sign(u - 0.5)", [](double u, double) { return u > 0.5 ? 1.0 : u < 0.5 ? -1.0 : 0.0; }},
    {"min", "min(u, w - 1)", [](double u, double w) { return std::fmin(u, w - 1); }},
    {"max", "max(u, w - 1)", [](double u, double w) { return std::fmax(u, w - 1); }},
    {"floor", "floor(3*w)", [](double, double w) { return std::floor(3 * w); }},
    {"ceil", "ceil(3*w)", [](double, double w) { return std::ceil(3 * w); }},
    {"mod", "mod(7*u, -w)", [](double u, double w) { return 7 * u - std::floor(7 * u / -w) * -w; }},
    {"ifexpr", "if u < 0.5 then w else -w", [](double u, double w) { return u < 0.5 ? w : -w; }},
    {"elseifexpr", "if u < 0.3 then 1 elseif u <= 0.6 then 2 else 3",
     [](double u, double) { return u < 0.3 ? 1.0 : u <= 0.6 ? 2.0 : 3.0; }},
    {"logic", "if (u > 0.5 and w >= 2) or not (u <> 0.2) then 1 else 0",
     [](double u, double w) { return (u > 0.5 && w >= 2) || !(u != 0.2) ? 1.0 : 0.0; }},
    {"equal", "if u == w then 1 else 0", [](double u, double w) { return u == w ? 1.0 : 0.0; }},
    {"mixed", "(u*w - sin(u)/w)^2 + exp(-u)*cos(w)",
     [](double u, double w) { return std::pow(u * w - std::sin(u) / w, 2) + std::exp(-u) * std::cos(w); }},
};

TEST(Codegen, EveryOperatorAndBuiltinMatchesTheCLibrary) {
  std::string src = "model Ops\n  parameter Real u = 0.3, w = 2;\n";
  for (const Case &c : kCases)
    src += std::string("  Real ") + c.name + ";\n";
  src += "equation\n";
  for (const Case &c : kCases)
    src += std::string("  ") + c.name + " = " + c.source + ";\n";
  src += "end Ops;\n";
  Compiled m(src);
  ASSERT_TRUE(m.jit) << m.messages.str();
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> U(0.1, 0.9), W(1.1, 3.0);
  std::vector<double> p(m.model->params.size()), a(m.model->algebraics.size());
  for (int trial = 0; trial < 200; ++trial) {
    double u = trial == 0 ? 0.2 : U(rng), w = trial == 1 ? 2.0 : W(rng);
    p[m.param("u")] = u;
    p[m.param("w")] = w;
    ASSERT_EQ(m.jit->rhs(0.0, nullptr, nullptr, a.data(), p.data()), 0);
    for (const Case &c : kCases) {
      double expected = c.reference(u, w), got = a[m.algebraic(c.name)];
      EXPECT_NEAR(got, expected, 4e-16 * std::fabs(expected) + 1e-300) << c.name << " at u=" << u << " w=" << w;
    }
  }
}

TEST(Codegen, BooleanParametersAndTimeReachTheCode) {
  Compiled m("model B\n  parameter Boolean on = true;\n  Real y;\nequation\n  y = if on then 2*time else -1;\nend B;\n");
  ASSERT_TRUE(m.jit) << m.messages.str();
  std::vector<double> p(1), a(1);
  p[0] = 1;
  ASSERT_EQ(m.jit->rhs(1.5, nullptr, nullptr, a.data(), p.data()), 0);
  EXPECT_EQ(a[0], 3.0);
  p[0] = 0;
  ASSERT_EQ(m.jit->rhs(1.5, nullptr, nullptr, a.data(), p.data()), 0);
  EXPECT_EQ(a[0], -1.0);
}

TEST(Codegen, JacobianMatchesFiniteDifferencesThroughAlgebraicLoops) {
  Compiled m(R"(model J
  parameter Real k = 1.3;
  Real x1(start = 0.4), x2(start = -0.7), x3(start = 1.1);
  Real a(start = 0.5), b(start = 0.2), c;
equation
  der(x1) = x2*a - sin(x3);
  der(x2) = -k*x1 + b^2;
  der(x3) = c*x1 + exp(-x2);
  a^3 + a = x1 + b;           // a and b: a nonlinear 2x2 loop
  b = cos(a) + 0.3*x3;
  c = x2*x3/(1 + x1^2);       // explicit
end J;
)");
  ASSERT_TRUE(m.jit) << m.messages.str();
  ASSERT_EQ(m.model->ode.loops.size(), 1u);
  EXPECT_EQ(m.model->ode.loops[0].size(), 2u);
  EXPECT_EQ(m.model->ode.loops[0].vars.size(), 1u); // torn: Newton on a, b assigned from it
  const int n = 3;
  std::vector<double> p{1.3}, x{0.4, -0.7, 1.1}, dx(n), a(m.model->algebraics.size(), 0.3), jac(n * n);
  ASSERT_EQ(m.jit->rhs(0.0, x.data(), dx.data(), a.data(), p.data()), 0);
  const SparsityPattern *pattern = m.jit->jacobianPattern();
  ASSERT_TRUE(pattern);
  // der(x2) = -k x1 + b^2 with b = b(a(x1, x3), x3): no x2; every other f_i reaches every x_j.
  EXPECT_EQ(pattern->colStart, (std::vector<int>{0, 3, 5, 8}));
  EXPECT_EQ(pattern->rowIndex, (std::vector<int>{0, 1, 2, 0, 2, 0, 1, 2}));
  std::vector<double> values(pattern->nnz());
  ASSERT_EQ(m.jit->jacobian()(0.0, x.data(), dx.data(), a.data(), p.data(), values.data()), 0);
  for (int j = 0; j < n; ++j)
    for (int k = pattern->colStart[j]; k < pattern->colStart[j + 1]; ++k)
      jac[pattern->rowIndex[k] * n + j] = values[k];
  for (int j = 0; j < n; ++j) {
    const double h = 1e-6;
    std::vector<double> xp = x, xm = x, fp(n), fm(n), ap = a, am = a;
    xp[j] += h;
    xm[j] -= h;
    ASSERT_EQ(m.jit->rhs(0.0, xp.data(), fp.data(), ap.data(), p.data()), 0);
    ASSERT_EQ(m.jit->rhs(0.0, xm.data(), fm.data(), am.data(), p.data()), 0);
    for (int i = 0; i < n; ++i)
      EXPECT_NEAR(jac[i * n + j], (fp[i] - fm[i]) / (2 * h), 1e-7) << "J[" << i << "][" << j << "]";
  }
}

// A chain written as scalars: the pattern is tridiagonal (3n - 2 entries, never n^2), and the
// values are the constant second differences.
TEST(Codegen, JacobianPatternOfAChainIsTridiagonal) {
  const int n = 40;
  std::string src = "model Chain\n";
  for (int i = 1; i <= n; ++i)
    src += "  Real u" + std::to_string(i) + "(start = " + std::to_string(i) + ");\n";
  src += "  Real q;\nequation\n";
  for (int i = 1; i <= n; ++i) {
    std::string left = i > 1 ? "u" + std::to_string(i - 1) : "0";
    std::string right = i < n ? "u" + std::to_string(i + 1) : "q";
    src += "  der(u" + std::to_string(i) + ") = " + left + " - 2*u" + std::to_string(i) + " + " + right + ";\n";
  }
  src += "  q = 0.5*u" + std::to_string(n) + ";\nend Chain;\n"; // through an algebraic variable
  Compiled m(src);
  ASSERT_TRUE(m.jit) << m.messages.str();
  const SparsityPattern *pattern = m.jit->jacobianPattern();
  ASSERT_TRUE(pattern);
  ASSERT_EQ(pattern->nnz(), static_cast<size_t>(3 * n - 2));
  std::vector<double> x(n, 1.0), dx(n), a(m.model->algebraics.size()), values(pattern->nnz());
  ASSERT_EQ(m.jit->rhs(0.0, x.data(), dx.data(), a.data(), nullptr), 0);
  ASSERT_EQ(m.jit->jacobian()(0.0, x.data(), dx.data(), a.data(), nullptr, values.data()), 0);
  for (int j = 0; j < n; ++j) {
    // The states are u1..un in declaration order.
    std::vector<int> rows(pattern->rowIndex.begin() + pattern->colStart[j],
                          pattern->rowIndex.begin() + pattern->colStart[j + 1]);
    std::vector<int> expected;
    for (int i = std::max(0, j - 1); i <= std::min(n - 1, j + 1); ++i)
      expected.push_back(i);
    ASSERT_EQ(rows, expected) << "column " << j;
    for (int k = pattern->colStart[j]; k < pattern->colStart[j + 1]; ++k) {
      int i = pattern->rowIndex[k];
      double want = i == j ? (j == n - 1 ? -1.5 : -2.0) : 1.0;
      EXPECT_EQ(values[k], want) << i << "," << j;
    }
  }
}

TEST(Codegen, NewtonFailureReturnsTheLoopCode) {
  Compiled m("model N\n  Real x(start = 0);\n  Real y(start = 0.5);\nequation\n  der(x) = y;\n  y^2 = x - 1;\nend N;\n");
  ASSERT_TRUE(m.jit) << m.messages.str();
  std::vector<double> x{0.0}, dx(1), a{0.5};
  EXPECT_EQ(m.jit->rhs(0.0, x.data(), dx.data(), a.data(), nullptr), EQC_MODEL_LOOP_FAILURE_BASE + 0);
  x[0] = 5; // y = ±2
  a[0] = 1;
  EXPECT_EQ(m.jit->rhs(0.0, x.data(), dx.data(), a.data(), nullptr), 0);
  EXPECT_NEAR(a[0], 2.0, 1e-12);
  EXPECT_NEAR(dx[0], 2.0, 1e-12);
}

TEST(Codegen, InitSolvesFreeStatesFromInitialEquations) {
  Compiled m(R"(model I
  Real x(start = 1), y(start = 2, fixed = true);
equation
  der(x) = y - x^3;
  der(y) = -y;
initial equation
  der(x) = 0;
end I;
)");
  ASSERT_TRUE(m.jit) << m.messages.str();
  std::vector<double> x{1.0, 2.0}, dx(2), a;
  ASSERT_EQ(m.jit->init(0.0, x.data(), dx.data(), a.data(), nullptr), 0);
  EXPECT_NEAR(x[0], std::cbrt(2.0), 1e-12);
  EXPECT_EQ(x[1], 2.0);
  EXPECT_NEAR(dx[0], 0.0, 1e-12);
}

} // namespace
} // namespace eqc
