// Tests of causalization (assignments, algebraic loops, their order) on hand-built flat systems,
// of the structural-singularity diagnostics, and of the ODE model set-up.
#include "middle/Causalize.h"
#include "middle/ExprOps.h"
#include "middle/OdeModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <sstream>

namespace eqc {
namespace {

/// Builds a FlatSystem variable by variable and equation by equation.
class SystemBuilder {
public:
  SystemBuilder() {
    flat.ctx = std::make_shared<ExprContext>();
    flat.modelName = "M";
  }

  ExprContext &ctx() { return *flat.ctx; }
  const Expr *c(double v) { return ctx().constant(v); }

  const Expr *unknown(const std::string &name, SourceRange loc = {}) {
    return add(name, VarRole::Unknown, loc);
  }
  const Expr *parameter(const std::string &name, double value) {
    const Expr *p = add(name, VarRole::Parameter, {});
    flat.vars.back().binding = c(value);
    return p;
  }
  /// Declares der(state) and returns it.
  const Expr *derivative(const Expr *state) {
    int s = state->var();
    Variable d;
    d.name = "der(" + flat.vars[s].name + ")";
    d.role = VarRole::Derivative;
    d.derivativeOf = s;
    flat.vars[s].derivative = static_cast<int>(flat.vars.size());
    flat.vars.push_back(d);
    return ctx().var(flat.vars[s].derivative);
  }
  void equation(const Expr *lhs, const Expr *rhs, SourceRange loc = {}) {
    flat.equations.push_back({lhs, rhs, loc, static_cast<int>(flat.equations.size()) + 1});
  }

  /// The simulation system with every Unknown and Derivative variable as an unknown.
  EquationSystem system() const {
    EquationSystem sys;
    sys.purpose = "simulation";
    for (const Equation &eq : flat.equations) {
      sys.residuals.push_back(flat.residual(eq));
      sys.locs.push_back(eq.loc);
      sys.labels.push_back("equation " + std::to_string(eq.number));
    }
    for (size_t i = 0; i < flat.vars.size(); ++i)
      if (flat.vars[i].role == VarRole::Derivative ||
          (flat.vars[i].role == VarRole::Unknown && flat.vars[i].derivative < 0))
        sys.unknowns.push_back(static_cast<int>(i));
    return sys;
  }

  FlatSystem flat;

private:
  const Expr *add(const std::string &name, VarRole role, SourceRange loc) {
    Variable v;
    v.name = name;
    v.role = role;
    v.loc = loc;
    flat.vars.push_back(v);
    return ctx().var(static_cast<int>(flat.vars.size()) - 1);
  }
};

struct Causalized {
  EquationSystem sys;
  CausalSystem causal;
};

Causalized causalizeAll(SystemBuilder &b) {
  Causalized out;
  out.sys = b.system();
  BipartiteGraph g = incidenceGraph(b.flat, out.sys);
  SourceManager sources;
  Diagnostics diags(sources);
  std::optional<Matching> m = matchEquations(b.flat, out.sys, g, diags);
  EXPECT_TRUE(m.has_value()) << "the test system must be structurally regular";
  if (m)
    out.causal = causalize(b.flat, out.sys, *m, sortBlt(g, *m));
  return out;
}

/// Solves a dense linear system in place by Gaussian elimination with partial pivoting.
std::vector<double> solveDense(std::vector<double> a, std::vector<double> rhs) {
  size_t n = rhs.size();
  for (size_t k = 0; k < n; ++k) {
    size_t pivot = k;
    for (size_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i * n + k]) > std::fabs(a[pivot * n + k]))
        pivot = i;
    for (size_t j = 0; j < n; ++j)
      std::swap(a[k * n + j], a[pivot * n + j]);
    std::swap(rhs[k], rhs[pivot]);
    for (size_t i = k + 1; i < n; ++i) {
      double f = a[i * n + k] / a[k * n + k];
      for (size_t j = k; j < n; ++j)
        a[i * n + j] -= f * a[k * n + j];
      rhs[i] -= f * rhs[k];
    }
  }
  std::vector<double> x(n);
  for (size_t k = n; k-- > 0;) {
    double s = rhs[k];
    for (size_t j = k + 1; j < n; ++j)
      s -= a[k * n + j] * x[j];
    x[k] = s / a[k * n + k];
  }
  return x;
}

/// Runs the evaluation sequence: assignments in order, loops by Newton's method with their
/// symbolic Jacobian. `values` holds parameters (and start guesses) on entry.
void execute(const CausalSystem &causal, std::vector<double> &values) {
  for (const CausalStep &step : causal.steps) {
    if (step.loop < 0) {
      values[step.var] = evaluate(step.value, values);
      continue;
    }
    const AlgebraicLoop &loop = causal.loops[step.loop];
    size_t n = loop.vars.size();
    for (int iter = 0; iter < 50; ++iter) {
      std::vector<double> f(n), jac(n * n);
      double norm = 0;
      for (size_t i = 0; i < n; ++i) {
        f[i] = -evaluate(loop.residuals[i], values);
        norm = std::max(norm, std::fabs(f[i]));
      }
      if (norm < 1e-13)
        break;
      for (size_t k = 0; k < n * n; ++k)
        jac[k] = evaluate(loop.jacobian[k], values);
      std::vector<double> dx = solveDense(jac, f);
      for (size_t j = 0; j < n; ++j)
        values[loop.vars[j]] += dx[j];
    }
  }
}

/// Every unknown an assignment or loop reads is computed by an earlier step (or by the loop).
void expectStepsInDependencyOrder(const Causalized &c) {
  std::set<int> unknowns(c.sys.unknowns.begin(), c.sys.unknowns.end()), computed;
  for (size_t s = 0; s < c.causal.steps.size(); ++s) {
    const CausalStep &step = c.causal.steps[s];
    std::vector<const Expr *> reads;
    std::set<int> own;
    if (step.loop < 0) {
      reads.push_back(step.value);
      own.insert(step.var);
      for (int v : collectVars(step.value))
        EXPECT_NE(v, step.var) << "step " << s << " computes a variable from itself";
    } else {
      const AlgebraicLoop &loop = c.causal.loops[step.loop];
      reads = loop.residuals;
      own.insert(loop.vars.begin(), loop.vars.end());
    }
    for (const Expr *e : reads)
      for (int v : collectVars(e))
        if (unknowns.count(v) && !own.count(v)) {
          EXPECT_TRUE(computed.count(v))
              << "step " << s << " reads variable " << v << " before it is computed";
        }
    computed.insert(own.begin(), own.end());
  }
  EXPECT_EQ(computed, unknowns) << "every unknown is computed exactly by the sequence";
}

// ---- assignments ----

TEST(CausalizeTest, LinearScalarEquationBecomesAnAssignment) {
  SystemBuilder b;
  const Expr *p = b.parameter("p", 5);
  const Expr *y = b.unknown("y");
  b.equation(b.ctx().add(b.ctx().mul(b.c(2), y), b.c(3)), p); // 2*y + 3 = p
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.steps.size(), 1u);
  EXPECT_TRUE(c.causal.loops.empty());
  const CausalStep &step = c.causal.steps[0];
  EXPECT_EQ(step.var, y->var());
  EXPECT_EQ(step.loop, -1);
  EXPECT_EQ(step.equation, 0);
  ASSERT_NE(step.value, nullptr);
  EXPECT_FALSE(dependsOn(step.value, y->var()));
  EXPECT_DOUBLE_EQ(evaluate(step.value, {5, NAN}), 1.0);
  EXPECT_DOUBLE_EQ(evaluate(step.value, {-1, NAN}), -2.0);
}

TEST(CausalizeTest, UnknownWithAParameterCoefficientIsSolvedSymbolically) {
  SystemBuilder b;
  const Expr *k = b.parameter("k", 4);
  const Expr *x = b.unknown("x");
  ExprContext &ctx = b.ctx();
  b.equation(ctx.mul(k, x), ctx.call(Builtin::Sin, {ctx.time()})); // k*x = sin(time)
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.steps.size(), 1u);
  ASSERT_EQ(c.causal.steps[0].loop, -1);
  EXPECT_EQ(c.causal.steps[0].value, ctx.div(ctx.call(Builtin::Sin, {ctx.time()}), k));
  EXPECT_DOUBLE_EQ(evaluate(c.causal.steps[0].value, {4, NAN}, 0.5), std::sin(0.5) / 4);
}

TEST(CausalizeTest, AssignmentsSatisfyTheirEquation) {
  // Linear in the unknown but with nonlinear parameter and time terms.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *p = b.parameter("p", 0.7);
  const Expr *x = b.unknown("x");
  const Expr *lhs =
      ctx.add({ctx.mul(ctx.call(Builtin::Exp, {p}), x), ctx.call(Builtin::Cos, {ctx.time()}), b.c(1)});
  b.equation(lhs, ctx.mul(ctx.pow(p, b.c(2)), ctx.sub(x, b.c(3))));
  Causalized cs = causalizeAll(b);
  ASSERT_EQ(cs.causal.steps.size(), 1u);
  ASSERT_EQ(cs.causal.steps[0].loop, -1);
  std::vector<double> values{0.7, 0};
  values[1] = evaluate(cs.causal.steps[0].value, values, 1.3);
  EXPECT_NEAR(evaluate(cs.sys.residuals[0], values, 1.3), 0, 1e-12);
}

TEST(CausalizeTest, UnknownInsidePiecewiseConstantFunctionIsNotSolvedAsLinear) {
  // x + floor(x) = 4.5 has the solution 2.5. Its derivative is 1 almost everywhere, but the
  // unknown does not occur linearly, so solving r(0) + 1*x = 0 (x = 4.5) is wrong.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *x = b.unknown("x");
  b.equation(ctx.add(x, ctx.call(Builtin::Floor, {x})), b.c(4.5));
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.steps.size(), 1u);
  if (c.causal.steps[0].loop < 0) {
    std::vector<double> values{evaluate(c.causal.steps[0].value, {0})};
    EXPECT_NEAR(evaluate(c.sys.residuals[0], values), 0, 1e-12)
        << "x := " << toString(c.causal.steps[0].value, [](int) { return std::string("x"); })
        << " does not solve x + floor(x) = 4.5";
  }
}

TEST(CausalizeTest, UnknownInIfConditionIsNotSolvedAsLinear) {
  // (if x < 1 then x else x - 10) = 5 has the solution 15; both branches have slope 1, but
  // solving at x = 0 picks the wrong branch and gives x = 5.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *x = b.unknown("x");
  b.equation(ctx.ifThenElse(ctx.lt(x, b.c(1)), x, ctx.sub(x, b.c(10))), b.c(5));
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.steps.size(), 1u);
  if (c.causal.steps[0].loop < 0) {
    std::vector<double> values{evaluate(c.causal.steps[0].value, {0})};
    EXPECT_NEAR(evaluate(c.sys.residuals[0], values), 0, 1e-12)
        << "x := " << toString(c.causal.steps[0].value, [](int) { return std::string("x"); })
        << " does not solve (if x < 1 then x else x - 10) = 5";
  }
}

// ---- algebraic loops ----

TEST(CausalizeTest, CubicEquationBecomesAScalarLoopWithItsJacobian) {
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *x = b.unknown("x");
  b.equation(ctx.add(ctx.pow(x, b.c(3)), x), b.c(1)); // x^3 + x = 1
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.steps.size(), 1u);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  EXPECT_EQ(c.causal.steps[0].loop, 0);
  const AlgebraicLoop &loop = c.causal.loops[0];
  EXPECT_EQ(loop.vars, std::vector<int>{x->var()});
  EXPECT_EQ(loop.equations, std::vector<int>{0});
  ASSERT_EQ(loop.residuals.size(), 1u);
  EXPECT_EQ(loop.residuals[0], c.sys.residuals[0]);
  ASSERT_EQ(loop.jacobian.size(), 1u);
  EXPECT_EQ(loop.jacobian[0], ctx.add(b.c(1), ctx.mul(b.c(3), ctx.pow(x, b.c(2)))));
  EXPECT_DOUBLE_EQ(evaluate(loop.jacobian[0], {2}), 13.0);
  std::vector<double> values{1};
  execute(c.causal, values);
  EXPECT_NEAR(values[0] * values[0] * values[0] + values[0], 1, 1e-12);
}

TEST(CausalizeTest, ExponentialEquationBecomesAScalarLoop) {
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *y = b.unknown("y");
  b.equation(ctx.call(Builtin::Exp, {y}), ctx.add(y, b.c(2))); // exp(y) = y + 2
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  const AlgebraicLoop &loop = c.causal.loops[0];
  ASSERT_EQ(loop.jacobian.size(), 1u);
  EXPECT_EQ(loop.jacobian[0], ctx.sub(ctx.call(Builtin::Exp, {y}), b.c(1)));
  std::vector<double> values{1};
  execute(c.causal, values);
  EXPECT_NEAR(std::exp(values[0]), values[0] + 2, 1e-12);
}

TEST(CausalizeTest, CoupledLinearPairBecomesOneLoopOfSizeTwo) {
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *x = b.unknown("x");
  const Expr *y = b.unknown("y");
  b.equation(ctx.add(x, y), b.c(3)); // x + y = 3
  b.equation(ctx.sub(x, y), b.c(1)); // x - y = 1
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.steps.size(), 1u);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  const AlgebraicLoop &loop = c.causal.loops[0];
  ASSERT_EQ(loop.vars.size(), 2u);
  EXPECT_EQ(std::set<int>(loop.vars.begin(), loop.vars.end()), (std::set<int>{x->var(), y->var()}));
  ASSERT_EQ(loop.residuals.size(), 2u);
  ASSERT_EQ(loop.equations.size(), 2u);
  ASSERT_EQ(loop.jacobian.size(), 4u);
  // Row-major ∂residual_i/∂vars_j, residual i being equation loop.equations[i].
  const double coefficient[2][2] = {{1, 1}, {1, -1}}; // [equation][x, y]
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(loop.residuals[i], c.sys.residuals[loop.equations[i]]);
    for (int j = 0; j < 2; ++j)
      EXPECT_EQ(loop.jacobian[i * 2 + j], b.c(coefficient[loop.equations[i]][loop.vars[j] == y->var()]))
          << "entry " << i << ", " << j;
  }
  std::vector<double> values{0, 0};
  execute(c.causal, values);
  EXPECT_NEAR(values[0], 2, 1e-12);
  EXPECT_NEAR(values[1], 1, 1e-12);
}

// ---- order ----

TEST(CausalizeTest, StepsFollowDependenciesNotEquationOrder) {
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *p = b.parameter("p", 2);
  const Expr *x = b.unknown("x");
  const Expr *y = b.unknown("y");
  const Expr *z = b.unknown("z");
  b.equation(z, ctx.add(x, y));      // needs x and y
  b.equation(y, ctx.mul(b.c(3), x)); // needs x
  b.equation(x, p);
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.steps.size(), 3u);
  EXPECT_EQ(c.causal.steps[0].var, x->var());
  EXPECT_EQ(c.causal.steps[1].var, y->var());
  EXPECT_EQ(c.causal.steps[2].var, z->var());
  EXPECT_EQ(c.causal.steps[0].equation, 2);
  EXPECT_EQ(c.causal.steps[2].equation, 0);
  expectStepsInDependencyOrder(c);
  std::vector<double> values{2, NAN, NAN, NAN};
  execute(c.causal, values);
  EXPECT_DOUBLE_EQ(values[3], 8.0);
}

TEST(CausalizeTest, LoopBetweenAssignmentsIsOrderedByItsInputsAndOutputs) {
  // a = p; {b, c} from b + c^3 = a, b - c = 0 (nonlinear loop); d = b*c.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *p = b.parameter("p", 2);
  const Expr *a = b.unknown("a");
  const Expr *bv = b.unknown("b");
  const Expr *cv = b.unknown("c");
  const Expr *d = b.unknown("d");
  b.equation(d, ctx.mul(bv, cv));
  b.equation(ctx.sub(bv, cv), b.c(0));
  b.equation(ctx.add(bv, ctx.pow(cv, b.c(3))), a);
  b.equation(a, p);
  Causalized c = causalizeAll(b);
  // The loop is torn: Newton on c (not solvable from b + c^3 = a), b assigned from it.
  ASSERT_EQ(c.causal.steps.size(), 4u);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  EXPECT_EQ(c.causal.steps[0].var, a->var());
  EXPECT_EQ(c.causal.steps[1].loop, 0);
  EXPECT_EQ(c.causal.loops[0].vars, std::vector<int>{cv->var()});
  EXPECT_EQ(c.causal.loops[0].tornVars, std::vector<int>{bv->var()});
  EXPECT_EQ(c.causal.steps[2].var, bv->var());
  EXPECT_EQ(c.causal.steps[3].var, d->var());
  expectStepsInDependencyOrder(c);
  std::vector<double> values{2, 0, 0.5, 0.5, 0};
  execute(c.causal, values);
  EXPECT_NEAR(values[2], 1, 1e-12); // b + b^3 = 2
  EXPECT_NEAR(values[4], 1, 1e-12);
}

TEST(CausalizeTest, TearingIteratesOnTheVariablesWithStartValuesAndAssignsTheRest) {
  // A resistor heated by its current (MSL's Analog.Examples.Resistor, flattened): v = R_T*i,
  // R_T = R (1 + alpha (T - Tref)), P = v*i, Q = P, Q = G (T - Tamb). At v = 0 Newton on all five
  // unknowns from zero is singular (∂(v - R_T i)/∂(R_T, i) = (-i, -R_T) = 0); torn, it iterates on
  // i and T (the variables with start values), R_T, P and Q assigned from them with constant
  // coefficients. The whole loop stays behind the torn one.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *v = b.parameter("v", 220), *R = b.parameter("R", 100), *alpha = b.parameter("alpha", 1e-3);
  const Expr *Tref = b.parameter("Tref", 293.15), *G = b.parameter("G", 50), *Tamb = b.parameter("Tamb", 293.15);
  const Expr *i = b.unknown("i"), *RT = b.unknown("R_T"), *P = b.unknown("P"), *Q = b.unknown("Q");
  const Expr *T = b.unknown("T");
  b.flat.vars[static_cast<size_t>(i->var())].hasStart = true;
  b.flat.vars[static_cast<size_t>(T->var())].hasStart = true;
  b.equation(v, ctx.mul(RT, i));
  b.equation(RT, ctx.mul(R, ctx.add(b.c(1), ctx.mul(alpha, ctx.sub(T, Tref)))));
  b.equation(P, ctx.mul(v, i));
  b.equation(Q, P);
  b.equation(Q, ctx.mul(G, ctx.sub(T, Tamb)));
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  const AlgebraicLoop &loop = c.causal.loops[0];
  std::set<int> tearing(loop.vars.begin(), loop.vars.end());
  EXPECT_EQ(tearing, (std::set<int>{i->var(), T->var()}));
  EXPECT_EQ(loop.tornVars.size(), 3u);
  EXPECT_EQ(loop.size(), 5u);
  ASSERT_TRUE(loop.untorn);
  EXPECT_EQ(loop.untorn->vars.size(), 5u);
  EXPECT_FALSE(loop.linear);
  EXPECT_EQ(c.causal.tearingSummary(), "1 nonlinear loop of 5 unknowns -> 2 tearing variables");
  expectStepsInDependencyOrder(c);
  // From i = 0, T = 293.15: P = v^2/R_T and T = Tamb + P/G, so P solves P = v^2 / (R (1 + alpha P/G)).
  std::vector<double> values(b.flat.vars.size(), 0.0);
  for (size_t k = 0; k < b.flat.vars.size(); ++k)
    if (b.flat.vars[k].role == VarRole::Parameter)
      values[k] = b.flat.vars[k].binding->value();
  values[static_cast<size_t>(T->var())] = 293.15;
  execute(c.causal, values);
  const double a2 = 1e-3 / 50, power = (-1 + std::sqrt(1 + 4 * a2 * 220.0 * 220 / 100)) / (2 * a2); // a2 P^2 + P = v^2/R
  EXPECT_NEAR(values[static_cast<size_t>(P->var())], power, 1e-9 * power);
  EXPECT_NEAR(values[static_cast<size_t>(T->var())], 293.15 + power / 50, 1e-9);
  EXPECT_NEAR(values[static_cast<size_t>(i->var())] * values[static_cast<size_t>(RT->var())], 220, 1e-9);
}

TEST(CausalizeTest, TearingKeepsKinkedEquationsAsResiduals) {
  // An amplifier with saturation in a feedback loop: y = clamp(V0 e), e = u - x, x = y/2. Solving
  // the clamp's equation for y would fold its kink into the other residuals: it stays a residual,
  // and no assignment of the torn loop has the kink.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *u = b.parameter("u", 1), *V0 = b.parameter("V0", 1e4);
  const Expr *y = b.unknown("y"), *e = b.unknown("e"), *x = b.unknown("x");
  const Expr *ve = ctx.mul(V0, e);
  b.equation(y, ctx.ifThenElse(ctx.lt(b.c(15), ve), b.c(15), ctx.ifThenElse(ctx.lt(ve, b.c(-15)), b.c(-15), ve)));
  b.equation(e, ctx.sub(u, x));
  b.equation(x, ctx.div(y, b.c(2)));
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  const AlgebraicLoop &loop = c.causal.loops[0];
  EXPECT_EQ(loop.equations, std::vector<int>{0});
  EXPECT_EQ(loop.vars.size(), 1u);
  EXPECT_EQ(loop.tornVars.size(), 2u);
  for (const CausalStep &step : c.causal.steps)
    if (step.loop < 0)
      forEachNode(step.value, [&](const Expr *n) {
        EXPECT_NE(n->kind(), ExprKind::If) << "a kinked assignment of " << b.flat.vars[static_cast<size_t>(step.var)].name;
        return Walk::Descend;
      });
  expectStepsInDependencyOrder(c);
}

TEST(CausalizeTest, ReciprocalUnknownIsSolvedSymbolically) {
  // MSL's flux tubes: R_m = 1/G_m with R_m known gives G_m = 1/R_m, an assignment; Newton from
  // G_m's start value 0 would start at an infinite residual. x = 3/y + 1 gives y = 3/(x - 1).
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *R = b.parameter("R", 4), *x = b.parameter("x", 5);
  const Expr *G = b.unknown("G"), *y = b.unknown("y");
  b.equation(R, ctx.div(b.c(1), G));
  b.equation(x, ctx.add(ctx.div(b.c(3), y), b.c(1)));
  Causalized c = causalizeAll(b);
  EXPECT_TRUE(c.causal.loops.empty());
  ASSERT_EQ(c.causal.steps.size(), 2u);
  std::vector<double> values(b.flat.vars.size(), 0.0);
  for (size_t k = 0; k < b.flat.vars.size(); ++k)
    if (b.flat.vars[k].role == VarRole::Parameter)
      values[k] = b.flat.vars[k].binding->value();
  execute(c.causal, values);
  EXPECT_DOUBLE_EQ(values[static_cast<size_t>(G->var())], 0.25);
  EXPECT_DOUBLE_EQ(values[static_cast<size_t>(y->var())], 0.75);
}

TEST(CausalizeTest, SaturatingMagneticCircuitIsTornToItsFlux) {
  // A flux tube with saturating permeability (MSL's FluxTubes.BaseClasses.FixedShape) driven by
  // a magnetomotive force N i: B = Phi/A, B_N = |B/B_max|, mu_r = if nonlinear then 1 + (mu_i -
  // 1)/(1 + c B_N + B_N^2) else 1 (a parameter's choice: no kink), G_m = mu_0 mu_r A/l,
  // R_m = 1/G_m, N i = Phi R_m. The greedy choice takes more tearing variables than the chain
  // needs; minimized, the flux (or B) alone is torn, every other unknown assigned from it, so no
  // tearing variable starts at a value (mu_r = 0) that makes the residuals infinite.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *A = b.parameter("A", 1e-4), *Bmax = b.parameter("B_max", 1.5), *mui = b.parameter("mu_i", 2000);
  const Expr *cb = b.parameter("c_b", 3), *l = b.parameter("l", 0.1), *Ni = b.parameter("Ni", 400);
  const Expr *nonlinear = b.parameter("nonlinear", 1);
  const Expr *Phi = b.unknown("Phi"), *B = b.unknown("B"), *BN = b.unknown("B_N"), *mur = b.unknown("mu_r");
  const Expr *Gm = b.unknown("G_m"), *Rm = b.unknown("R_m");
  const double mu0 = 4e-7 * M_PI;
  b.equation(B, ctx.div(Phi, A));
  b.equation(BN, ctx.call(Builtin::Abs, {ctx.div(B, Bmax)}));
  b.equation(mur,
             ctx.ifThenElse(ctx.lt(b.c(0), nonlinear),
                            ctx.add(b.c(1), ctx.div(ctx.sub(mui, b.c(1)),
                                                    ctx.add({b.c(1), ctx.mul(cb, BN), ctx.pow(BN, b.c(2))}))),
                            b.c(1)));
  b.equation(Gm, ctx.div(ctx.mul({b.c(mu0), mur, A}), l));
  b.equation(Rm, ctx.div(b.c(1), Gm));
  b.equation(Ni, ctx.mul(Phi, Rm));
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  const AlgebraicLoop &loop = c.causal.loops[0];
  ASSERT_EQ(loop.vars.size(), 1u) << c.causal.tearingSummary();
  EXPECT_TRUE(loop.vars[0] == Phi->var() || loop.vars[0] == B->var())
      << b.flat.vars[static_cast<size_t>(loop.vars[0])].name;
  EXPECT_EQ(loop.tornVars.size(), 5u);
  expectStepsInDependencyOrder(c);
  // From all unknowns 0; the reference: Phi R_m(Phi) = N i by bisection (increasing in Phi).
  std::vector<double> values(b.flat.vars.size(), 0.0);
  for (size_t k = 0; k < b.flat.vars.size(); ++k)
    if (b.flat.vars[k].role == VarRole::Parameter)
      values[k] = b.flat.vars[k].binding->value();
  execute(c.causal, values);
  auto mmf = [&](double phi) {
    const double bn = std::abs(phi / 1e-4 / 1.5), mu = 1 + 1999 / (1 + 3 * bn + bn * bn);
    return phi * 0.1 / (mu0 * mu * 1e-4);
  };
  double lo = 0, hi = 1e-3;
  for (int k = 0; k < 200; ++k)
    (mmf(0.5 * (lo + hi)) < 400 ? lo : hi) = 0.5 * (lo + hi);
  EXPECT_NEAR(values[static_cast<size_t>(Phi->var())], lo, 1e-9 * lo);
}

TEST(CausalizeTest, LongNonlinearChainIsTornIntoFewVariablesWithBoundedNesting) {
  // x[i] = 0.3 sin(x[i+1]) + 0.01 i (i < N), x[N] = 0.2 x[1]^3: one loop of N = 200 unknowns.
  // Assigning the whole chain from one tearing variable would nest 200 sines in one residual (a
  // derivative that is a product of 200 factors): tearing stops every 17 assignments, so Newton
  // iterates on N/17 + 1 variables, and the sequence solves the chain.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const int n = 200;
  std::vector<const Expr *> x;
  for (int i = 1; i <= n; ++i)
    x.push_back(b.unknown("x[" + std::to_string(i) + "]"));
  for (int i = 0; i + 1 < n; ++i)
    b.equation(x[static_cast<size_t>(i)], ctx.add(ctx.mul(b.c(0.3), ctx.call(Builtin::Sin, {x[static_cast<size_t>(i) + 1]})),
                                                   b.c(0.01 * (i + 1))));
  b.equation(x.back(), ctx.mul(b.c(0.2), ctx.pow(x[0], b.c(3))));
  Causalized c = causalizeAll(b);
  ASSERT_EQ(c.causal.loops.size(), 1u);
  const AlgebraicLoop &loop = c.causal.loops[0];
  EXPECT_EQ(loop.size(), static_cast<size_t>(n));
  EXPECT_LE(loop.vars.size(), static_cast<size_t>(n / 17 + 2));
  EXPECT_GE(loop.vars.size(), static_cast<size_t>(n / 17));
  EXPECT_FALSE(loop.untorn) << "a loop this large keeps no whole form (its dense Jacobian)";
  expectStepsInDependencyOrder(c);
  std::vector<double> values(b.flat.vars.size(), 0.0);
  execute(c.causal, values);
  for (int i = 0; i + 1 < n; ++i)
    EXPECT_NEAR(values[static_cast<size_t>(x[static_cast<size_t>(i)]->var())],
                0.3 * std::sin(values[static_cast<size_t>(x[static_cast<size_t>(i) + 1]->var())]) + 0.01 * (i + 1), 1e-12);
  EXPECT_NEAR(values[static_cast<size_t>(x.back()->var())], 0.2 * std::pow(values[static_cast<size_t>(x[0]->var())], 3),
              1e-12);
}

TEST(CausalizeTest, RandomSparseLinearSystemsAreSolvedByTheSequence) {
  std::mt19937 rng(2024);
  int loops = 0, assignments = 0;
  for (int trial = 0; trial < 100; ++trial) {
    SystemBuilder b;
    ExprContext &ctx = b.ctx();
    int n = std::uniform_int_distribution<int>(1, 10)(rng);
    std::vector<const Expr *> x;
    for (int i = 0; i < n; ++i)
      x.push_back(b.unknown("x" + std::to_string(i)));
    std::vector<int> perm(n);
    for (int i = 0; i < n; ++i)
      perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::uniform_real_distribution<double> coeff(-1, 1);
    std::bernoulli_distribution edge(0.15);
    for (int i = 0; i < n; ++i) {
      // Equation i is dominated by unknown perm[i], so the system is regular.
      std::vector<const Expr *> terms{ctx.mul(b.c(n + 1.0 + coeff(rng)), x[perm[i]])};
      for (int j = 0; j < n; ++j)
        if (j != perm[i] && edge(rng))
          terms.push_back(ctx.mul(b.c(coeff(rng)), x[j]));
      b.equation(ctx.add(terms), ctx.add(b.c(coeff(rng)), ctx.call(Builtin::Sin, {ctx.time()})));
    }
    Causalized c = causalizeAll(b);
    SCOPED_TRACE("trial " + std::to_string(trial));
    expectStepsInDependencyOrder(c);
    std::vector<double> values(n, 0);
    for (const CausalStep &s : c.causal.steps)
      (s.loop < 0 ? assignments : loops)++;
    execute(c.causal, values);
    for (const Expr *r : c.sys.residuals)
      ASSERT_NEAR(evaluate(r, values), 0, 1e-10);
  }
  EXPECT_GT(loops, 10);
  EXPECT_GT(assignments, 100);
}

// ---- printing ----

TEST(CausalizeTest, PrintsTheEvaluationSequence) {
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *p = b.parameter("p", 5);
  const Expr *y = b.unknown("y");
  const Expr *x = b.unknown("x");
  b.equation(ctx.add(ctx.mul(b.c(2), y), b.c(3)), p);
  b.equation(ctx.add(ctx.pow(x, b.c(3)), x), y);
  Causalized c = causalizeAll(b);
  std::ostringstream os;
  c.causal.print(os, b.flat, c.sys);
  EXPECT_EQ(os.str(), "// simulation: 2 steps, 1 algebraic loops\n"
                      "  y := 0.5*p - 1.5;  // from equation 1\n"
                      "  solve for {x} by Newton:\n"
                      "    0 = x + x^3 - y;  // from equation 2\n");
}

// ---- structural singularity ----

class SingularityTest : public ::testing::Test {
protected:
  SourceRange at(uint32_t line) { return SourceRange{buffer, line, 3, 1}; }

  SourceManager sources;
  uint32_t buffer =
      sources.addBuffer("m.eq", "model M\n  Real x;\n  Real y;\nequation\n  x = 1;\n  x = 2;\nend M;\n");
  Diagnostics diags{sources};
};

TEST_F(SingularityTest, NamesTheOverAndUnderDeterminedParts) {
  SystemBuilder b;
  const Expr *x = b.unknown("x", at(2));
  b.unknown("y", at(3));
  b.equation(x, b.c(1), at(5));
  b.equation(x, b.c(2), at(6));
  EquationSystem sys = b.system();
  BipartiteGraph g = incidenceGraph(b.flat, sys);
  EXPECT_FALSE(matchEquations(b.flat, sys, g, diags).has_value());
  EXPECT_EQ(diags.errorCount(), 2u);
  const std::vector<Diagnostic> &all = diags.all();
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all[0].severity, Severity::Error);
  EXPECT_EQ(all[0].message,
            "the simulation problem is structurally singular: 2 equations involve only 1 unknown (x)");
  EXPECT_EQ(all[0].range.line, 5u);
  EXPECT_EQ(all[1].message, "equation 1 is in the over-determined part");
  EXPECT_EQ(all[1].range.line, 5u);
  EXPECT_EQ(all[2].message, "equation 2 is in the over-determined part");
  EXPECT_EQ(all[2].range.line, 6u);
  EXPECT_EQ(all[3].severity, Severity::Error);
  EXPECT_EQ(
      all[3].message,
      "the simulation problem is structurally singular: 1 unknown (y) is determined by only 0 equations");
  EXPECT_EQ(all[3].range.line, 3u) << "with no equation to point at, the unknown's declaration";
  EXPECT_EQ(all[4].severity, Severity::Note);
  EXPECT_EQ(all[4].message, "'y' occurs in no equation");
  EXPECT_EQ(all[4].range.line, 3u);
}

TEST_F(SingularityTest, ConstraintOnAStateIsSingularOnlyBeforeIndexReduction) {
  // der(x) = y; x = sin(time): the second equation constrains the state x (index 2). Matched for
  // derivatives and algebraics the system is singular; reduceIndex differentiates it instead.
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *x = b.unknown("x", at(2));
  const Expr *y = b.unknown("y", at(3));
  const Expr *dx = b.derivative(x);
  b.equation(dx, y, at(5));
  b.equation(x, ctx.call(Builtin::Sin, {ctx.time()}), at(6));
  EquationSystem sys = b.system();
  EXPECT_EQ(sys.unknowns, (std::vector<int>{y->var(), dx->var()}));
  BipartiteGraph g = incidenceGraph(b.flat, sys);
  EXPECT_FALSE(matchEquations(b.flat, sys, g, diags).has_value());
  std::vector<std::string> messages;
  for (const Diagnostic &d : diags.all())
    messages.push_back(d.message);
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[0],
            "the simulation problem is structurally singular: 1 equation involves none of the unknowns");
  EXPECT_EQ(messages[1], "equation 2 is in the over-determined part");
  EXPECT_EQ(messages[2],
            "the simulation problem is structurally singular: 2 unknowns (y, der(x)) are determined "
            "by only 1 equation");
  EXPECT_EQ(messages[3], "equation 1 is in the under-determined part");
}

// ---- ODE model set-up ----

// A large linear block is torn as a nonlinear one is: a ring of 20 unknowns x_{k+1} = x_k + a_k
// (what connections leave: sums and aliases) closed by x_1 + x_20 = c needs one tearing variable,
// the others assigned in sequence with their constant unit coefficients; the reduced system is
// linear (one LU of size 1). Its solution: x_k = x_1 + sum_{j<k} a_j with x_1 = (c - S)/2,
// S = sum_{j<20} a_j. A block below 16 unknowns keeps its dense LU untorn.
TEST(CausalizeTest, LargeLinearBlocksAreTornToTheirTearingVariables) {
  for (const size_t n : {20u, 10u}) {
    SystemBuilder b;
    ExprContext &ctx = b.ctx();
    std::vector<const Expr *> x;
    for (size_t k = 0; k < n; ++k)
      x.push_back(b.unknown("x" + std::to_string(k + 1)));
    double sum = 0;
    for (size_t k = 0; k + 1 < n; ++k) {
      const double a = 0.5 + static_cast<double>(k);
      sum += a;
      b.equation(x[k + 1], ctx.add(x[k], b.c(a)));
    }
    b.equation(ctx.add(x[0], x[n - 1]), b.c(7));
    Causalized c = causalizeAll(b);
    ASSERT_EQ(c.causal.loops.size(), 1u);
    const AlgebraicLoop &loop = c.causal.loops[0];
    EXPECT_TRUE(loop.linear);
    EXPECT_EQ(loop.size(), n);
    if (n == 20) {
      EXPECT_EQ(loop.vars.size(), 1u);
      EXPECT_FALSE(loop.untorn);
      EXPECT_EQ(c.causal.tearingSummary(), "1 linear loop of 20 unknowns -> 1 tearing variable");
    } else {
      EXPECT_EQ(loop.vars.size(), n);
      EXPECT_EQ(c.causal.tearingSummary(), "");
    }
    expectStepsInDependencyOrder(c);
    std::vector<double> values(b.flat.vars.size(), 0.0);
    execute(c.causal, values);
    const double x1 = (7 - sum) / 2;
    double expected = x1;
    for (size_t k = 0; k < n; ++k) {
      EXPECT_NEAR(values[static_cast<size_t>(x[k]->var())], expected, 1e-12) << n << " x" << k + 1;
      expected += 0.5 + static_cast<double>(k);
    }
  }
}

TEST(OdeModelTest, AssignsStorageAndSetsUpBothSystems) {
  // der(x) = -k*x + y; y = 2*x (x without a start value).
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *k = b.parameter("k", 3);
  const Expr *x = b.unknown("x");
  const Expr *y = b.unknown("y");
  const Expr *dx = b.derivative(x);
  b.equation(dx, ctx.add(ctx.neg(ctx.mul(k, x)), y));
  b.equation(y, ctx.mul(b.c(2), x));
  SourceManager sources;
  Diagnostics diags(sources);
  OdeModel m = *buildOdeModel(b.flat, diags);
  EXPECT_EQ(m.params, std::vector<int>{k->var()});
  EXPECT_EQ(m.states, std::vector<int>{x->var()});
  EXPECT_EQ(m.algebraics, std::vector<int>{y->var()});
  ASSERT_EQ(m.slots.size(), 4u);
  EXPECT_EQ(m.slots[k->var()].storage, Storage::Param);
  EXPECT_EQ(m.slots[x->var()].storage, Storage::State);
  EXPECT_EQ(m.slots[y->var()].storage, Storage::Algebraic);
  EXPECT_EQ(m.slots[dx->var()].storage, Storage::Derivative);
  EXPECT_EQ(m.slots[dx->var()].index, m.slots[x->var()].index) << "der(x[i]) is dx[i]";
  EXPECT_EQ(m.simulation.unknowns, (std::vector<int>{y->var(), dx->var()}));
  EXPECT_EQ(m.simulation.labels, (std::vector<std::string>{"equation 1", "equation 2"}));
  EXPECT_EQ(m.initialization.unknowns, m.simulation.unknowns) << "no initial equations: states start fixed";
  EXPECT_TRUE(m.freeStates.empty());
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].severity, Severity::Warning);
  EXPECT_EQ(diags.all()[0].message, "state 'x' has no start value; it starts at 0");

  ASSERT_TRUE(causalizeOdeModel(b.flat, m, diags));
  ASSERT_EQ(m.ode.steps.size(), 2u);
  EXPECT_EQ(m.ode.steps[0].var, y->var()) << "y is needed by der(x)";
  EXPECT_EQ(m.ode.steps[1].var, dx->var());
  std::vector<double> values{3, 1.5, NAN, NAN};
  execute(m.ode, values);
  EXPECT_DOUBLE_EQ(values[y->var()], 3.0);
  EXPECT_DOUBLE_EQ(values[dx->var()], -3 * 1.5 + 3.0);
}

TEST(OdeModelTest, InitialEquationsMakeNonFixedStatesUnknowns) {
  SystemBuilder b;
  ExprContext &ctx = b.ctx();
  const Expr *x = b.unknown("x");
  const Expr *v = b.unknown("v");
  const Expr *dx = b.derivative(x);
  const Expr *dv = b.derivative(v);
  b.flat.vars[v->var()].fixed = true;
  b.flat.vars[v->var()].hasStart = true;
  b.flat.vars[v->var()].binding = b.c(1);
  b.equation(dx, v);
  b.equation(dv, ctx.neg(x));
  b.flat.initialEquations.push_back({dx, ctx.mul(b.c(2), x), SourceRange{}, 1}); // der(x) = 2*x
  SourceManager sources;
  Diagnostics diags(sources);
  OdeModel m = *buildOdeModel(b.flat, diags);
  EXPECT_FALSE(diags.hasErrors());
  EXPECT_EQ(m.freeStates, std::vector<int>{x->var()});
  EXPECT_EQ(m.initialization.unknowns, (std::vector<int>{dx->var(), dv->var(), x->var()}));
  EXPECT_EQ(m.initialization.labels.back(), "initial equation 1");
  ASSERT_TRUE(causalizeOdeModel(b.flat, m, diags));
  std::vector<double> values{NAN, 1, NAN, NAN};
  execute(m.init, values);
  EXPECT_DOUBLE_EQ(values[x->var()], 0.5); // der(x) = v = 1 = 2*x
  EXPECT_DOUBLE_EQ(values[dv->var()], -0.5);
}

TEST(OdeModelTest, InitialEquationCountMismatchIsAnError) {
  SystemBuilder b;
  const Expr *x = b.unknown("x");
  const Expr *dx = b.derivative(x);
  b.flat.vars[x->var()].fixed = true;
  b.equation(dx, b.ctx().neg(x));
  b.flat.initialEquations.push_back({x, b.c(1), SourceRange{}, 1});
  SourceManager sources;
  Diagnostics diags(sources);
  buildOdeModel(b.flat, diags);
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.all()[0].message, "the initialization problem has 2 equations for 1 unknown: the fixed start "
                                    "values (x) and 1 initial equation over-determine the 1 state");
}

} // namespace
} // namespace eqc
