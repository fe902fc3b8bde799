// Tests of the simple equations substituted before structural analysis (middle/SimpleEquations.h):
// constants and aliases on hand-built flat systems, and derivatives no equation reads any more.
#include "middle/SimpleEquations.h"

#include "middle/ExprOps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <unordered_map>

namespace eqc {
namespace {

struct Builder {
  FlatSystem flat;
  Builder() { flat.ctx = std::make_shared<ExprContext>(); }
  ExprContext &ctx() { return *flat.ctx; }
  const Expr *unknown(const std::string &name, const Expr *start = nullptr) {
    Variable v;
    v.name = name;
    v.role = VarRole::Unknown;
    v.binding = start;
    v.hasStart = start != nullptr;
    flat.vars.push_back(v);
    return ctx().var(static_cast<int>(flat.vars.size()) - 1);
  }
  const Expr *derivative(const Expr *state) {
    Variable d;
    d.name = "der(" + flat.vars[state->var()].name + ")";
    d.role = VarRole::Derivative;
    d.derivativeOf = state->var();
    flat.vars[state->var()].derivative = static_cast<int>(flat.vars.size());
    flat.vars.push_back(d);
    return ctx().var(static_cast<int>(flat.vars.size()) - 1);
  }
  void equation(const Expr *lhs, const Expr *rhs) {
    flat.equations.push_back({lhs, rhs, {}, static_cast<int>(flat.equations.size()) + 1});
  }
  bool reads(size_t equation, const Expr *var) {
    std::vector<int> vars = collectVars(flat.residual(flat.equations[equation]));
    return std::find(vars.begin(), vars.end(), var->var()) != vars.end();
  }
};

// A ground's g = 0 reaches a through the connection a = g; b = -x is an alias; the equation of y
// then reads a*der(v) + b + x = 0*der(v) - x + x: y is the constant 0 and reads neither der(v) nor
// x. Each defining equation stays as it was when it defined its unknown (it still computes it).
TEST(SimpleEquations, ConstantsPassAlongAliasesAndCancelTerms) {
  Builder b;
  const Expr *g = b.unknown("g"), *a = b.unknown("a"), *bb = b.unknown("b"), *x = b.unknown("x");
  const Expr *y = b.unknown("y"), *v = b.unknown("v");
  const Expr *dv = b.derivative(v);
  ExprContext &c = b.ctx();
  b.equation(g, c.zero());
  b.equation(a, g);
  b.equation(bb, c.neg(x));
  b.equation(y, c.add({c.mul(a, dv), bb, x}));
  b.equation(dv, c.neg(v));
  b.equation(x, c.call(Builtin::Sin, {c.time()}));
  const SimpleEquations done = substituteSimpleEquations(b.flat);
  EXPECT_EQ(done.constants, 3u); // g, a, y
  EXPECT_EQ(done.aliases, 1u);   // b = -x
  EXPECT_FALSE(b.reads(3, dv));
  EXPECT_FALSE(b.reads(3, x));
  EXPECT_TRUE(b.reads(3, y));
  EXPECT_TRUE(b.reads(0, g));  // g's own equation
  EXPECT_FALSE(b.reads(1, g)); // a = g became a = 0, a's own
  EXPECT_TRUE(b.reads(1, a));
  EXPECT_TRUE(b.reads(2, x));                     // b's own equation
  EXPECT_EQ(unlinkUnreadDerivatives(b.flat), 0u); // der(v) = -v still reads it
}

// i = c*der(u) with c fixed to 0: der(u) is read by no equation any more, so u is no state and
// der(u) becomes a generated parameter that nothing reads; a state with a fixed start is kept.
TEST(SimpleEquations, DerivativeNoEquationReadsMakesNoState) {
  Builder b;
  const Expr *cap = b.unknown("c"), *i = b.unknown("i"), *u = b.unknown("u"), *w = b.unknown("w");
  const Expr *du = b.derivative(u), *dw = b.derivative(w);
  b.flat.vars[w->var()].fixed = true;
  ExprContext &c = b.ctx();
  b.equation(cap, c.zero());
  b.equation(i, c.add(c.mul(cap, du), c.mul(cap, dw)));
  b.equation(u, c.call(Builtin::Sin, {c.time()}));
  b.equation(w, c.call(Builtin::Cos, {c.time()}));
  substituteSimpleEquations(b.flat);
  EXPECT_EQ(unlinkUnreadDerivatives(b.flat), 1u);
  EXPECT_EQ(b.flat.vars[u->var()].derivative, -1);
  EXPECT_EQ(b.flat.vars[du->var()].role, VarRole::Parameter);
  EXPECT_TRUE(b.flat.vars[du->var()].generated);
  EXPECT_EQ(b.flat.vars[w->var()].derivative, dw->var());
}

// Of an alias's two unknowns the one with a start value (a loop's guess) is kept; x = 2*y and
// x = y + 1 are no aliases.
TEST(SimpleEquations, AliasKeepsTheUnknownWithAStartValue) {
  Builder b;
  ExprContext &c = b.ctx();
  const Expr *x = b.unknown("x", c.one()), *y = b.unknown("y"), *p = b.unknown("p"), *q = b.unknown("q");
  const Expr *r = b.unknown("r");
  b.equation(y, x);
  b.equation(c.mul(c.pow(x, c.constant(3)), y), c.one());
  b.equation(p, c.mul(c.constant(2), q));
  b.equation(p, c.add(r, c.one()));
  b.equation(c.add(q, r), c.call(Builtin::Sin, {c.time()}));
  const SimpleEquations done = substituteSimpleEquations(b.flat);
  EXPECT_EQ(done.aliases, 1u);
  EXPECT_EQ(done.constants, 0u);
  EXPECT_TRUE(b.reads(1, x));
  EXPECT_FALSE(b.reads(1, y));
}

// A loop closure written through an unknown: r = a*sin(b) - 1 and 0 = r (MultiBody's planar loop
// joint: r_rel_a = resolve2(R, ...) and 0 = ey_a*r_rel_a). r is the constant 0, but its explicit
// definition keeps it (the constant would turn it into a constraint of a and b); an equation
// that only reads r takes the constant.
TEST(SimpleEquations, ExplicitDefinitionKeepsItsUnknown) {
  Builder b;
  ExprContext &c = b.ctx();
  const Expr *r = b.unknown("r"), *a = b.unknown("a"), *bb = b.unknown("b"), *y = b.unknown("y");
  b.equation(r, c.sub(c.mul(a, c.call(Builtin::Sin, {bb})), c.one()));
  b.equation(c.zero(), r);
  b.equation(y, c.add(r, a));
  b.equation(a, c.call(Builtin::Cos, {c.time()}));
  const SimpleEquations done = substituteSimpleEquations(b.flat);
  EXPECT_EQ(done.constants, 1u);
  EXPECT_TRUE(b.reads(0, r));
  EXPECT_FALSE(b.reads(2, r));
}

// A connection set of n members is a chain of n - 1 aliases into the equations that read its
// members: each substitution rewrites those equations once, and only the unknowns an equation
// did not read before make it their reader (the pass stays linear in the chain; repeated readers
// made it grow without bound on MSL's ActuatorWithNoise).
TEST(SimpleEquations, LongAliasChainIntoOneEquation) {
  Builder b;
  ExprContext &c = b.ctx();
  const size_t n = 1000;
  std::vector<const Expr *> v;
  for (size_t k = 0; k < n; ++k)
    v.push_back(b.unknown("v" + std::to_string(k)));
  for (size_t k = 0; k + 1 < n; ++k)
    b.equation(v[k], k % 3 ? v[k + 1] : c.neg(v[k + 1]));
  std::vector<const Expr *> terms; // v[k] = s_k v[n-1] with s_k = ±1: the sum is (Σ (k + 1) s_k) v[n-1]
  for (size_t k = 0; k < n; ++k)
    terms.push_back(c.mul(c.constant(static_cast<double>(k + 1)), v[k]));
  b.equation(c.add(terms), c.call(Builtin::Sin, {c.time()}));
  const SimpleEquations done = substituteSimpleEquations(b.flat);
  EXPECT_EQ(done.aliases, n - 1);
  EXPECT_EQ(collectVars(b.flat.residual(b.flat.equations.back())), std::vector<int>{v.back()->var()});
}

// A flux tube's cross-section A = a*b and its permeance G = mu*A/l read parameters only: both
// become parameters computed by their equations solved for them (A = a*b, G = mu*A/l), and the
// reluctance R with R*G = 1 follows (read as 1/R, solved R = 1/G). B = Phi/A reads the state
// Phi; y = a*time reads time; z with z = a appearing in an initial equation, q in sin(q) = a
// (not solvable) and u = a*v (another unknown) stay unknowns.
TEST(SimpleEquations, UnknownsThatParametersAloneFixBecomeComputedParameters) {
  Builder b;
  ExprContext &c = b.ctx();
  auto parameter = [&](const std::string &name, double value) {
    Variable v;
    v.name = name;
    v.role = VarRole::Parameter;
    v.binding = c.constant(value);
    v.hasStart = true;
    b.flat.vars.push_back(v);
    return c.var(static_cast<int>(b.flat.vars.size()) - 1);
  };
  const Expr *pa = parameter("a", 0.01), *pb = parameter("b", 0.02), *mu = parameter("mu", 2),
             *l = parameter("l", 0.1);
  const Expr *A = b.unknown("A"), *G = b.unknown("G"), *R = b.unknown("R"), *B = b.unknown("B");
  const Expr *phi = b.unknown("Phi"), *y = b.unknown("y"), *z = b.unknown("z"), *q = b.unknown("q");
  const Expr *u = b.unknown("u"), *v = b.unknown("v");
  const Expr *dphi = b.derivative(phi);
  b.equation(A, c.mul(pa, pb));
  b.equation(G, c.div(c.mul(mu, A), l));
  b.equation(c.mul(R, G), c.one());
  b.equation(B, c.div(phi, A));
  b.equation(dphi, c.neg(B));
  b.equation(y, c.mul(pa, c.time()));
  b.equation(z, pa);
  b.equation(c.call(Builtin::Sin, {q}), pa);
  b.equation(u, c.mul(pa, v));
  b.equation(v, c.add(y, B));
  b.flat.initialEquations.push_back({z, c.zero(), {}, 1});
  EXPECT_EQ(promoteParameterUnknowns(b.flat), 3u);
  for (const Expr *promoted : {A, G, R}) {
    const Variable &var = b.flat.vars[promoted->var()];
    EXPECT_EQ(var.role, VarRole::Parameter) << var.name;
    EXPECT_TRUE(var.computed) << var.name;
  }
  for (const Expr *kept : {B, phi, y, z, q, u, v})
    EXPECT_EQ(b.flat.vars[kept->var()].role, VarRole::Unknown) << b.flat.vars[kept->var()].name;
  ASSERT_EQ(b.flat.equations.size(), 7u); // the three defining equations are gone
  // The bindings are the equations solved: A = a*b, G = mu*A/l, R = 1/G.
  std::unordered_map<int, const Expr *> values{{pa->var(), c.constant(0.01)},
                                               {pb->var(), c.constant(0.02)},
                                               {mu->var(), c.constant(2)},
                                               {l->var(), c.constant(0.1)}};
  const Expr *a = substitute(c, b.flat.vars[A->var()].binding, values);
  ASSERT_TRUE(a->isConst());
  EXPECT_DOUBLE_EQ(a->value(), 2e-4);
  values.emplace(A->var(), a);
  const Expr *g = substitute(c, b.flat.vars[G->var()].binding, values);
  ASSERT_TRUE(g->isConst());
  EXPECT_DOUBLE_EQ(g->value(), 2 * 2e-4 / 0.1);
  values.emplace(G->var(), g);
  const Expr *r = substitute(c, b.flat.vars[R->var()].binding, values);
  ASSERT_TRUE(r->isConst());
  EXPECT_DOUBLE_EQ(r->value(), 0.1 / (2 * 2e-4));
}

// MultiBody's planar loop joint: r = y - z defines r from unknowns, and the loop's constraint
// fixes r = 0 (parameters alone). Made known, r would turn its definition into a constraint
// between y and z (what index reduction differentiates, where initialization starts): r stays.
TEST(SimpleEquations, ExplicitDefinitionKeepsItsUnknownFromPromotion) {
  Builder b;
  ExprContext &c = b.ctx();
  const Expr *r = b.unknown("r"), *y = b.unknown("y"), *z = b.unknown("z");
  const Expr *dy = b.derivative(y);
  b.equation(r, c.sub(y, z));
  b.equation(r, c.zero());
  b.equation(dy, c.neg(z));
  EXPECT_EQ(promoteParameterUnknowns(b.flat), 0u);
  EXPECT_EQ(b.flat.vars[r->var()].role, VarRole::Unknown);
  EXPECT_EQ(b.flat.equations.size(), 3u);
}

} // namespace
} // namespace eqc
