// Total time derivative by the chain rule.
#include "middle/TimeDerivative.h"

#include "middle/ChainRule.h"
#include "middle/Function.h"

#include <algorithm>
#include <unordered_map>

namespace eqc {

namespace {

/// Whether `e` calls a function whose time derivative differs from the sum of its partial
/// derivatives' (a derivative annotation at some depth: partialDerivativeFunction is not
/// derivativeFunction).
bool callsUserDerivative(ExprContext &ctx, const Expr *e) {
  bool found = false;
  forEachNode(e, [&](const Expr *n) {
    found = n->kind() == ExprKind::FnCall &&
            partialDerivativeFunction(ctx, n->function()) != derivativeFunction(ctx, n->function());
    return found ? Walk::Stop : Walk::Descend;
  });
  return found;
}

/// d e / dt forward, node by node (the chain rule with the operands' time derivatives): a call
/// with a derivative annotation becomes its derivative function of the arguments' derivatives
/// (MLS 3.5, 12.7.1), which a sum of partial derivatives cannot express where the annotation's
/// noDerivative inputs carry a derivative themselves (MSL's state1: der(state1({p, dp})) = dp).
class ForwardTimeDerivative {
public:
  explicit ForwardTimeDerivative(FlatSystem &flat) : flat_(flat), ctx_(*flat.ctx) {}

  const Expr *of(const Expr *e) {
    if (auto it = memo_.find(e); it != memo_.end())
      return it->second;
    const Expr *d = nullptr;
    switch (e->kind()) {
    case ExprKind::Time:
      d = ctx_.one();
      break;
    case ExprKind::Var: {
      const int v = e->var();
      if (flat_.vars[v].isKnown()) {
        if (flat_.vars[v].isTimeVaryingKnown() &&
            std::find(flat_.differentiatedInputs.begin(), flat_.differentiatedInputs.end(), v) ==
                flat_.differentiatedInputs.end())
          flat_.differentiatedInputs.push_back(v);
        d = ctx_.zero();
      } else {
        d = ctx_.var(flat_.derivativeVar(v));
      }
      break;
    }
    default:
      // An argument a call's output does not read has no derivative here (none is made for it).
      d = chainRule(ctx_, e, [&](size_t i) {
        if (e->kind() == ExprKind::FnCall && !e->callee().reads(e->fnOutput(), static_cast<int>(i)))
          return ctx_.zero();
        return of(e->op(i));
      }, /*total=*/true);
      break;
    }
    memo_.emplace(e, d);
    return d;
  }

private:
  FlatSystem &flat_;
  ExprContext &ctx_;
  std::unordered_map<const Expr *, const Expr *> memo_;
};

} // namespace

const Expr *timeDerivative(FlatSystem &flat, Differentiator &diff, const Expr *e) {
  ExprContext &ctx = *flat.ctx;
  if (callsUserDerivative(ctx, e)) {
    for (int k : ctx.numDelays() ? collectDelays(e) : std::vector<int>{})
      if (std::find(flat.differentiatedDelays.begin(), flat.differentiatedDelays.end(), k) ==
          flat.differentiatedDelays.end())
        flat.differentiatedDelays.push_back(k);
    return ForwardTimeDerivative(flat).of(e);
  }
  std::vector<const Expr *> terms{diff.diff(e, Differentiator::kTime)};
  for (int k : ctx.numDelays() ? collectDelays(e) : std::vector<int>{})
    if (std::find(flat.differentiatedDelays.begin(), flat.differentiatedDelays.end(), k) == flat.differentiatedDelays.end())
      flat.differentiatedDelays.push_back(k);
  for (int v : collectVars(e)) {
    if (flat.vars[v].isTimeVaryingKnown() && !diff.diff(e, v)->isConst(0) &&
        std::find(flat.differentiatedInputs.begin(), flat.differentiatedInputs.end(), v) == flat.differentiatedInputs.end())
      flat.differentiatedInputs.push_back(v);
    if (flat.vars[v].isKnown())
      continue;
    const Expr *partial = diff.diff(e, v);
    if (!partial->isConst(0))
      terms.push_back(ctx.mul(partial, ctx.var(flat.derivativeVar(v))));
  }
  return ctx.add(std::move(terms));
}

} // namespace eqc
