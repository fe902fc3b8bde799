// Symbolic partial derivatives: one rule per node kind and per builtin, memoized on (node, var).
#include "middle/ChainRule.h"
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
  switch (e->kind()) {
  case ExprKind::Time:
    return var == kTime ? ctx_.one() : ctx_.zero();
  case ExprKind::Var:
    return e->var() == var ? ctx_.one() : ctx_.zero();
  default:
    return chainRule(ctx_, e, [&](size_t i) { return diff(e->op(i), var); });
  }
}

} // namespace eqc
