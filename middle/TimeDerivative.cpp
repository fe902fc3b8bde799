// Total time derivative by the chain rule.
#include "middle/TimeDerivative.h"

#include <algorithm>

namespace eqc {

const Expr *timeDerivative(FlatSystem &flat, Differentiator &diff, const Expr *e) {
  ExprContext &ctx = *flat.ctx;
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
