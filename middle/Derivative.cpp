// Symbolic partial derivatives: one rule per node kind and per builtin, memoized on (node, var).
#include "middle/ChainRule.h"
#include "middle/ExprOps.h"

#include <cmath>

namespace eqc {

const Expr **Differentiator::slot(uint64_t key) {
  if (2 * (memoCount_ + 1) > memo_.size()) {
    std::vector<std::pair<uint64_t, const Expr *>> old(std::max<size_t>(1024, memo_.size() * 2));
    old.swap(memo_);
    memoCount_ = 0;
    for (auto &[k, v] : old)
      if (k) {
        *slot(k - 1) = v;
      }
  }
  const size_t mask = memo_.size() - 1;
  uint64_t h = key * 0x9e3779b97f4a7c15ULL;
  size_t i = static_cast<size_t>(h ^ (h >> 29)) & mask;
  for (; memo_[i].first; i = (i + 1) & mask)
    if (memo_[i].first == key + 1)
      return &memo_[i].second;
  memo_[i].first = key + 1;
  ++memoCount_;
  return &memo_[i].second;
}

const Expr *Differentiator::diff(const Expr *e, int var) {
  // Derivatives flow only from the leaves var (or time): a subtree without one is 0, unmemoized
  // (most (node, variable) pairs of a large model are such).
  if (!e->mayContain(var))
    return ctx_.zero();
  uint64_t key = (static_cast<uint64_t>(e->id()) << 32) | static_cast<uint32_t>(var);
  if (const Expr *known = *slot(key))
    return known;
  const Expr *d = rule(e, var);
  // rule() may have grown the table: look the slot up again.
  *slot(key) = d;
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
