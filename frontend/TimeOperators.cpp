// The operators of time (MLS 3.5, 3.7): sample(start, interval) (3.7.5), time events at start +
// i*interval, i = 0, 1, ...; delay(expr, delayTime, delayMax) (3.7.2); terminal() (3.7.2).
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
  // Due from the count before the event: the count this clause sets must not make it undue
  // within the same step of the event iteration (pre() fixed there, MLS 3.5, 8.6).
  const Expr *due = c.logicalAnd(c.logicalNot(c.initial()), c.le(c.add(start, c.mul(pre, interval)), t));
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

namespace eqc::frontend {

bool Flattener::delayBounds(const ast::Expr &e, Scope &scope, Value &delayTime, Value &delayMax) {
  const size_t n = e.args.size();
  for (size_t i = 1; i < n; ++i) {
    Value &v = i == 1 ? delayTime : delayMax;
    v = lower(*e.args[i], scope);
    if (!v.ok)
      return false;
    if (!v.isNumeric()) {
      diags_.error(e.args[i]->range, std::string("the ") + (i == 1 ? "delay time" : "delayMax") +
                                         " of delay() must be a Real expression, not a " + typeName(v.type));
      return false;
    }
    // MLS 3.5, 3.7.2: delayMax is a parameter expression; without it, so is delayTime.
    const bool parameter = std::all_of(v.elems.begin(), v.elems.end(), [&](const Expr *x) { return parameterExpression(x); });
    if (!parameter && (i == 2 || n == 2)) {
      diags_.error(e.args[i]->range, i == 2 ? "delayMax of delay() must be a parameter expression (MLS 3.5, 3.7.2)"
                                            : "a delay time that changes in time needs delayMax: delay(expr, delayTime, "
                                              "delayMax) with delayMax a parameter expression (MLS 3.5, 3.7.2)");
      return false;
    }
    for (const Expr *x : v.elems)
      if (x->isConst() && !(x->value() >= 0)) {
        diags_.error(e.args[i]->range, std::string("the ") + (i == 1 ? "delay time" : "delayMax") +
                                           " of delay() must be 0 or more, not " + formatNumber(x->value()));
        return false;
      }
  }
  if (n == 2)
    delayMax = delayTime;
  return true;
}

Value Flattener::lowerDelay(const ast::Expr &e, Scope &scope) {
  const size_t n = e.args.size();
  if (n < 2 || n > 3) {
    diags_.error(e.nameRange, "function 'delay' takes 2 or 3 arguments (expr, delayTime, delayMax) but " +
                                  std::to_string(n) + (n == 1 ? " was" : " were") + " given");
    return fail();
  }
  for (const std::string &name : e.argNames)
    if (!name.empty()) {
      diags_.error(e.nameRange, "delay() takes its arguments by position (expr, delayTime, delayMax)");
      return fail();
    }
  if (scope.context != Context::Equation && scope.context != Context::When) {
    diags_.error(e.nameRange, "delay() can only be used in equations and algorithms of models (MLS 3.5, 3.7.2)");
    return fail();
  }
  Value x = lower(*e.args[0], scope);
  if (!x.ok)
    return fail();
  if (!x.isNumeric()) {
    diags_.error(e.args[0]->range, std::string("delay() delays a Real expression, not a ") + typeName(x.type));
    return fail();
  }
  Value delayTime, delayMax;
  if (!delayBounds(e, scope, delayTime, delayMax))
    return fail();
  // Vectorized (MLS 3.5, 12.4.6): the times are scalars or of the expression's shape.
  for (const Value *v : {&delayTime, &delayMax})
    if (!v->isScalar() && v->dims != x.dims) {
      diags_.error(e.range, "the delay times of delay() must be scalars or of the expression's size");
      return fail();
    }
  ExprContext &c = ctx();
  Value out = x;
  out.type = Type::Real;
  for (size_t i = 0; i < x.elems.size(); ++i) {
    const Expr *d = delayTime.elems[delayTime.isScalar() ? 0 : i], *dmax = delayMax.elems[delayMax.isScalar() ? 0 : i];
    if (d->isConst() && dmax->isConst() && d->value() > dmax->value()) {
      diags_.error(e.args[1]->range, "the delay time " + formatNumber(d->value()) + " of delay() is larger than its delayMax " +
                                         formatNumber(dmax->value()) + " (MLS 3.5, 3.7.2)");
      return fail();
    }
    if (parameterExpression(x.elems[i])) // constant in time: its own past
      continue;
    const int k = c.newDelay();
    sys_.delayLocs.resize(static_cast<size_t>(k) + 1, e.range);
    sys_.delayLocs[static_cast<size_t>(k)] = e.range;
    out.elems[i] = c.delay(k, x.elems[i], d, dmax);
    if (d->isConst() && dmax->isConst())
      continue;
    // 0 <= delayTime <= delayMax, else an error (MLS 3.5, 3.7.2): checked where the values are
    // known, at initialization for parameters and at every step for a delay time that changes.
    Assertion a;
    a.loc = e.range;
    a.origin = origin(scope);
    a.initialOnly = parameterExpression(d);
    a.condition = c.noEvent(c.logicalAnd(c.le(c.zero(), d), c.le(d, dmax)));
    a.message.push_back(MessagePart{"the delay time ", nullptr, ValueType::Real, "", {}});
    a.message.push_back(MessagePart{"", d, ValueType::Real, ".6g", {}});
    a.message.push_back(MessagePart{" of delay() is not between 0 and delayMax = ", nullptr, ValueType::Real, "", {}});
    a.message.push_back(MessagePart{"", dmax, ValueType::Real, ".6g", {}});
    a.message.push_back(MessagePart{" (MLS 3.5, 3.7.2)", nullptr, ValueType::Real, "", {}});
    sys_.assertions.push_back(std::move(a));
  }
  return out;
}

} // namespace eqc::frontend

namespace eqc::frontend {

Value Flattener::lowerTerminal(const ast::Expr &e, Scope &scope) {
  if (!e.args.empty()) {
    diags_.error(e.nameRange, "function 'terminal' takes no arguments");
    return fail();
  }
  if (scope.context != Context::Equation && scope.context != Context::When) {
    diags_.error(e.nameRange, "terminal() can only be used in equations and algorithms of models (MLS 3.5, 3.7.2)");
    return fail();
  }
  ExprContext &c = ctx();
  if (sys_.terminal < 0) {
    Variable flag;
    flag.name = "terminal()";
    flag.role = VarRole::Discrete;
    flag.type = ValueType::Boolean;
    flag.loc = e.range;
    flag.binding = c.boolean(false);
    flag.hasStart = true;
    flag.generated = true;
    sys_.vars.push_back(flag);
    sys_.terminal = static_cast<int>(sys_.vars.size()) - 1;
  }
  return Value::scalar(c.var(sys_.terminal, true), Type::Boolean);
}

} // namespace eqc::frontend
