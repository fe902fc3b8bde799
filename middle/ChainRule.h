// The differentiation rules of every node kind and builtin, shared by partial derivatives
// (middle/Derivative.cpp) and the forward-mode tangents of function bodies (middle/Function.cpp).
#pragma once

#include "middle/Expr.h"
#include "middle/Function.h"

#include <cmath>
#include <vector>

namespace eqc {

/// The derivative of `e` from the derivatives of its operands, dop(i) for operand i. Leaves
/// (variables, time, slots) are the caller's: they get 0 here. Piecewise-constant functions
/// (sign, floor, ceil, relations) have derivative 0; a user function call becomes a call of its
/// directional derivative.
/// `total`: a time derivative, which takes a user function's derivative annotation as given
/// (MLS 3.5, 12.7.1); else a partial derivative, which differentiates its body where it can
/// (partialDerivativeFunction).
template <typename DOp>
const Expr *chainRule(ExprContext &c, const Expr *e, DOp dop, bool total = false) {
  switch (e->kind()) {
  case ExprKind::Time:
  case ExprKind::Var:
  case ExprKind::Local:
  case ExprKind::LocalAt:
  case ExprKind::Pre:
  case ExprKind::Initial:
  case ExprKind::Const:
  case ExprKind::BoolConst:
  case ExprKind::Lt:
  case ExprKind::Le:
  case ExprKind::Eq:
  case ExprKind::Ne:
  case ExprKind::And:
  case ExprKind::Or:
  case ExprKind::Not:
    return c.zero();
  case ExprKind::Once: // a value held over an event's passes: constant between events
    return c.zero();
  case ExprKind::Delay:
    // The history does not move with the current point (exact where the delay reaches back past
    // the last accepted step); d/dt of a delay is not this (timeDerivative reports it).
    return c.zero();
  case ExprKind::NoEvent: {
    const Expr *d = dop(0);
    return d->isConst() ? d : c.noEvent(d);
  }
  case ExprKind::FnCall: {
    // d f(u) = f'(u; du): the directional derivative function, called with the operands' derivatives.
    std::vector<const Expr *> args(e->ops().begin(), e->ops().end());
    const int derivative = total ? derivativeFunction(c, e->function()) : partialDerivativeFunction(c, e->function());
    static const std::vector<char> none;
    const std::vector<char> &unused =
        derivative == c.function(e->function()).bodyDerivative ? none : c.function(e->function()).tangentUnused;
    bool zero = true;
    for (size_t i = 0; i < e->numOps(); ++i) {
      const Expr *d = e->op(i)->isBool() || (i < unused.size() && unused[i]) ? c.zero() : dop(i);
      zero = zero && d->isConst(0);
      args.push_back(d);
    }
    if (zero && unused.empty()) // (a user derivative may not vanish with the tangents it reads: noDerivative)
      return c.zero();
    return c.fnCall(derivative, e->fnOutput(), std::move(args));
  }
  case ExprKind::Add: {
    std::vector<const Expr *> terms;
    for (size_t i = 0; i < e->numOps(); ++i)
      terms.push_back(dop(i));
    return c.add(std::move(terms));
  }
  case ExprKind::Mul: {
    // Product rule: Σ_i f_i' Π_{j≠i} f_j, skipping factors with zero derivative.
    std::vector<const Expr *> terms;
    for (size_t i = 0; i < e->numOps(); ++i) {
      const Expr *d = dop(i);
      if (d->isConst(0))
        continue;
      std::vector<const Expr *> factors{d};
      for (size_t j = 0; j < e->numOps(); ++j)
        if (j != i)
          factors.push_back(e->op(j));
      terms.push_back(c.mul(std::move(factors)));
    }
    return c.add(std::move(terms));
  }
  case ExprKind::Pow: {
    const Expr *b = e->op(0), *x = e->op(1);
    const Expr *db = dop(0), *dx = dop(1);
    std::vector<const Expr *> terms;
    if (!db->isConst(0)) // x * b^(x-1) * b'
      terms.push_back(c.mul({x, c.pow(b, c.sub(x, c.one())), db}));
    if (!dx->isConst(0)) // b^x * log(b) * x'
      terms.push_back(c.mul({e, c.call(Builtin::Log, {b}), dx}));
    return c.add(std::move(terms));
  }
  case ExprKind::If:
    return c.ifThenElse(e->op(0), dop(1), dop(2));
  case ExprKind::Call:
    break;
  }

  const Expr *u = e->op(0);
  const Expr *du = dop(0);
  const Expr *v = e->numOps() > 1 ? e->op(1) : nullptr;
  const Expr *dv = v ? dop(1) : c.zero();
  if (du->isConst(0) && dv->isConst(0))
    return c.zero();
  const Expr *two = c.constant(2);
  auto sq = [&](const Expr *a) { return c.pow(a, two); };
  switch (e->builtin()) {
  case Builtin::Sin:
    return c.mul(c.call(Builtin::Cos, {u}), du);
  case Builtin::Cos:
    return c.neg(c.mul(c.call(Builtin::Sin, {u}), du));
  case Builtin::Tan: // (1 + tan²u) u'
    return c.mul(c.add(c.one(), sq(e)), du);
  case Builtin::Asin:
    return c.div(du, c.call(Builtin::Sqrt, {c.sub(c.one(), sq(u))}));
  case Builtin::Acos:
    return c.neg(c.div(du, c.call(Builtin::Sqrt, {c.sub(c.one(), sq(u))})));
  case Builtin::Atan:
    return c.div(du, c.add(c.one(), sq(u)));
  case Builtin::Atan2: // atan2(u, v)' = (v u' - u v') / (u² + v²)
    return c.div(c.sub(c.mul(v, du), c.mul(u, dv)), c.add(sq(u), sq(v)));
  case Builtin::Sinh:
    return c.mul(c.call(Builtin::Cosh, {u}), du);
  case Builtin::Cosh:
    return c.mul(c.call(Builtin::Sinh, {u}), du);
  case Builtin::Tanh: // (1 - tanh²u) u'
    return c.mul(c.sub(c.one(), sq(e)), du);
  case Builtin::Exp:
    return c.mul(e, du);
  case Builtin::Log:
    return c.div(du, u);
  case Builtin::Log10:
    return c.div(du, c.mul(c.constant(std::log(10.0)), u));
  case Builtin::Sqrt:
    return c.div(du, c.mul(two, e));
  case Builtin::Abs:
    return c.mul(c.call(Builtin::Sign, {u}), du);
  case Builtin::Sign:
  case Builtin::Floor:
  case Builtin::Ceil:
    return c.zero();
  case Builtin::Min:
    return c.ifThenElse(c.lt(u, v), du, dv);
  case Builtin::Max:
    return c.ifThenElse(c.lt(v, u), du, dv);
  case Builtin::Mod: // mod(u, v) = u - floor(u/v) v
    return c.sub(du, c.mul(c.call(Builtin::Floor, {c.div(u, v)}), dv));
  }
  return c.zero();
}

} // namespace eqc
