// sample(start, interval) (MLS 3.5, 3.7.5): time events at start + i*interval, i = 0, 1, ...
#include "frontend/FlattenImpl.h"

namespace eqc::frontend {

// sample(t0, dt) is the condition `not initial() and time >= t0 + k dt` of a discrete counter k
// that a when-clause of its own increments each time the condition becomes true: an event
// indicator locates each sample instant like any other event (t0 + k dt computed afresh, so no
// rounding accumulates), and the condition holds during that event's iteration only. At
// initialization it is false and the clause sets k past the instants before the start; an instant
// at the start time is the event that follows initialization (MLS 3.5, 8.6).
Value Flattener::lowerSample(const ast::Expr &e, Scope &scope) {
  if (e.args.size() != 2) {
    diags_.error(e.nameRange, "function 'sample' takes 2 arguments (start, interval) but " +
                                  std::to_string(e.args.size()) + (e.args.size() == 1 ? " was" : " were") + " given");
    return fail();
  }
  if (scope.context != Context::Equation && scope.context != Context::When) {
    diags_.error(e.nameRange, "sample() can only be used in equations and algorithms of models");
    return fail();
  }
  ExprContext &c = ctx();
  const Expr *start = nullptr, *interval = nullptr;
  for (size_t i = 0; i < 2; ++i) {
    Value v = lower(*e.args[i], scope);
    if (!v.ok)
      return fail();
    if (!v.isScalar() || !v.isNumeric() || !parameterExpression(v.elems[0])) {
      diags_.error(e.args[i]->range, std::string("the ") + (i ? "interval" : "start") +
                                         " of sample() must be a Real parameter expression (MLS 3.5, 3.7.5)");
      return fail();
    }
    (i ? interval : start) = v.elems[0];
  }
  if (interval->isConst() && !(interval->value() > 0)) {
    diags_.error(e.args[1]->range, "the interval of sample() must be positive, not " + formatNumber(interval->value()));
    return fail();
  }
  auto known = samples_.find({start, interval});
  if (known != samples_.end())
    return Value::scalar(known->second, Type::Boolean);

  Variable count;
  VarNamer name = [this](int var) { return sys_.vars[var].name; };
  count.name = "sample(" + toString(start, name) + ", " + toString(interval, name) + ").count";
  count.role = VarRole::Discrete;
  count.type = ValueType::Integer;
  count.loc = e.range;
  count.binding = c.zero();
  count.hasStart = true;
  count.generated = true;
  sys_.vars.push_back(count);
  const int k = static_cast<int>(sys_.vars.size()) - 1;
  const Expr *t = c.time(), *pre = c.pre(k);
  const Expr *due = c.logicalAnd(c.logicalNot(c.initial()), c.le(c.add(start, c.mul(c.var(k), interval)), t));
  // At initialization the number of instants before the start; afterwards one more.
  const Expr *before = c.noEvent(c.call(Builtin::Ceil, {c.div(c.sub(t, start), interval)}));
  WhenBranch branch;
  branch.loc = e.range;
  branch.conditions = {due, c.initial()};
  branch.assignments.emplace_back(
      k, c.ifThenElse(c.initial(), c.ifThenElse(c.lt(start, t), before, c.zero()), c.add(pre, c.one())));
  WhenClause clause;
  clause.loc = e.range;
  clause.origin = origin(scope);
  clause.branches.push_back(std::move(branch));
  sys_.whens.push_back(std::move(clause));
  whenAssigned_.emplace(k, e.range);
  samples_.emplace(std::make_pair(start, interval), due);
  return Value::scalar(due, Type::Boolean);
}

} // namespace eqc::frontend
