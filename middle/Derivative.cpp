// Symbolic partial derivatives: one rule per node kind and per builtin, memoized on (node, var).
#include "middle/ExprOps.h"

#include <cmath>

namespace eqc {

const Expr *Differentiator::diff(const Expr *e, int var) {
  uint64_t key = (static_cast<uint64_t>(e->id()) << 32) | static_cast<uint32_t>(var);
  auto it = memo_.find(key);
  if (it != memo_.end())
    return it->second;
  const Expr *d = rule(e, var);
  memo_.emplace(key, d);
  return d;
}

const Expr *Differentiator::rule(const Expr *e, int var) {
  ExprContext &c = ctx_;
  switch (e->kind()) {
  case ExprKind::Time:
    return var == kTime ? c.one() : c.zero();
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
  case ExprKind::Var:
    return e->var() == var ? c.one() : c.zero();
  case ExprKind::Add: {
    std::vector<const Expr *> terms;
    for (const Expr *t : e->ops())
      terms.push_back(diff(t, var));
    return c.add(std::move(terms));
  }
  case ExprKind::Mul: {
    // Product rule: Σ_i f_i' Π_{j≠i} f_j, skipping factors with zero derivative.
    std::vector<const Expr *> terms;
    for (size_t i = 0; i < e->numOps(); ++i) {
      const Expr *d = diff(e->op(i), var);
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
    const Expr *db = diff(b, var), *dx = diff(x, var);
    std::vector<const Expr *> terms;
    if (!db->isConst(0)) // x * b^(x-1) * b'
      terms.push_back(c.mul({x, c.pow(b, c.sub(x, c.one())), db}));
    if (!dx->isConst(0)) // b^x * log(b) * x'
      terms.push_back(c.mul({e, c.call(Builtin::Log, {b}), dx}));
    return c.add(std::move(terms));
  }
  case ExprKind::If:
    return c.ifThenElse(e->op(0), diff(e->op(1), var), diff(e->op(2), var));
  case ExprKind::Call:
    break;
  }

  const Expr *u = e->op(0);
  const Expr *du = diff(u, var);
  const Expr *v = e->numOps() > 1 ? e->op(1) : nullptr;
  const Expr *dv = v ? diff(v, var) : c.zero();
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
