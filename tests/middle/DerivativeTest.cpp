// Tests of symbolic differentiation (exact rules, memoization, finite-difference property) and a
// property test that the canonicalizing factories preserve the value of a formula.
#include "middle/Expr.h"
#include "middle/ExprOps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

namespace eqc {
namespace {

class DerivativeTest : public ::testing::Test {
protected:
  const Expr *c(double v) { return ctx.constant(v); }
  const Expr *call(Builtin fn, const Expr *u) { return ctx.call(fn, {u}); }
  const Expr *sq(const Expr *u) { return ctx.pow(u, c(2)); }
  const Expr *dx(const Expr *e) { return d.diff(e, 0); }

  ExprContext ctx;
  Differentiator d{ctx};
  const Expr *x = ctx.var(0), *y = ctx.var(1), *z = ctx.var(2);
};

// ---- exact rules ----

TEST_F(DerivativeTest, LeavesDifferentiateToZeroOrOne) {
  EXPECT_EQ(dx(x), ctx.one());
  EXPECT_EQ(dx(y), ctx.zero());
  EXPECT_EQ(dx(c(3)), ctx.zero());
  EXPECT_EQ(dx(ctx.time()), ctx.zero()) << "partial derivative: time is not a variable";
}

TEST_F(DerivativeTest, ExplicitTimeDerivative) {
  const Expr *e = ctx.mul(x, call(Builtin::Sin, ctx.mul(c(2), ctx.time())));
  EXPECT_EQ(d.diff(e, Differentiator::kTime),
            ctx.mul({c(2), x, call(Builtin::Cos, ctx.mul(c(2), ctx.time()))}));
  EXPECT_EQ(d.diff(x, Differentiator::kTime), ctx.zero()) << "variables are held fixed";
}

TEST_F(DerivativeTest, TheLeafSummaryNeverMissesAVariableOrTime) {
  // mayContain may answer true for a variable that is not there (v and v + 31 share a bit), never
  // false for one that is: derivatives of subtrees it rules out are 0 without a walk.
  const Expr *w = ctx.var(33); // shares z's bit (33 % 31 == 2)
  const Expr *e = ctx.add(ctx.mul(x, call(Builtin::Sin, w)), ctx.pre(1));
  EXPECT_TRUE(e->mayContain(0));
  EXPECT_TRUE(e->mayContain(33));
  EXPECT_TRUE(e->mayContain(2)) << "a shared bit: a false positive is allowed";
  EXPECT_FALSE(e->mayContain(1)) << "pre(y) is not an occurrence of y";
  EXPECT_FALSE(e->mayContain(Differentiator::kTime));
  EXPECT_TRUE(ctx.mul(e, ctx.time())->mayContain(Differentiator::kTime));
  EXPECT_EQ(d.diff(e, 1), ctx.zero());
  EXPECT_EQ(d.diff(e, 2), ctx.zero()) << "walked: the bit is shared, the variable absent";
  EXPECT_EQ(d.diff(e, 33), ctx.mul(x, call(Builtin::Cos, w)));
  // Property: over random expressions, every variable collectVars finds is one mayContain allows.
  std::mt19937 gen(3);
  std::vector<const Expr *> pool{x, y, z, w, ctx.var(64), ctx.time(), c(1.5)};
  for (int k = 0; k < 2000; ++k) {
    const Expr *a = pool[gen() % pool.size()], *b = pool[gen() % pool.size()];
    const Expr *made = gen() % 2 ? ctx.add(a, b) : ctx.mul(a, call(Builtin::Exp, b));
    for (int v : collectVars(made))
      ASSERT_TRUE(made->mayContain(v)) << v;
    pool.push_back(made);
  }
}

TEST_F(DerivativeTest, SumAndProductRules) {
  EXPECT_EQ(dx(ctx.add({x, y, c(4)})), ctx.one());
  EXPECT_EQ(dx(ctx.mul(c(3), x)), c(3));
  EXPECT_EQ(dx(ctx.mul(x, y)), y);
  EXPECT_EQ(dx(ctx.mul({x, y, z})), ctx.mul(y, z));
  EXPECT_EQ(dx(ctx.mul(x, call(Builtin::Sin, x))),
            ctx.add(call(Builtin::Sin, x), ctx.mul(x, call(Builtin::Cos, x))));
}

TEST_F(DerivativeTest, PowerRules) {
  EXPECT_EQ(dx(ctx.pow(x, c(3))), ctx.mul(c(3), sq(x)));
  EXPECT_EQ(dx(sq(x)), ctx.mul(c(2), x));
  EXPECT_EQ(dx(ctx.div(c(1), x)), ctx.neg(ctx.pow(x, c(-2))));
  EXPECT_EQ(dx(ctx.pow(x, c(0.5))), ctx.mul(c(0.5), ctx.pow(x, c(-0.5))));
  // Variable exponent: d/dx 2^x = log(2) 2^x, with log(2) folded.
  EXPECT_EQ(dx(ctx.pow(c(2), x)), ctx.mul(c(std::log(2.0)), ctx.pow(c(2), x)));
  // x^y: y x^(y-1) with respect to x, x^y log(x) with respect to y.
  const Expr *xy = ctx.pow(x, y);
  EXPECT_EQ(d.diff(xy, 0), ctx.mul(y, ctx.pow(x, ctx.sub(y, c(1)))));
  EXPECT_EQ(d.diff(xy, 1), ctx.mul(xy, call(Builtin::Log, x)));
}

TEST_F(DerivativeTest, ChainRule) {
  EXPECT_EQ(dx(call(Builtin::Sin, sq(x))), ctx.mul({c(2), x, call(Builtin::Cos, sq(x))}));
  EXPECT_EQ(dx(call(Builtin::Exp, ctx.mul(c(3), x))), ctx.mul(c(3), call(Builtin::Exp, ctx.mul(c(3), x))));
  EXPECT_EQ(dx(call(Builtin::Sin, y)), ctx.zero());
}

TEST_F(DerivativeTest, TrigonometricRules) {
  EXPECT_EQ(dx(call(Builtin::Sin, x)), call(Builtin::Cos, x));
  EXPECT_EQ(dx(call(Builtin::Cos, x)), ctx.neg(call(Builtin::Sin, x)));
  EXPECT_EQ(dx(call(Builtin::Tan, x)), ctx.add(c(1), sq(call(Builtin::Tan, x))));
  EXPECT_EQ(dx(call(Builtin::Asin, x)), ctx.pow(call(Builtin::Sqrt, ctx.sub(c(1), sq(x))), c(-1)));
  EXPECT_EQ(dx(call(Builtin::Acos, x)), ctx.neg(ctx.pow(call(Builtin::Sqrt, ctx.sub(c(1), sq(x))), c(-1))));
  EXPECT_EQ(dx(call(Builtin::Atan, x)), ctx.div(c(1), ctx.add(c(1), sq(x))));
}

TEST_F(DerivativeTest, Atan2Rule) {
  const Expr *e = ctx.call(Builtin::Atan2, {y, x}); // the angle of the point (x, y)
  const Expr *r2 = ctx.add(sq(x), sq(y));
  EXPECT_EQ(d.diff(e, 0), ctx.div(ctx.neg(y), r2));
  EXPECT_EQ(d.diff(e, 1), ctx.div(x, r2));
}

TEST_F(DerivativeTest, HyperbolicRules) {
  EXPECT_EQ(dx(call(Builtin::Sinh, x)), call(Builtin::Cosh, x));
  EXPECT_EQ(dx(call(Builtin::Cosh, x)), call(Builtin::Sinh, x));
  EXPECT_EQ(dx(call(Builtin::Tanh, x)), ctx.sub(c(1), sq(call(Builtin::Tanh, x))));
}

TEST_F(DerivativeTest, ExponentialAndLogarithmRules) {
  EXPECT_EQ(dx(call(Builtin::Exp, x)), call(Builtin::Exp, x));
  EXPECT_EQ(dx(call(Builtin::Log, x)), ctx.pow(x, c(-1)));
  const Expr *dlog10 = dx(call(Builtin::Log10, x));
  EXPECT_EQ(dlog10, ctx.div(c(1), ctx.mul(c(std::log(10.0)), x)));
  EXPECT_DOUBLE_EQ(evaluate(dlog10, {4}), 1 / (4 * std::log(10.0)));
  const Expr *dsqrt = dx(call(Builtin::Sqrt, x));
  EXPECT_EQ(dsqrt, ctx.div(c(1), ctx.mul(c(2), call(Builtin::Sqrt, x))));
  EXPECT_DOUBLE_EQ(evaluate(dsqrt, {4}), 0.25);
}

TEST_F(DerivativeTest, PiecewiseRules) {
  EXPECT_EQ(dx(call(Builtin::Abs, x)), call(Builtin::Sign, x));
  EXPECT_EQ(dx(call(Builtin::Sign, x)), ctx.zero());
  EXPECT_EQ(dx(call(Builtin::Floor, x)), ctx.zero());
  EXPECT_EQ(dx(call(Builtin::Ceil, x)), ctx.zero());
  EXPECT_EQ(dx(ctx.call(Builtin::Min, {x, y})), ctx.ifThenElse(ctx.lt(x, y), c(1), c(0)));
  EXPECT_EQ(dx(ctx.call(Builtin::Max, {x, y})), ctx.ifThenElse(ctx.lt(y, x), c(1), c(0)));
  EXPECT_EQ(dx(ctx.call(Builtin::Mod, {x, y})), ctx.one());
  EXPECT_EQ(d.diff(ctx.call(Builtin::Mod, {x, y}), 1), ctx.neg(call(Builtin::Floor, ctx.div(x, y))));
}

TEST_F(DerivativeTest, IfAndRelationRules) {
  const Expr *cond = ctx.lt(x, y);
  EXPECT_EQ(dx(ctx.ifThenElse(cond, sq(x), y)), ctx.ifThenElse(cond, ctx.mul(c(2), x), c(0)));
  EXPECT_EQ(dx(ctx.ifThenElse(cond, ctx.mul(c(2), x), ctx.add(x, y))), ctx.ifThenElse(cond, c(2), c(1)));
  EXPECT_EQ(dx(ctx.ifThenElse(cond, ctx.add(x, c(1)), ctx.sub(x, c(1)))), ctx.one());
  EXPECT_EQ(dx(cond), ctx.zero());
  EXPECT_EQ(dx(ctx.logicalNot(cond)), ctx.zero());
}

TEST_F(DerivativeTest, DerivativesAreMemoized) {
  const Expr *e = ctx.mul(call(Builtin::Sin, ctx.mul(x, y)), call(Builtin::Exp, sq(x)));
  const Expr *first = d.diff(e, 0);
  size_t nodes = ctx.size();
  EXPECT_EQ(d.diff(e, 0), first);
  EXPECT_EQ(ctx.size(), nodes) << "the second call must come from the memo";
  EXPECT_NE(d.diff(e, 1), first) << "the memo is keyed on the variable too";
  // A fresh differentiator builds the same canonical node.
  Differentiator other(ctx);
  EXPECT_EQ(other.diff(e, 0), first);
}

TEST_F(DerivativeTest, DifferentiatingAnExponentiallyLargeTreeIsLinearInTheDag) {
  // e_{k+1} = sin(e_k) + cos(e_k): a tree of 2^40 nodes shared as a DAG of 3*40.
  const int levels = 40;
  const Expr *e = ctx.mul(x, y);
  for (int k = 0; k < levels; ++k)
    e = ctx.add(call(Builtin::Sin, e), call(Builtin::Cos, e));
  size_t before = ctx.size();
  const Expr *de = dx(e);
  EXPECT_LT(ctx.size() - before, 20u * levels) << "differentiation must reuse shared subexpressions";
  // Reference by the chain rule: v' = (cos v - sin v) v', starting from d(xy)/dx = y.
  double v = 0.3 * 0.4, dv = 0.4;
  for (int k = 0; k < levels; ++k) {
    dv *= std::cos(v) - std::sin(v);
    v = std::sin(v) + std::cos(v);
  }
  EXPECT_NEAR(evaluate(de, {0.3, 0.4}), dv, 1e-12 * std::max(1.0, std::fabs(dv)));
}

// ---- property: derivatives agree with finite differences ----

/// Random real expressions over variables 0..2 built only from operations that are smooth on the
/// arguments they are given (logarithms and fractional powers of 1 + u^2, asin of 0.5 sin(u), ...).
class SmoothExprGenerator {
public:
  SmoothExprGenerator(ExprContext &ctx, uint32_t seed) : ctx_(ctx), rng_(seed) {}

  const Expr *gen(int depth) {
    if (depth == 0 || pick(5) == 0)
      return leaf();
    const Expr *u = gen(depth - 1);
    auto v = [&] { return gen(depth - 1); };
    auto positive = [&](const Expr *e) { return ctx_.add(ctx_.one(), ctx_.pow(e, ctx_.constant(2))); };
    switch (pick(27)) {
    case 0:
      return ctx_.add(u, v());
    case 1:
      return ctx_.sub(u, v());
    case 2:
      return ctx_.mul(u, v());
    case 3:
      return ctx_.add({u, v(), v()});
    case 4:
      return ctx_.mul({u, v(), ctx_.constant(0.5)});
    case 5:
      return ctx_.div(u, v());
    case 6:
      return ctx_.div(u, positive(v()));
    case 7:
      return ctx_.neg(u);
    case 8: {
      static const double ints[] = {2, 3, -1, -2, 4};
      return ctx_.pow(u, ctx_.constant(ints[pick(5)]));
    }
    case 9: {
      static const double reals[] = {0.5, 1.5, -0.5, 2.5, 1.0 / 3};
      return ctx_.pow(positive(u), ctx_.constant(reals[pick(5)]));
    }
    case 10:
      return ctx_.pow(positive(u), v()); // variable exponent
    case 11:
      return ctx_.pow(ctx_.constant(2), u);
    case 12:
      return ctx_.call(Builtin::Sin, {u});
    case 13:
      return ctx_.call(Builtin::Cos, {u});
    case 14:
      return ctx_.call(Builtin::Tan, {u});
    case 15:
      return ctx_.call(Builtin::Atan, {u});
    case 16:
      return ctx_.call(Builtin::Exp, {u});
    case 17:
      return ctx_.call(Builtin::Log, {positive(u)});
    case 18:
      return ctx_.call(Builtin::Log10, {positive(u)});
    case 19:
      return ctx_.call(Builtin::Sqrt, {positive(u)});
    case 20:
      return ctx_.call(Builtin::Sinh, {u});
    case 21:
      return ctx_.call(Builtin::Cosh, {u});
    case 22:
      return ctx_.call(Builtin::Tanh, {u});
    case 23:
      return ctx_.call(Builtin::Atan2, {u, v()});
    case 24:
      return ctx_.call(Builtin::Asin, {ctx_.mul(ctx_.constant(0.5), ctx_.call(Builtin::Sin, {u}))});
    case 25:
      return ctx_.call(Builtin::Acos, {ctx_.mul(ctx_.constant(0.5), ctx_.call(Builtin::Tanh, {u}))});
    default: { // smooth away from the switch
      const Expr *cond = ctx_.lt(u, v());
      const Expr *then = v();
      return ctx_.ifThenElse(cond, then, v());
    }
    }
  }

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  const Expr *leaf() {
    if (pick(10) < 7)
      return ctx_.var(pick(3));
    static const double values[] = {-2, -1, 0.5, 1, 2, 3, 1.5};
    return ctx_.constant(values[pick(7)]);
  }

  ExprContext &ctx_;
  std::mt19937 rng_;
};

std::string xyz(int v) { return std::string(1, "xyz"[v]); }

double centralDifference(const Expr *e, std::vector<double> at, int var, double h) {
  double x0 = at[var];
  at[var] = x0 + h;
  double up = evaluate(e, at);
  at[var] = x0 - h;
  double down = evaluate(e, at);
  return (up - down) / (2 * h);
}

TEST(DerivativeProperty, SymbolicDerivativesMatchFiniteDifferences) {
  ExprContext ctx;
  Differentiator d(ctx);
  SmoothExprGenerator gen(ctx, 20240601);
  int checked = 0, attempted = 0, nonzero = 0;
  for (int i = 0; i < 400; ++i) {
    const Expr *e = gen.gen(4);
    for (int point = 0; point < 3; ++point) {
      std::vector<double> at{gen.uniform(-1.5, 1.5), gen.uniform(-1.5, 1.5), gen.uniform(-1.5, 1.5)};
      double f = evaluate(e, at);
      for (int var = 0; var < 3; ++var) {
        ++attempted;
        double symbolic = evaluate(d.diff(e, var), at);
        double h = 1e-3 * std::max(1.0, std::fabs(at[var]));
        double coarse = centralDifference(e, at, var, h), fine = centralDifference(e, at, var, h / 2);
        double richardson = (4 * fine - coarse) / 3;
        double scale = std::max({1.0, std::fabs(f), std::fabs(richardson)});
        // Skip points near a singularity, a branch switch or overflow, where differences say nothing.
        if (!std::isfinite(f) || !std::isfinite(coarse) || !std::isfinite(fine) || scale > 1e6 ||
            std::fabs(coarse - fine) > 1e-5 * scale)
          continue;
        ++checked;
        nonzero += richardson != 0;
        ASSERT_NEAR(symbolic, richardson, 1e-6 * scale)
            << "d/d" << xyz(var) << " of " << toString(e, xyz) << " at (" << at[0] << ", " << at[1] << ", "
            << at[2] << ")\n  derivative: " << toString(d.diff(e, var), xyz);
      }
    }
  }
  EXPECT_GT(checked, attempted / 2) << "too many points skipped for the test to mean anything";
  EXPECT_GT(nonzero, checked / 3);
}

// ---- property: simplification preserves value ----

/// A formula as written, evaluated directly in C++ and built through the factories.
struct Formula {
  enum Kind { Var, Const, Add, Sub, Mul, Div, Neg, Pow, Call, If } kind;
  int var = 0;
  double value = 0;
  Builtin fn = Builtin::Sin;
  int relation = 0; // If: <, <=, >, >=, ==, <>
  std::vector<std::shared_ptr<Formula>> kids;
};
using FormulaPtr = std::shared_ptr<Formula>;

class FormulaGenerator {
public:
  explicit FormulaGenerator(uint32_t seed) : rng_(seed) {}

  FormulaPtr gen(int depth) {
    // Reusing earlier subformulas makes x - x, x/x, like terms and powers of one base common.
    if (!pool_.empty() && pick(4) == 0)
      return pool_[pick(static_cast<int>(pool_.size()))];
    auto f = std::make_shared<Formula>();
    if (depth == 0 || pick(6) == 0) {
      if (pick(3)) {
        f->kind = Formula::Var;
        f->var = pick(3);
      } else {
        static const double values[] = {0, 1, -1, 2, 0.5, 3, -2.5};
        f->kind = Formula::Const;
        f->value = values[pick(7)];
      }
      return f;
    }
    int k = pick(10);
    f->kind = static_cast<Formula::Kind>(Formula::Add + k % 8);
    if (k >= 8)
      f->kind = k == 8 ? Formula::Call : Formula::If;
    int arity = f->kind == Formula::Neg ? 1 : f->kind == Formula::If ? 4 : 2;
    if (f->kind == Formula::Call) {
      f->fn = static_cast<Builtin>(pick(static_cast<int>(kBuiltinCount)));
      arity = builtinInfo(f->fn).arity;
    }
    if (f->kind == Formula::If)
      f->relation = pick(6);
    for (int i = 0; i < arity; ++i)
      f->kids.push_back(gen(depth - 1));
    if (f->kind == Formula::Pow && pick(2)) { // mostly constant exponents, as in models
      static const double exps[] = {2, 3, -1, -2, 0.5, 0, 1, 1.5};
      auto e = std::make_shared<Formula>();
      e->kind = Formula::Const;
      e->value = exps[pick(8)];
      f->kids[1] = e;
    }
    pool_.push_back(f);
    return f;
  }

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::mt19937 rng_;
  std::vector<FormulaPtr> pool_;
};

/// Straightforward double arithmetic; records the largest intermediate magnitude and whether the
/// value sits on a discontinuity (a relation or floor/ceil/sign/mod argument within rounding).
struct DirectEvaluator {
  const std::vector<double> &at;
  double maxAbs = 0;
  bool ambiguous = false;

  double eval(const Formula &f) {
    double v = compute(f);
    maxAbs = std::max(maxAbs, std::fabs(v));
    return v;
  }

  bool near(double a, double b) { return std::fabs(a - b) <= 1e-7 * (1 + std::fabs(a) + std::fabs(b)); }
  void checkInteger(double v) { ambiguous = ambiguous || near(v, std::round(v)); }

  double compute(const Formula &f) {
    auto kid = [&](size_t i) { return eval(*f.kids[i]); };
    switch (f.kind) {
    case Formula::Var:
      return at[f.var];
    case Formula::Const:
      return f.value;
    case Formula::Add:
      return kid(0) + kid(1);
    case Formula::Sub:
      return kid(0) - kid(1);
    case Formula::Mul:
      return kid(0) * kid(1);
    case Formula::Div:
      return kid(0) / kid(1);
    case Formula::Neg:
      return -kid(0);
    case Formula::Pow:
      return std::pow(kid(0), kid(1));
    case Formula::Call: {
      double a[2] = {kid(0), f.kids.size() > 1 ? kid(1) : 0};
      switch (f.fn) {
      case Builtin::Floor:
      case Builtin::Ceil:
      case Builtin::Sign:
        checkInteger(a[0]);
        break;
      case Builtin::Mod:
        checkInteger(a[0] / a[1]);
        break;
      default:
        break;
      }
      return evalBuiltin(f.fn, a);
    }
    case Formula::If: {
      double l = kid(0), r = kid(1);
      ambiguous = ambiguous || near(l, r);
      bool cond = f.relation == 0   ? l < r
                  : f.relation == 1 ? l <= r
                  : f.relation == 2 ? l > r
                  : f.relation == 3 ? l >= r
                  : f.relation == 4 ? l == r
                                    : l != r;
      return cond ? kid(2) : kid(3);
    }
    }
    return NAN;
  }
};

const Expr *build(ExprContext &ctx, const Formula &f) {
  auto kid = [&](size_t i) { return build(ctx, *f.kids[i]); };
  switch (f.kind) {
  case Formula::Var:
    return ctx.var(f.var);
  case Formula::Const:
    return ctx.constant(f.value);
  case Formula::Add:
    return ctx.add(kid(0), kid(1));
  case Formula::Sub:
    return ctx.sub(kid(0), kid(1));
  case Formula::Mul:
    return ctx.mul(kid(0), kid(1));
  case Formula::Div:
    return ctx.div(kid(0), kid(1));
  case Formula::Neg:
    return ctx.neg(kid(0));
  case Formula::Pow:
    return ctx.pow(kid(0), kid(1));
  case Formula::Call: {
    std::vector<const Expr *> args;
    for (size_t i = 0; i < f.kids.size(); ++i)
      args.push_back(kid(i));
    return ctx.call(f.fn, args);
  }
  case Formula::If: {
    const Expr *l = kid(0), *r = kid(1);
    const Expr *cond = f.relation == 0   ? ctx.lt(l, r)
                       : f.relation == 1 ? ctx.le(l, r)
                       : f.relation == 2 ? ctx.gt(l, r)
                       : f.relation == 3 ? ctx.ge(l, r)
                       : f.relation == 4 ? ctx.eq(l, r)
                                         : ctx.ne(l, r);
    return ctx.ifThenElse(cond, kid(2), kid(3));
  }
  }
  return nullptr;
}

TEST(SimplifyProperty, FactoriesPreserveTheValueOfAFormula) {
  ExprContext ctx;
  FormulaGenerator gen(7);
  int checked = 0, attempted = 0;
  for (int i = 0; i < 600; ++i) {
    FormulaPtr f = gen.gen(4);
    const Expr *e = build(ctx, *f);
    for (int point = 0; point < 4; ++point) {
      ++attempted;
      std::vector<double> at{gen.uniform(-3, 3), gen.uniform(-3, 3), gen.uniform(-3, 3)};
      DirectEvaluator direct{at};
      double expected = direct.eval(*f);
      if (!std::isfinite(expected) || direct.ambiguous || direct.maxAbs > 1e8)
        continue;
      ++checked;
      double actual = evaluate(e, at);
      ASSERT_NEAR(actual, expected, 1e-9 * (1 + direct.maxAbs))
          << "formula #" << i << " built as " << toString(e, xyz) << " at (" << at[0] << ", " << at[1] << ", "
          << at[2] << ")";
    }
  }
  EXPECT_GT(checked, attempted / 3) << "too many points skipped for the test to mean anything";
}

} // namespace
} // namespace eqc
