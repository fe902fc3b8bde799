// Tests of the canonicalizing factories (one test per rule in Expr.cpp) and of the printer.
#include "middle/Expr.h"
#include "middle/ExprOps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace eqc {
namespace {

class SimplifyTest : public ::testing::Test {
protected:
  const Expr *c(double v) { return ctx.constant(v); }
  std::string str(const Expr *e) {
    static const char *const names[] = {"x", "y", "z", "a", "b", "c"};
    return toString(e, [](int v) { return std::string(names[v]); });
  }

  ExprContext ctx;
  const Expr *x = ctx.var(0), *y = ctx.var(1), *z = ctx.var(2);
  const Expr *a = ctx.var(3), *b = ctx.var(4), *cc = ctx.var(5);
  const Expr *p = ctx.var(0, true); // a Boolean parameter (distinct node from x)
  const Expr *q = ctx.var(1, true);
};

// ---- interning ----

TEST_F(SimplifyTest, BuildingTheSameExpressionTwiceYieldsTheSamePointer) {
  auto build = [&] { return ctx.add(ctx.mul(c(2), ctx.call(Builtin::Sin, {x})), ctx.pow(y, c(3))); };
  const Expr *first = build();
  size_t nodes = ctx.size();
  const Expr *second = build();
  EXPECT_EQ(first, second);
  EXPECT_EQ(ctx.size(), nodes) << "rebuilding must not create nodes";
}

TEST_F(SimplifyTest, ConstantsAndVariablesAreInterned) {
  EXPECT_EQ(c(2.5), c(2.5));
  EXPECT_EQ(c(0.0), c(-0.0)) << "-0 and 0 are one constant";
  EXPECT_EQ(c(0), ctx.zero());
  EXPECT_EQ(c(1), ctx.one());
  EXPECT_EQ(ctx.var(0), x);
  EXPECT_NE(ctx.var(0), ctx.var(1));
  EXPECT_NE(ctx.var(0), ctx.var(0, true)) << "a Boolean variable is a different node";
  EXPECT_EQ(ctx.boolean(true), ctx.boolean(true));
  EXPECT_NE(ctx.boolean(true), ctx.boolean(false));
  EXPECT_EQ(ctx.time(), ctx.time());
}

TEST_F(SimplifyTest, NodeIdsFollowCreationOrder) {
  const Expr *s = ctx.add(x, y);
  EXPECT_LT(x->id(), y->id());
  EXPECT_LT(y->id(), s->id());
  EXPECT_LT(s->id(), ctx.size());
}

// ---- add ----

TEST_F(SimplifyTest, AddFlattensNestedSums) {
  const Expr *left = ctx.add(ctx.add(x, y), z);
  const Expr *right = ctx.add(x, ctx.add(y, z));
  EXPECT_EQ(left, right);
  ASSERT_EQ(left->kind(), ExprKind::Add);
  ASSERT_EQ(left->numOps(), 3u);
  for (const Expr *op : left->ops())
    EXPECT_NE(op->kind(), ExprKind::Add);
}

TEST_F(SimplifyTest, AddIsCommutative) {
  EXPECT_EQ(ctx.add(x, y), ctx.add(y, x));
  EXPECT_EQ(ctx.add({z, x, y}), ctx.add({y, z, x}));
}

TEST_F(SimplifyTest, AddFoldsConstants) {
  const Expr *e = ctx.add({c(2), x, c(3)});
  EXPECT_EQ(e, ctx.add(c(5), x));
  ASSERT_EQ(e->kind(), ExprKind::Add);
  ASSERT_EQ(e->numOps(), 2u);
  EXPECT_TRUE(e->op(0)->isConst(5)) << "the constant comes first";
  EXPECT_EQ(e->op(1), x);
  EXPECT_TRUE(ctx.add(c(2), c(3))->isConst(5));
}

TEST_F(SimplifyTest, AddDropsTheNeutralElement) {
  EXPECT_EQ(ctx.add(x, ctx.zero()), x);
  EXPECT_EQ(ctx.add({c(1), x, c(-1)}), x);
  EXPECT_EQ(ctx.add(std::vector<const Expr *>{}), ctx.zero());
  EXPECT_EQ(ctx.add(std::vector<const Expr *>{x}), x);
}

TEST_F(SimplifyTest, AddMergesLikeTerms) {
  EXPECT_EQ(ctx.add(ctx.mul(c(2), x), ctx.mul(c(3), x)), ctx.mul(c(5), x));
  EXPECT_EQ(ctx.add(x, x), ctx.mul(c(2), x));
  const Expr *xy = ctx.mul(x, y);
  EXPECT_EQ(ctx.add({ctx.mul(c(2), xy), y, ctx.mul(c(-0.5), xy)}), ctx.add(ctx.mul(c(1.5), xy), y));
}

TEST_F(SimplifyTest, AddCancelsOpposites) {
  const Expr *d = ctx.sub(x, x);
  EXPECT_EQ(d, ctx.zero());
  EXPECT_TRUE(d->isConst(0));
  const Expr *s = ctx.call(Builtin::Sin, {ctx.mul(x, y)});
  EXPECT_EQ(ctx.sub(ctx.add(s, z), s), z);
}

// ---- mul ----

TEST_F(SimplifyTest, MulFlattensNestedProducts) {
  const Expr *left = ctx.mul(ctx.mul(x, y), z);
  EXPECT_EQ(left, ctx.mul(x, ctx.mul(y, z)));
  ASSERT_EQ(left->kind(), ExprKind::Mul);
  ASSERT_EQ(left->numOps(), 3u);
  for (const Expr *op : left->ops())
    EXPECT_NE(op->kind(), ExprKind::Mul);
}

TEST_F(SimplifyTest, MulIsCommutative) {
  EXPECT_EQ(ctx.mul(x, y), ctx.mul(y, x));
  EXPECT_EQ(ctx.mul({c(2), z, x}), ctx.mul({x, z, c(2)}));
}

TEST_F(SimplifyTest, MulFoldsConstants) {
  const Expr *e = ctx.mul({c(2), x, c(3)});
  EXPECT_EQ(e, ctx.mul(c(6), x));
  ASSERT_EQ(e->kind(), ExprKind::Mul);
  EXPECT_TRUE(e->op(0)->isConst(6)) << "the constant comes first";
  EXPECT_TRUE(ctx.mul(c(2), c(-4))->isConst(-8));
}

TEST_F(SimplifyTest, MulDropsTheNeutralElement) {
  EXPECT_EQ(ctx.mul(x, ctx.one()), x);
  EXPECT_EQ(ctx.mul({c(2), x, c(0.5)}), x);
  EXPECT_EQ(ctx.mul(std::vector<const Expr *>{}), ctx.one());
}

TEST_F(SimplifyTest, MulByZeroIsZero) {
  EXPECT_EQ(ctx.mul(x, ctx.zero()), ctx.zero());
  EXPECT_EQ(ctx.mul({ctx.call(Builtin::Exp, {x}), y, c(0)}), ctx.zero());
}

TEST_F(SimplifyTest, MulMergesPowersOfOneBase) {
  EXPECT_EQ(ctx.mul(x, ctx.pow(x, c(2))), ctx.pow(x, c(3)));
  EXPECT_EQ(ctx.mul(x, x), ctx.pow(x, c(2)));
  EXPECT_EQ(ctx.mul(ctx.pow(x, y), ctx.pow(x, z)), ctx.pow(x, ctx.add(y, z)));
  EXPECT_EQ(ctx.mul(ctx.pow(x, c(0.5)), ctx.pow(x, c(0.5))), x);
}

TEST_F(SimplifyTest, MulCancelsQuotientOfEqualFactors) {
  EXPECT_EQ(ctx.div(x, x), ctx.one());
  EXPECT_EQ(ctx.div(ctx.mul(x, y), x), y);
  const Expr *s = ctx.add(x, ctx.call(Builtin::Cos, {y}));
  EXPECT_EQ(ctx.div(ctx.mul(z, s), s), z);
  EXPECT_EQ(ctx.mul({c(3), s, ctx.pow(s, c(-1))}), c(3));
}

TEST_F(SimplifyTest, MulDistributesAConstantOverASingleSum) {
  EXPECT_EQ(ctx.mul(c(2), ctx.add(x, y)), ctx.add(ctx.mul(c(2), x), ctx.mul(c(2), y)));
  EXPECT_EQ(ctx.sub(ctx.mul(c(2), ctx.add(x, y)), ctx.mul(c(2), x)), ctx.mul(c(2), y));
  EXPECT_EQ(ctx.sub(x, ctx.add(x, y)), ctx.neg(y));
  EXPECT_EQ(ctx.neg(ctx.add(c(1), x)), ctx.add(c(-1), ctx.neg(x)));
  // Not over a sum that is multiplied by something else as well.
  EXPECT_EQ(ctx.mul({c(2), z, ctx.add(x, y)})->kind(), ExprKind::Mul);
}

TEST_F(SimplifyTest, MulStaysFlatWhenMergedPowersGiveBackAProduct) {
  // (y*z)^2 / (y*z) merges to the base y*z, which must be flattened into the product.
  const Expr *yz = ctx.mul(y, z);
  EXPECT_EQ(ctx.mul({x, ctx.pow(yz, c(2)), ctx.pow(yz, c(-1))}), ctx.mul({x, y, z}));
  // 3 * (2x)^2 / (2x) is 6x.
  const Expr *twoX = ctx.mul(c(2), x);
  EXPECT_EQ(ctx.mul({c(3), ctx.pow(twoX, c(2)), ctx.pow(twoX, c(-1))}), ctx.mul(c(6), x));
}

// ---- pow ----

TEST_F(SimplifyTest, PowToTheZeroIsOne) {
  EXPECT_EQ(ctx.pow(x, c(0)), ctx.one());
  EXPECT_EQ(ctx.pow(ctx.add(x, y), c(0)), ctx.one());
}

TEST_F(SimplifyTest, PowToTheOneIsTheBase) { EXPECT_EQ(ctx.pow(ctx.add(x, y), c(1)), ctx.add(x, y)); }

TEST_F(SimplifyTest, OneToAnyPowerIsOne) { EXPECT_EQ(ctx.pow(c(1), x), ctx.one()); }

TEST_F(SimplifyTest, PowOfConstantsFolds) {
  EXPECT_TRUE(ctx.pow(c(2), c(3))->isConst(8));
  EXPECT_TRUE(ctx.pow(c(4), c(0.5))->isConst(2));
  EXPECT_TRUE(ctx.pow(c(2), c(-1))->isConst(0.5));
  EXPECT_TRUE(ctx.pow(c(-2), c(3))->isConst(-8));
}

TEST_F(SimplifyTest, PowOfConstantsFoldsOnlyWhenFinite) {
  const Expr *cubeRoot = ctx.pow(c(-8), c(1.0 / 3));
  EXPECT_EQ(cubeRoot->kind(), ExprKind::Pow) << "(-8)^(1/3) is NaN in real arithmetic";
  EXPECT_EQ(ctx.pow(c(0), c(-1))->kind(), ExprKind::Pow) << "0^-1 is infinite";
  EXPECT_EQ(ctx.pow(c(10), c(400))->kind(), ExprKind::Pow) << "overflows";
}

TEST_F(SimplifyTest, PowOfPowMergesForIntegerOuterExponents) {
  EXPECT_EQ(ctx.pow(ctx.pow(x, c(2)), c(3)), ctx.pow(x, c(6)));
  EXPECT_EQ(ctx.pow(ctx.pow(x, c(0.5)), c(4)), ctx.pow(x, c(2)));
  EXPECT_EQ(ctx.pow(ctx.pow(x, c(3)), c(-1)), ctx.pow(x, c(-3)));
}

TEST_F(SimplifyTest, PowOfPowDoesNotMergeForRealOuterExponents) {
  // (x^2)^0.5 is |x|, not x.
  const Expr *e = ctx.pow(ctx.pow(x, c(2)), c(0.5));
  EXPECT_NE(e, x);
  ASSERT_EQ(e->kind(), ExprKind::Pow);
  EXPECT_EQ(e->op(0), ctx.pow(x, c(2)));
  EXPECT_TRUE(e->op(1)->isConst(0.5));
  EXPECT_DOUBLE_EQ(evaluate(e, {-3}), 3.0);
  // Symbolic exponents do not merge either.
  EXPECT_EQ(ctx.pow(ctx.pow(x, y), c(2))->op(0), ctx.pow(x, y));
}

// ---- calls ----

TEST_F(SimplifyTest, CallsOfConstantsFoldWhenFinite) {
  EXPECT_TRUE(ctx.call(Builtin::Sin, {c(0)})->isConst(0));
  EXPECT_TRUE(ctx.call(Builtin::Sqrt, {c(9)})->isConst(3));
  EXPECT_TRUE(ctx.call(Builtin::Max, {c(2), c(7)})->isConst(7));
  EXPECT_TRUE(ctx.call(Builtin::Mod, {c(7), c(3)})->isConst(1));
  EXPECT_TRUE(ctx.call(Builtin::Mod, {c(-1), c(3)})->isConst(2)) << "mod rounds toward -inf";
  EXPECT_EQ(ctx.call(Builtin::Log, {c(-1)})->kind(), ExprKind::Call) << "log(-1) is NaN";
  EXPECT_EQ(ctx.call(Builtin::Log, {c(0)})->kind(), ExprKind::Call) << "log(0) is -inf";
  EXPECT_EQ(ctx.call(Builtin::Sin, {x})->kind(), ExprKind::Call);
}

TEST_F(SimplifyTest, BuiltinTableLooksUpBySourceName) {
  Builtin fn;
  ASSERT_TRUE(lookupBuiltin("atan2", fn));
  EXPECT_EQ(fn, Builtin::Atan2);
  EXPECT_EQ(builtinInfo(fn).arity, 2);
  ASSERT_TRUE(lookupBuiltin("abs", fn));
  EXPECT_STREQ(builtinInfo(fn).libm, "fabs");
  EXPECT_FALSE(lookupBuiltin("der", fn));
  EXPECT_FALSE(lookupBuiltin("Sin", fn));
}

// ---- if, relations, logic ----

TEST_F(SimplifyTest, IfWithAConstantConditionIsABranch) {
  EXPECT_EQ(ctx.ifThenElse(ctx.boolean(true), a, b), a);
  EXPECT_EQ(ctx.ifThenElse(ctx.boolean(false), a, b), b);
  EXPECT_EQ(ctx.ifThenElse(ctx.lt(c(1), c(2)), a, b), a);
}

TEST_F(SimplifyTest, IfWithEqualBranchesIsTheBranch) { EXPECT_EQ(ctx.ifThenElse(ctx.lt(x, y), a, a), a); }

TEST_F(SimplifyTest, IfIsBooleanWhenItsBranchesAre) {
  EXPECT_FALSE(ctx.ifThenElse(ctx.lt(x, y), a, b)->isBool());
  EXPECT_TRUE(ctx.ifThenElse(ctx.lt(x, y), p, q)->isBool());
}

TEST_F(SimplifyTest, RelationsOfConstantsFold) {
  EXPECT_EQ(ctx.lt(c(1), c(2)), ctx.boolean(true));
  EXPECT_EQ(ctx.le(c(2), c(2)), ctx.boolean(true));
  EXPECT_EQ(ctx.gt(c(1), c(2)), ctx.boolean(false));
  EXPECT_EQ(ctx.ge(c(1), c(2)), ctx.boolean(false));
  EXPECT_EQ(ctx.eq(c(3), c(3)), ctx.boolean(true));
  EXPECT_EQ(ctx.ne(c(3), c(3)), ctx.boolean(false));
}

TEST_F(SimplifyTest, GreaterIsLessWithSwappedOperands) {
  EXPECT_EQ(ctx.gt(x, y), ctx.lt(y, x));
  EXPECT_EQ(ctx.ge(x, y), ctx.le(y, x));
  EXPECT_NE(ctx.lt(x, y), ctx.lt(y, x));
}

TEST_F(SimplifyTest, EqualityIsSymmetric) {
  EXPECT_EQ(ctx.eq(x, y), ctx.eq(y, x));
  EXPECT_EQ(ctx.ne(x, y), ctx.ne(y, x));
  EXPECT_TRUE(ctx.eq(x, y)->isBool());
}

TEST_F(SimplifyTest, LogicalOperatorsFoldConstantsAndDuplicates) {
  const Expr *t = ctx.boolean(true), *f = ctx.boolean(false);
  EXPECT_EQ(ctx.logicalAnd(t, p), p);
  EXPECT_EQ(ctx.logicalAnd(p, t), p);
  EXPECT_EQ(ctx.logicalAnd(f, p), f);
  EXPECT_EQ(ctx.logicalAnd(p, f), f);
  EXPECT_EQ(ctx.logicalAnd(p, p), p);
  EXPECT_EQ(ctx.logicalOr(t, p), t);
  EXPECT_EQ(ctx.logicalOr(p, t), t);
  EXPECT_EQ(ctx.logicalOr(f, p), p);
  EXPECT_EQ(ctx.logicalOr(p, f), p);
  EXPECT_EQ(ctx.logicalOr(p, p), p);
  EXPECT_EQ(ctx.logicalNot(t), f);
  EXPECT_EQ(ctx.logicalNot(ctx.logicalNot(p)), p);
  EXPECT_EQ(ctx.logicalAnd(p, q)->kind(), ExprKind::And);
}

// ---- evaluate, collectVars, dependsOn, substitute ----

TEST_F(SimplifyTest, EvaluateUsesVariablesTimeAndBooleans) {
  const Expr *e = ctx.add(ctx.mul(x, ctx.time()),
                          ctx.ifThenElse(ctx.logicalAnd(ctx.lt(x, y), ctx.logicalNot(p)), c(10), c(20)));
  // x is variable 0 (value 2); p is also variable 0, seen as a Boolean: 2 != 0 is true.
  EXPECT_DOUBLE_EQ(evaluate(e, {2, 3}, 0.5), 2 * 0.5 + 20);
  EXPECT_DOUBLE_EQ(evaluate(e, {0, 3}, 0.5), 0 + 10);
  EXPECT_DOUBLE_EQ(evaluate(ctx.lt(x, y), {1, 2}), 1.0);
  EXPECT_DOUBLE_EQ(evaluate(ctx.le(y, x), {1, 2}), 0.0);
  EXPECT_DOUBLE_EQ(evaluate(ctx.logicalOr(ctx.eq(x, y), ctx.ne(x, y)), {1, 2}), 1.0);
}

TEST_F(SimplifyTest, EvaluateOfAnExponentiallyLargeTreeIsLinearInTheDag) {
  // e_{k+1} = sin(e_k) + cos(e_k): 2^60 tree nodes, 3*60 DAG nodes.
  const Expr *e = x;
  for (int k = 0; k < 60; ++k)
    e = ctx.add(ctx.call(Builtin::Sin, {e}), ctx.call(Builtin::Cos, {e}));
  double v = 0.3;
  for (int k = 0; k < 60; ++k)
    v = std::sin(v) + std::cos(v);
  EXPECT_DOUBLE_EQ(evaluate(e, {0.3}), v);
  EXPECT_EQ(collectVars(e), std::vector<int>{0});
}

TEST_F(SimplifyTest, CollectVarsListsDistinctVariablesSorted) {
  const Expr *e = ctx.add({ctx.mul(z, x), ctx.call(Builtin::Sin, {z}), ctx.time(), c(2)});
  EXPECT_EQ(collectVars(e), (std::vector<int>{0, 2}));
  EXPECT_TRUE(collectVars(c(3)).empty());
  EXPECT_EQ(collectVars(ctx.ifThenElse(ctx.lt(y, c(0)), a, b)), (std::vector<int>{1, 3, 4}));
}

TEST_F(SimplifyTest, CollectVarsWithSharedScratchBufferSkipsSeenNodes) {
  std::vector<int> out;
  std::vector<uint32_t> seen;
  collectVars(ctx.add(x, y), out, seen, 1);
  collectVars(ctx.add(y, z), out, seen, 1); // y already seen under this stamp
  EXPECT_EQ(out.size(), 3u);
  out.clear();
  collectVars(ctx.add(y, z), out, seen, 2); // a new stamp starts afresh
  std::sort(out.begin(), out.end());
  EXPECT_EQ(out, (std::vector<int>{1, 2}));
}

TEST_F(SimplifyTest, DependsOnLooksThroughEveryNodeKind) {
  const Expr *e = ctx.ifThenElse(ctx.lt(y, c(0)), ctx.call(Builtin::Atan2, {a, ctx.pow(b, c(2))}), c(1));
  EXPECT_TRUE(dependsOn(e, 1));
  EXPECT_TRUE(dependsOn(e, 3));
  EXPECT_TRUE(dependsOn(e, 4));
  EXPECT_FALSE(dependsOn(e, 0));
  EXPECT_FALSE(dependsOn(e, 5));
}

TEST_F(SimplifyTest, SubstituteRebuildsThroughTheFactories) {
  const Expr *e = ctx.add(ctx.mul(c(2), x), y);
  EXPECT_EQ(substitute(ctx, e, {{1, ctx.neg(ctx.mul(c(2), x))}}), ctx.zero());
  EXPECT_EQ(substitute(ctx, e, {{0, c(3)}}), ctx.add(c(6), y));
  EXPECT_EQ(substitute(ctx, e, {{2, c(3)}}), e) << "unchanged expressions are returned as is";
  const Expr *cond = ctx.ifThenElse(ctx.lt(x, c(1)), y, z);
  EXPECT_EQ(substitute(ctx, cond, {{0, c(0)}}), y);
  EXPECT_EQ(substitute(ctx, ctx.call(Builtin::Sqrt, {x}), {{0, c(16)}}), c(4));
}

// ---- printer ----

TEST_F(SimplifyTest, FormatNumberIsShortestRoundTrip) {
  EXPECT_EQ(formatNumber(1), "1");
  EXPECT_EQ(formatNumber(100), "100");
  EXPECT_EQ(formatNumber(0.1), "0.1");
  EXPECT_EQ(formatNumber(-2.5), "-2.5");
  EXPECT_EQ(formatNumber(2.5e-8), "2.5e-08");
  EXPECT_EQ(formatNumber(1e21), "1e+21");
  EXPECT_EQ(formatNumber(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(formatNumber(NAN), "NaN");
  EXPECT_EQ(formatNumber(INFINITY), "inf");
  EXPECT_EQ(formatNumber(-INFINITY), "-inf");
}

TEST_F(SimplifyTest, PrintsAtoms) {
  EXPECT_EQ(str(x), "x");
  EXPECT_EQ(str(c(-3)), "-3");
  EXPECT_EQ(str(ctx.time()), "time");
  EXPECT_EQ(str(ctx.boolean(true)), "true");
  EXPECT_EQ(str(ctx.boolean(false)), "false");
}

TEST_F(SimplifyTest, PrintsSumsWithTheConstantLastAndSubtraction) {
  EXPECT_EQ(str(ctx.sub(x, c(1))), "x - 1");
  EXPECT_EQ(str(ctx.add(x, c(1))), "x + 1");
  EXPECT_EQ(str(ctx.sub(x, y)), "x - y");
  EXPECT_EQ(str(ctx.sub(y, x)), "y - x");
  const Expr *minusA = ctx.neg(a), *minusB = ctx.neg(b); // terms print in creation order
  EXPECT_EQ(str(ctx.add(minusB, minusA)), "-a - b");
  EXPECT_EQ(str(ctx.sub(y, ctx.mul(c(2), x))), "y - 2*x");
  EXPECT_EQ(str(ctx.sub(x, ctx.div(y, z))), "x - y/z");
  EXPECT_EQ(str(ctx.sub(x, ctx.pow(y, c(2)))), "x - y^2");
  EXPECT_EQ(str(ctx.add({x, y, c(-0.5)})), "x + y - 0.5");
  EXPECT_EQ(str(ctx.add(ctx.time(), c(1))), "time + 1");
}

TEST_F(SimplifyTest, PrintsProductsAndNegation) {
  EXPECT_EQ(str(ctx.mul(a, b)), "a*b");
  EXPECT_EQ(str(ctx.neg(ctx.mul(a, b))), "-a*b");
  EXPECT_EQ(str(ctx.neg(x)), "-x");
  EXPECT_EQ(str(ctx.mul(c(2), x)), "2*x");
  EXPECT_EQ(str(ctx.mul(c(-2), x)), "-2*x");
  EXPECT_EQ(str(ctx.mul(c(0.5), x)), "0.5*x");
  EXPECT_EQ(str(ctx.mul(x, ctx.add(y, c(1)))), "x*(y + 1)");
  EXPECT_EQ(str(ctx.mul({c(2), x, ctx.add(y, c(1))})), "2*x*(y + 1)");
  EXPECT_EQ(str(ctx.mul(x, ctx.call(Builtin::Sin, {y}))), "x*sin(y)");
}

TEST_F(SimplifyTest, PrintsDivision) {
  EXPECT_EQ(str(ctx.div(a, b)), "a/b");
  EXPECT_EQ(str(ctx.div(a, ctx.mul(b, cc))), "a/(b*c)");
  EXPECT_EQ(str(ctx.div(c(2), x)), "2/x");
  EXPECT_EQ(str(ctx.div(c(1), ctx.mul(x, y))), "1/(x*y)") << "a lone power of a product";
  EXPECT_EQ(str(ctx.mul(ctx.pow(x, c(-1)), ctx.pow(y, c(-1)))), "1/(x*y)");
  EXPECT_EQ(str(ctx.div(ctx.neg(c(1)), x)), "-1/x");
  EXPECT_EQ(str(ctx.div(x, ctx.add(y, c(1)))), "x/(y + 1)");
  EXPECT_EQ(str(ctx.div(x, ctx.pow(ctx.add(y, c(1)), c(2)))), "x/(y + 1)^2");
  EXPECT_EQ(str(ctx.div(y, ctx.pow(x, c(0.5)))), "y/x^0.5");
  EXPECT_EQ(str(ctx.div(ctx.mul(a, b), cc)), "a*b/c");
}

TEST_F(SimplifyTest, PrintsDivisionByANegatedProductWithParentheses) {
  // y / (-2*x): the denominator is (-2*x)^-1, which must not print as y/-2*x ((y/-2)*x).
  EXPECT_EQ(str(ctx.div(y, ctx.mul(c(-2), x))), "y/(-2*x)");
  EXPECT_EQ(str(ctx.div(y, ctx.neg(x))), "y/(-x)");
}

TEST_F(SimplifyTest, PrintsPowers) {
  EXPECT_EQ(str(ctx.pow(x, c(2))), "x^2");
  EXPECT_EQ(str(ctx.pow(x, c(-2))), "1/x^2");
  EXPECT_EQ(str(ctx.pow(x, c(-1))), "1/x");
  EXPECT_EQ(str(ctx.pow(ctx.add(x, c(1)), c(2))), "(x + 1)^2");
  EXPECT_EQ(str(ctx.pow(x, ctx.add(y, c(1)))), "x^(y + 1)");
  EXPECT_EQ(str(ctx.pow(ctx.pow(x, c(2)), c(0.5))), "(x^2)^0.5");
  EXPECT_EQ(str(ctx.pow(x, ctx.pow(y, z))), "x^(y^z)");
  EXPECT_EQ(str(ctx.pow(ctx.neg(x), c(2))), "(-x)^2");
  EXPECT_EQ(str(ctx.pow(c(-2), x)), "(-2)^x");
  EXPECT_EQ(str(ctx.pow(ctx.mul(x, y), c(2))), "(x*y)^2");
  EXPECT_EQ(str(ctx.pow(ctx.call(Builtin::Sin, {x}), c(2))), "sin(x)^2");
  EXPECT_EQ(str(ctx.neg(ctx.pow(x, c(2)))), "-x^2");
}

TEST_F(SimplifyTest, PrintsCalls) {
  EXPECT_EQ(str(ctx.call(Builtin::Sin, {ctx.add(x, c(1))})), "sin(x + 1)");
  EXPECT_EQ(str(ctx.call(Builtin::Atan2, {y, x})), "atan2(y, x)");
  EXPECT_EQ(str(ctx.call(Builtin::Abs, {ctx.neg(x)})), "abs(-x)");
  EXPECT_EQ(str(ctx.call(Builtin::Sqrt, {ctx.ifThenElse(ctx.lt(x, y), x, y)})),
            "sqrt(if x < y then x else y)");
}

TEST_F(SimplifyTest, PrintsRelationsAndLogic) {
  EXPECT_EQ(str(ctx.lt(x, y)), "x < y");
  EXPECT_EQ(str(ctx.gt(x, y)), "y < x");
  EXPECT_EQ(str(ctx.le(x, c(1))), "x <= 1");
  EXPECT_EQ(str(ctx.eq(x, y)), "x == y");
  EXPECT_EQ(str(ctx.ne(x, y)), "x <> y");
  EXPECT_EQ(str(ctx.lt(ctx.add(x, c(1)), ctx.mul(c(2), y))), "x + 1 < 2*y");
  EXPECT_EQ(str(ctx.lt(x, c(-1))), "x < -1");
  const Expr *r1 = ctx.lt(x, c(1)), *r2 = ctx.lt(y, c(2)), *r3 = ctx.lt(z, c(3));
  EXPECT_EQ(str(ctx.logicalAnd(r1, r2)), "x < 1 and y < 2");
  EXPECT_EQ(str(ctx.logicalOr(ctx.logicalAnd(r1, r2), r3)), "x < 1 and y < 2 or z < 3");
  EXPECT_EQ(str(ctx.logicalAnd(ctx.logicalOr(r1, r2), r3)), "(x < 1 or y < 2) and z < 3");
  EXPECT_EQ(str(ctx.logicalAnd(r3, ctx.logicalAnd(r1, r2))), "z < 3 and (x < 1 and y < 2)");
  EXPECT_EQ(str(ctx.logicalNot(r1)), "not x < 1");
  EXPECT_EQ(str(ctx.logicalNot(ctx.logicalAnd(r1, r2))), "not (x < 1 and y < 2)");
  EXPECT_EQ(str(ctx.logicalAnd(ctx.logicalNot(r1), r2)), "not x < 1 and y < 2");
  EXPECT_EQ(str(ctx.lt(ctx.ifThenElse(r1, x, y), z)), "(if x < 1 then x else y) < z");
}

TEST_F(SimplifyTest, PrintsIfExpressions) {
  const Expr *r1 = ctx.lt(x, c(1));
  EXPECT_EQ(str(ctx.ifThenElse(r1, y, z)), "if x < 1 then y else z");
  EXPECT_EQ(str(ctx.ifThenElse(r1, y, ctx.ifThenElse(ctx.lt(x, c(2)), z, c(0)))),
            "if x < 1 then y else if x < 2 then z else 0");
  EXPECT_EQ(str(ctx.add(ctx.ifThenElse(r1, y, z), c(1))), "(if x < 1 then y else z) + 1");
  EXPECT_EQ(str(ctx.mul(c(2), ctx.ifThenElse(r1, y, z))), "2*(if x < 1 then y else z)");
  EXPECT_EQ(str(ctx.pow(ctx.ifThenElse(r1, y, z), c(2))), "(if x < 1 then y else z)^2");
}

// ---- walks ----

// forEachNode visits each node of a DAG once (a shared operand too), stops where told, and a
// visitor may walk another expression (or the same one) without disturbing the outer walk.
TEST_F(SimplifyTest, WalksVisitEachNodeOnceAndNest) {
  const Expr *shared = ctx.mul(x, y);
  const Expr *e = ctx.add(ctx.pow(shared, c(2)), ctx.call(Builtin::Sin, {shared}));
  auto count = [](const Expr *root) {
    size_t nodes = 0;
    forEachNode(root, [&](const Expr *) {
      ++nodes;
      return Walk::Descend;
    });
    return nodes;
  };
  const size_t alone = count(e); // +, ^, sin, *, x, y, 2
  EXPECT_EQ(alone, 7u);
  size_t outer = 0, inner = 0;
  forEachNode(e, [&](const Expr *n) {
    ++outer;
    inner += count(e) + count(n);
    return Walk::Descend;
  });
  EXPECT_EQ(outer, alone);
  EXPECT_GT(inner, alone * alone);
  size_t beforeStop = 0;
  forEachNode(e, [&](const Expr *n) {
    ++beforeStop;
    return n == shared ? Walk::Stop : Walk::Descend;
  });
  EXPECT_LT(beforeStop, alone);
  EXPECT_EQ(count(e), alone); // a stopped walk leaves nothing behind
}

} // namespace
} // namespace eqc
