// User functions in the middle end: the interpreter, derivative functions against finite
// differences (first and second order, through loops, branches and calls), partial derivatives
// of calls, and the conditions of the Events pass.
#include "frontend/Flatten.h"
#include "frontend/Parser.h"
#include "middle/Events.h"
#include "middle/ExprOps.h"
#include "middle/Function.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <sstream>

using namespace eqc;

namespace {

struct Flat {
  SourceManager sources;
  std::ostringstream messages;
  std::unique_ptr<Diagnostics> diags;
  std::optional<FlatSystem> flat;
  explicit Flat(const std::string &text) {
    diags = std::make_unique<Diagnostics>(sources, &messages);
    std::optional<ast::File> file = parseBuffer(sources, sources.addBuffer("test.eq", text), *diags);
    if (file)
      flat = flattenModel(*file, "", *diags);
  }
  /// The function named `name` (the first specialization).
  int function(const std::string &name) const {
    for (size_t f = 0; f < flat->ctx->numFunctions(); ++f)
      if (flat->ctx->function(static_cast<int>(f)).name == name)
        return static_cast<int>(f);
    ADD_FAILURE() << "no function " << name;
    return -1;
  }
};

const char *kFunctions = R"(
function wavy "loops, branches, a call and a while loop"
  input Real x;
  input Real a[3];
  output Real y;
  output Real z;
protected
  Real s = 0;
  Integer k;
algorithm
  for i in 1:3 loop
    s := s + a[i]*sin(i*x) + helper(x, a[i]);
  end for;
  if x > 0 then
    y := s*exp(0.3*x);
  else
    y := s - x^3;
  end if;
  k := 0;
  while k < 2 loop
    y := y + 0.1*y*x;
    k := k + 1;
  end while;
  z := y*a[2] + x;
end wavy;

function helper
  input Real u;
  input Real v;
  output Real w;
algorithm
  w := u*v^2 + atan2(u, 1 + v^2);
end helper;

model M
  Real q1, q2, q3;
  Real r1, r2;
equation
  (r1, r2) = wavy(q1, {q2, q3, q1*q2});
  q1 = 0.3;
  q2 = time;
  q3 = 2;
end M;
)";

TEST(Function, DerivativeFunctionsMatchFiniteDifferences) {
  Flat f(kFunctions);
  ASSERT_TRUE(f.flat) << f.messages.str();
  ExprContext &ctx = *f.flat->ctx;
  const int wavy = f.function("wavy");
  const Function &fn = ctx.function(wavy);
  ASSERT_EQ(fn.inputs.size(), 4u); // x, a[1..3]
  ASSERT_EQ(fn.outputs.size(), 2u);
  const int der = derivativeFunction(ctx, wavy);
  const int der2 = derivativeFunction(ctx, der);
  EXPECT_EQ(derivativeFunction(ctx, wavy), der) << "made once";
  EXPECT_EQ(ctx.function(der).inputs.size(), 8u);
  EXPECT_EQ(ctx.function(der2).inputs.size(), 16u);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-1.5, 1.5);
  std::string error;
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> x(4), dx(4);
    for (int i = 0; i < 4; ++i) {
      x[i] = value(rng);
      dx[i] = value(rng);
    }
    if (std::fabs(x[0]) < 1e-3)
      continue; // the branch on x > 0
    // J(x) dx against central differences of f along dx.
    const double h = 1e-6;
    std::vector<double> xp = x, xm = x;
    for (int i = 0; i < 4; ++i) {
      xp[i] += h * dx[i];
      xm[i] -= h * dx[i];
    }
    std::vector<double> fp = callFunction(fn, xp, error), fm = callFunction(fn, xm, error);
    std::vector<double> args = x;
    args.insert(args.end(), dx.begin(), dx.end());
    std::vector<double> d = callFunction(ctx.function(der), args, error);
    ASSERT_TRUE(error.empty()) << error;
    for (int k = 0; k < 2; ++k)
      EXPECT_NEAR(d[k], (fp[k] - fm[k]) / (2 * h), 1e-6 * (1 + std::fabs(d[k]))) << "trial " << trial;
    // The second derivative along dx: d/dε of J(x + ε dx) dx.
    std::vector<double> a2(16, 0.0);
    for (int i = 0; i < 4; ++i) {
      a2[i] = x[i];
      a2[4 + i] = dx[i]; // the direction of the inner derivative
      a2[8 + i] = dx[i]; // the direction of the outer one
      a2[12 + i] = 0;    // the direction's own tangent
    }
    std::vector<double> dd = callFunction(ctx.function(der2), a2, error);
    std::vector<double> ap = args, am = args;
    for (int i = 0; i < 4; ++i) {
      ap[i] += h * dx[i];
      am[i] -= h * dx[i];
    }
    std::vector<double> dp = callFunction(ctx.function(der), ap, error), dm = callFunction(ctx.function(der), am, error);
    for (int k = 0; k < 2; ++k)
      EXPECT_NEAR(dd[k], (dp[k] - dm[k]) / (2 * h), 1e-5 * (1 + std::fabs(dd[k]))) << "trial " << trial;
  }
}

TEST(Function, PartialDerivativesOfCallsUseTheDerivativeFunction) {
  Flat f(kFunctions);
  ASSERT_TRUE(f.flat) << f.messages.str();
  const FlatSystem &flat = *f.flat;
  // r1 = wavy(q1, {q2, q3, q1*q2})[1]: d r1/d q1 by the symbolic derivative and by differences.
  const Equation *eq = nullptr;
  for (const Equation &e : flat.equations)
    if (e.lhs->kind() == ExprKind::Var && flat.varName(e.lhs->var()) == "r1")
      eq = &e;
  ASSERT_NE(eq, nullptr);
  int q1 = -1, q2 = -1;
  for (size_t v = 0; v < flat.vars.size(); ++v) {
    if (flat.vars[v].name == "q1")
      q1 = static_cast<int>(v);
    if (flat.vars[v].name == "q2")
      q2 = static_cast<int>(v);
  }
  Differentiator diff(*flat.ctx);
  const Expr *d1 = diff.diff(eq->rhs, q1), *d2 = diff.diff(eq->rhs, q2);
  std::vector<double> values(flat.vars.size(), 0.0);
  values[q1] = 0.4;
  values[q2] = -0.7;
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (flat.vars[v].name == "q3")
      values[v] = 2;
  const double h = 1e-6;
  for (auto [var, d] : {std::pair{q1, d1}, std::pair{q2, d2}}) {
    std::vector<double> p = values, m = values;
    p[var] += h;
    m[var] -= h;
    double fd = (evaluate(eq->rhs, p) - evaluate(eq->rhs, m)) / (2 * h);
    EXPECT_NEAR(evaluate(d, values), fd, 1e-6 * (1 + std::fabs(fd))) << flat.varName(var);
  }
}

// Calls of short straight-line functions of arithmetic and smooth builtins are their value
// (inlineCall): a record constructor and an operator built on it (as Complex's '+' and '*') leave
// no call, and a loop through them is linear. Calls stay where inlining would change what the
// model means: a branch or relation (MLS 3.5, 8.5: no events in functions), a derivative
// annotation (12.7.1: the derivative index reduction must take), a call left in the body (it may
// have effects), a loop.
TEST(Function, ShortStraightLineFunctionsAreInlined) {
  Flat f(R"(
record C
  Real re;
  Real im;
end C;
function mul
  input C a;
  input C b;
  output C c;
algorithm
  c := C(a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re);
end mul;
function kink
  input Real x;
  output Real y;
algorithm
  y := if x > 0 then x else 0;
end kink;
function supplied
  input Real x;
  output Real y;
algorithm
  y := 2*x;
  annotation(derivative = suppliedDer);
end supplied;
function suppliedDer
  input Real x;
  input Real dx;
  output Real dy;
algorithm
  dy := 3*dx;
end suppliedDer;
function looped
  input Real x;
  output Real y = 0;
algorithm
  for i in 1:2 loop
    y := y + x;
  end for;
end looped;
function wrapper
  input Real x;
  output Real y;
algorithm
  y := looped(x) + 1;
end wrapper;
model M
  Real x, y, k, s, l, o;
  C z;
equation
  z = mul(C(x, y), C(1, 2));
  x = 1 + time;
  y = 2 - time;
  k = kink(time - 0.5);
  s = supplied(time);
  l = looped(time);
  o = wrapper(time);
end M;
)");
  ASSERT_TRUE(f.flat) << f.messages.str();
  const FlatSystem &flat = *f.flat;
  VarNamer namer = [&flat](int v) { return flat.varName(v); };
  std::map<std::string, std::string> rhs;
  for (const Equation &e : flat.equations)
    if (e.lhs->kind() == ExprKind::Var)
      rhs[flat.varName(e.lhs->var())] = toString(e.rhs, namer);
  // z = (x + i y)(1 + 2i): both parts are linear in x and y, without a call.
  EXPECT_EQ(rhs["z.re"], "x - 2*y");
  EXPECT_EQ(rhs["z.im"], "y + 2*x");
  for (const char *stays : {"k", "s", "l", "o"})
    EXPECT_NE(rhs[stays].find("("), std::string::npos) << stays << " = " << rhs[stays];
  EXPECT_EQ(rhs["k"].find("if"), std::string::npos) << rhs["k"];
}

TEST(Function, InterpreterReportsBoundsAssertionsAndRecursion) {
  Flat f(R"(
function pick
  input Real a[3];
  input Integer i;
  output Real y;
algorithm
  assert(i <> 2, "i must not be 2");
  y := a[i];
end pick;
function forever
  input Real x;
  output Real y;
algorithm
  y := forever(x + 1);
end forever;
model M
  Real y = pick({1, 2, 3}, 1) + forever(time);
end M;
)");
  ASSERT_TRUE(f.flat) << f.messages.str();
  const Function &pick = f.flat->ctx->function(f.function("pick"));
  std::string error;
  EXPECT_EQ(callFunction(pick, {10, 20, 30, 3}, error)[0], 30);
  EXPECT_TRUE(error.empty());
  EXPECT_TRUE(std::isnan(callFunction(pick, {10, 20, 30, 4}, error)[0]));
  EXPECT_EQ(error, "in function 'pick': index 4 out of bounds 1..3");
  callFunction(pick, {10, 20, 30, 2}, error);
  EXPECT_EQ(error, "assertion failed in function 'pick': i must not be 2");
  callFunction(f.flat->ctx->function(f.function("forever")), {1}, error);
  EXPECT_EQ(error, "in function 'forever': calls nested more than 200 deep");
}

TEST(Events, RelationsOfContinuousVariablesBecomeConditions) {
  Flat f(R"(
model E
  parameter Real p = 1;
  Real x(start = 0, fixed = true), y, z;
  Boolean b;
equation
  der(x) = if x > p then -1 else 1;
  y = if p > 0.5 then x else -x;
  z = noEvent(if x < 0.2 then 0 else x);
  b = time >= 2 and x > p;
end E;
)");
  ASSERT_TRUE(f.flat) << f.messages.str();
  FlatSystem &flat = *f.flat;
  extractConditions(flat);
  std::vector<std::string> conditions;
  for (const Variable &v : flat.vars)
    if (v.relation)
      conditions.push_back(v.name);
  // x > p is stored as p < x; the same relation is one condition wherever it occurs; parameter
  // relations fold, noEvent keeps its relation live.
  EXPECT_EQ(conditions, (std::vector<std::string>{"p < x", "2 <= time"}));
  VarNamer namer = [&flat](int v) { return flat.varName(v); };
  EXPECT_EQ(toString(flat.equations[0].rhs, namer), "if p < x then -1 else 1");
  EXPECT_EQ(toString(flat.equations[2].rhs, namer), "noEvent(if x < 0.2 then 0 else x)");
  ASSERT_EQ(flat.discreteEquations.size(), 1u);
  EXPECT_EQ(toString(flat.discreteEquations[0].value, namer), "2 <= time and p < x");
  // The indicator is positive where the condition holds.
  int c = -1;
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (flat.vars[v].name == "p < x")
      c = static_cast<int>(v);
  EXPECT_EQ(toString(eventIndicator(flat, c), namer), "x - p");
}

} // namespace
