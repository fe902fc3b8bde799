// Equations of instances: simple, for, if and when-equations, connect, and the connection sets
// that become equality and zero-sum equations.
#include "frontend/FlattenImpl.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_set>

namespace eqc::frontend {

int Flattener::origin(const Scope &scope) {
  if (scope.loopText.empty())
    return scope.inst ? scope.inst->origin : -1;
  std::string text = scope.inst && !scope.inst->path.empty() ? scope.inst->path + ", " + scope.loopText : scope.loopText;
  if (!sys_.origins.empty() && sys_.origins.back() == text)
    return static_cast<int>(sys_.origins.size() - 1);
  sys_.origins.push_back(text);
  return static_cast<int>(sys_.origins.size() - 1);
}

bool Flattener::continuouslyDependent(const Expr *e) {
  bool dependent = false;
  forEachNode(e, [&](const Expr *n) {
    switch (n->kind()) {
    case ExprKind::Var:
      dependent = !sys_.vars[n->var()].isKnown() || sys_.vars[n->var()].isTimeVaryingKnown();
      return dependent ? Walk::Stop : Walk::Skip;
    case ExprKind::Time:
      dependent = true;
      return Walk::Stop;
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Eq:
    case ExprKind::Ne:
      return Walk::Skip; // a relation changes only at events
    case ExprKind::Call: // piecewise constant: changes only at events
      return builtinInfo(n->builtin()).events == BuiltinEvents::Steps ? Walk::Skip : Walk::Descend;
    default:
      return Walk::Descend;
    }
  });
  return dependent;
}

void Flattener::addEquation(const Expr *lhs, const Expr *rhs, SourceRange range, int number, int originId,
                            bool initial) {
  if (collect_) {
    collect_->push_back({lhs, rhs});
    return;
  }
  Equation eq{lhs, rhs, range, number, originId};
  eq.part = forPart_;
  if (!initial) {
    bool hasUnknown = false;
    for (const Expr *side : {lhs, rhs})
      for (int v : collectVars(side))
        hasUnknown = hasUnknown || !sys_.vars[v].isKnown();
    if (!hasUnknown) {
      diags_.error(range, "equation does not involve any unknown (only parameters, constants and time)");
      return;
    }
    sys_.equations.push_back(eq);
  } else {
    sys_.initialEquations.push_back(eq);
  }
}

void Flattener::lowerInstanceEquations(Instance &inst) {
  const ClassInfo &cls = *inst.cls;
  if (inst.symbols.size() != cls.elements.size())
    return;
  // A class whose equations failed in one instance fails the same way in the others: its errors
  // are reported once, with the instance they were found in.
  if (failedClasses_.count(&cls)) {
    ++failedClasses_[&cls];
    return;
  }
  const unsigned errorsBefore = diags_.errorCount();
  struct Note {
    Flattener &f;
    Instance &inst;
    unsigned before;
    ~Note() {
      if (f.diags_.errorCount() == before || inst.path.empty() || inst.package)
        return;
      f.diags_.note(inst.declared, "in component '" + inst.path + "' (a '" + inst.cls->name + "'), declared here");
      f.failedClasses_[inst.cls] = 0;
    }
  } note{*this, inst, errorsBefore};
  for (size_t i = 0; i < cls.elements.size(); ++i)
    lowerVariableAttributes(inst, static_cast<int>(i), false);
  for (const EquationSource &src : cls.equations) {
    Scope scope;
    scope.inst = &inst;
    scope.lexical = src.lexical;
    scope.context = Context::Equation;
    lowerEquation(*src.eq, scope, src.number, false);
  }
  equationNumber_ = static_cast<int>(cls.equations.size());
  for (size_t i = 0; i < cls.elements.size(); ++i)
    lowerVariableAttributes(inst, static_cast<int>(i), true);
  for (const EquationSource &src : cls.initialEquations) {
    Scope scope;
    scope.inst = &inst;
    scope.lexical = src.lexical;
    scope.context = Context::Equation;
    lowerEquation(*src.eq, scope, src.number, true);
  }
  // `Point p = Point(1, 2)` of a record component that is not a parameter: its equations.
  for (size_t k = 0; k < recordBindings_.size(); ++k) {
    if (recordBindings_[k].owner != &inst)
      continue;
    const RecordBinding b = recordBindings_[k];
    Value lhs = recordValue(*b.record, b.mod->range);
    Value rhs = modValue(*b.mod, Context::Equation);
    if (lhs.ok && rhs.ok) {
      equateRecords(lhs, rhs, b.mod->range, 0, b.record->origin, false);
      inst.equations += lhs.size();
    }
  }
  if (cls.kind() != ast::ClassKind::Function)
    for (const AlgorithmSource &src : cls.algorithms) {
      Scope scope;
      scope.inst = &inst;
      scope.lexical = src.lexical;
      scope.context = Context::Equation;
      lowerAlgorithm(*src.section, scope);
    }
}

void Flattener::lowerEquation(const ast::Equation &eq, Scope &scope, int number, bool initial) {
  using K = ast::EquationKind;
  switch (eq.kind) {
  case K::Simple:
    lowerSimpleEquation(*eq.lhs, *eq.rhs, eq.range, scope, number, initial);
    return;
  case K::For:
    lowerForEquation(eq, scope, number, initial, [&](Scope &inner) {
      const std::vector<ast::Equation> &body = eq.branches[0];
      const int outer = forPart_;
      for (size_t k = 0; k < body.size(); ++k) {
        forPart_ = body.size() > 1 ? static_cast<int>(k) + 1 : outer; // "equation 3.2"
        lowerEquation(body[k], inner, number, initial);
      }
      forPart_ = outer;
    });
    return;
  case K::If:
    lowerIfEquation(eq, scope, number, initial);
    return;
  case K::When:
    if (initial) {
      diags_.error(eq.range, "when-equations are not allowed in initial equations");
      return;
    }
    if (collect_) {
      diags_.error(eq.range, "a when-equation cannot be inside an if-equation whose condition changes in time");
      return;
    }
    lowerWhenEquation(eq, scope, number);
    return;
  case K::Connect:
    if (initial) {
      diags_.error(eq.range, "connect() is not allowed in initial equations");
      return;
    }
    lowerConnect(eq, scope);
    return;
  case K::Call: {
    const std::string &fn = eq.lhs->text;
    if (fn == "reinit")
      diags_.error(eq.lhs->nameRange, "reinit() is only allowed inside a when-equation");
    else if (fn == "terminate")
      diags_.error(eq.lhs->nameRange, "terminate() is only allowed inside a when-equation");
    else if (fn == "assert" && !graphBuilt_ && asksConnections(eq))
      deferred_.push_back(DeferredEquation{&eq, scope, number, initial, forPart_}); // cardinality()
    else if (fn == "assert")
      lowerAssert(*eq.lhs, scope, initial);
    else if (fn == "Connections.branch" || fn == "Connections.root" || fn == "Connections.potentialRoot")
      lowerGraphStatement(*eq.lhs, scope);
    else if (isEffectCall(*eq.lhs, scope)) // MLS 3.5, 8.3.7: a function without outputs, for its effects
      lowerEffectCall(*eq.lhs, scope, initial);
    else
      diags_.error(eq.lhs->nameRange, "'" + fn + "(...)' is not an equation: write 'expression = expression;'");
    return;
  }
  }
}

bool Flattener::isEffectCall(const ast::Expr &call, Scope &scope) {
  ClassInfo *fn = scopedClass(call.text, scope);
  if (!fn || fn->kind() != ast::ClassKind::Function || !resolveClass(*fn))
    return false;
  return std::none_of(fn->elements.begin(), fn->elements.end(),
                      [](const Element &el) { return el.decl->causality == ast::Causality::Output; });
}

bool Flattener::tupleOutputs(const ast::Expr &lhsAst, const ast::Expr &rhsAst, Scope &scope, std::vector<Value> &outputs) {
  if (rhsAst.kind != ast::ExprKind::Call) {
    diags_.error(rhsAst.range, "a list of outputs '(a, b)' must be equal to a function call");
    return false;
  }
  ClassInfo *fn = scopedClass(rhsAst.text, scope);
  if (!fn || fn->kind() != ast::ClassKind::Function) {
    diags_.error(rhsAst.nameRange, "'" + rhsAst.text + "' is not a function");
    return false;
  }
  if (!lowerUserCall(rhsAst, scope, fn, 0, &outputs).ok)
    return false;
  if (lhsAst.args.size() > outputs.size()) {
    diags_.error(lhsAst.range, "'" + rhsAst.text + "' has " + std::to_string(outputs.size()) + " output(s), not " +
                                   std::to_string(lhsAst.args.size()));
    return false;
  }
  return true;
}

void Flattener::lowerSimpleEquation(const ast::Expr &lhsAst, const ast::Expr &rhsAst, SourceRange range, Scope &scope,
                                    int number, bool initial) {
  // `(a, b) = f(x)`: one equation per output named.
  if (lhsAst.kind == ast::ExprKind::Tuple) {
    if (rhsAst.kind != ast::ExprKind::Call) {
      diags_.error(rhsAst.range, "a list of outputs '(a, b)' must be equal to a function call");
      return;
    }
    std::vector<Value> outputs;
    if (!tupleOutputs(lhsAst, rhsAst, scope, outputs))
      return;
    for (size_t k = 0; k < lhsAst.args.size(); ++k) {
      if (!lhsAst.args[k])
        continue;
      Value target = lower(*lhsAst.args[k], scope);
      if (!target.ok)
        continue;
      if (target.dims != outputs[k].dims) {
        diags_.error(lhsAst.args[k]->range, "output " + std::to_string(k + 1) + " of '" + rhsAst.text + "' is " +
                                                shapeText(outputs[k].dims) + " but its target is " + shapeText(target.dims));
        continue;
      }
      for (size_t i = 0; i < target.size(); ++i) {
        const Expr *t = target.elems[i];
        if (!initial && !collect_ && t->kind() == ExprKind::Var && sys_.vars[t->var()].role == VarRole::Discrete)
          sys_.discreteEquations.push_back(DiscreteEquation{t->var(), outputs[k].elems[i], range, number, origin(scope)});
        else
          addEquation(t, outputs[k].elems[i], range, number, origin(scope), initial);
      }
      if (scope.inst)
        scope.inst->equations += target.size();
    }
    return;
  }
  // `p = 3` for a parameter or constant p: its value belongs in its declaration. (An equation
  // that reads unknowns, `V_m = port_p.V_m - port_n.V_m` of MSL's sources, is an equation of
  // those unknowns like any other.)
  int knownLhs = -1;
  if (lhsAst.kind == ast::ExprKind::Name && lhsAst.ref.size() == 1 && lhsAst.ref[0].subscripts.empty() && scope.inst &&
      !initial) {
    int idx = scope.inst->cls->find(lhsAst.ref[0].name);
    if (idx >= 0) {
      Symbol &s = symbol(*scope.inst, idx);
      if (s.kind == Symbol::Constant || (s.kind == Symbol::Variable && s.role == VarRole::Parameter))
        knownLhs = idx;
    }
  }
  ++stringContext_; // a String variable's equation takes a String value
  Value lhs = lower(lhsAst, scope);
  --stringContext_;
  const bool text = lhs.ok && textHandle(lhs);
  if (lhs.ok && lhs.type == Type::String && !text && knownLhs < 0) {
    diags_.error(lhsAst.range, "a string is not allowed here");
    return;
  }
  stringContext_ += text;
  Value rhs = lower(rhsAst, scope);
  stringContext_ -= text;
  if (knownLhs >= 0) {
    bool readsUnknowns = lhs.ok && rhs.ok && lhs.type == Type::Real && rhs.type != Type::Boolean;
    if (readsUnknowns) {
      readsUnknowns = false;
      for (const Expr *e : rhs.elems)
        readsUnknowns = readsUnknowns || changesInTime(e);
    }
    if (!readsUnknowns) {
      const bool isParam = symbol(*scope.inst, knownLhs).kind == Symbol::Variable;
      const char *what = isParam ? "parameter" : "constant";
      diags_.error(lhsAst.range, std::string("cannot assign to ") + what + " '" + lhsAst.text +
                                     "' in an equation section; give it its value in the declaration");
      diags_.note(scope.inst->cls->elements[knownLhs].comp->range,
                  std::string(what) + " '" + lhsAst.text + "' is declared here");
      return;
    }
  }
  if (!lhs.ok || !rhs.ok)
    return;
  if (text) { // `s = ...` of a String variable s: its handle, which changes only at events (MLS 3.5, 3.8.3)
    if (!handlesOfStrings(lhs, rhs, range, lhsAst.text))
      return;
    if (!initial && !collect_ && continuouslyDependent(rhs.elems[0])) {
      diags_.error(range, "'" + lhsAst.text +
                              "' is a String variable, which changes only at events (MLS 3.5, 3.8.3), "
                              "but its value here changes continuously: give it its value in a when-clause");
      return;
    }
  } else if (lhs.type == Type::String || rhs.type == Type::String) {
    diags_.error(lhs.type == Type::String ? lhsAst.range : rhsAst.range, "a string is not allowed here");
    return;
  }
  if (lhs.dims != rhs.dims) {
    diags_.error(range, "the two sides of the equation have different shapes: " + shapeText(lhs.dims) + " and " +
                            shapeText(rhs.dims));
    return;
  }
  if (lhs.record || rhs.record) { // a record equation: one per field (MLS 3.5, 12.6)
    equateRecords(lhs, rhs, range, number, origin(scope), initial);
    if (scope.inst && !initial)
      scope.inst->equations += lhs.size();
    return;
  }
  if (lhs.enumeration != rhs.enumeration) {
    const Value &en = lhs.enumeration ? lhs : rhs, &other = lhs.enumeration ? rhs : lhs;
    diags_.error(range, "the two sides of the equation have different types: the enumeration '" + en.enumeration->name +
                            "' and " + (other.enumeration ? "the enumeration '" + other.enumeration->name + "'"
                                                          : std::string(typeName(other.type))));
    return;
  }
  const bool lhsBool = lhs.type == Type::Boolean, rhsBool = rhs.type == Type::Boolean;
  if (lhsBool != rhsBool) {
    diags_.error(lhsBool ? lhsAst.range : rhsAst.range,
                 "the two sides of the equation have different types: " + std::string(typeName(lhs.type)) + " and " +
                     typeName(rhs.type));
    return;
  }
  const int originId = origin(scope);
  for (size_t i = 0; i < lhs.size(); ++i)
    if (!addScalarEquation(lhs.elems[i], rhs.elems[i], lhsBool, range, number, originId, initial))
      return;
  if (scope.inst && !initial)
    scope.inst->equations += lhs.size();
}

bool Flattener::addScalarEquation(const Expr *l, const Expr *r, bool isBool, SourceRange range, int number,
                                  int originId, bool initial) {
  // A discrete variable alone on one side defines it (evaluated at events) when the other side
  // changes only at events too: it reads continuous variables only through relations and
  // piecewise-constant functions (`open = v < 0`, `k = integer(10*x)`); `der(x) = n` is a
  // continuous equation that reads n.
  // An Integer or Boolean output of a function of continuous values (a medium's phase in a
  // record equation `state = setState_pT(p, T)`) is the function's value at the events: a
  // discrete variable changes only there (MLS 3.5, 3.8.3).
  auto definesDiscrete = [&](const Expr *x, const Expr *other) {
    if (x->kind() != ExprKind::Var || sys_.vars[x->var()].role != VarRole::Discrete)
      return false;
    const ValueType type = sys_.vars[x->var()].type;
    return !continuouslyDependent(other) ||
           (other->kind() == ExprKind::FnCall && (type == ValueType::Integer || type == ValueType::Boolean));
  };
  if (initial && (l->kind() == ExprKind::Pre || r->kind() == ExprKind::Pre)) {
    // `pre(y) = e` (MLS 3.5, 8.6): y's value before the start, i.e. its start value.
    const Expr *target = l->kind() == ExprKind::Pre ? l : r, *value = target == l ? r : l;
    bool ok = true, unknowns = false;
    for (int v : collectAllVars(value)) {
      const VarRole role = sys_.vars[v].role;
      ok = ok && (role == VarRole::Parameter || role == VarRole::Unknown);
      unknowns = unknowns || role == VarRole::Unknown;
    }
    if (!ok || sys_.vars[target->var()].role == VarRole::Parameter) {
      diags_.error(range, "an initial equation pre(" + sys_.vars[target->var()].name +
                              ") = ... gives the start value of a discrete variable: a value of parameters and constants");
      return true;
    }
    if (unknowns) // perhaps parameters once aliases are resolved (checkPreStarts)
      sys_.preStarts.emplace_back(target->var(), range);
    sys_.vars[target->var()].binding = value;
    sys_.vars[target->var()].hasStart = true;
    return true;
  }
  if (initial && (definesDiscrete(l, r) || definesDiscrete(r, l))) {
    // An initial equation of a discrete variable gives its value at the start (= its pre()).
    const Expr *target = definesDiscrete(l, r) ? l : r, *value = target == l ? r : l;
    bool ok = true;
    for (int v : collectAllVars(value))
      ok = ok && sys_.vars[v].role == VarRole::Parameter;
    if (ok) {
      sys_.vars[target->var()].binding = value;
      sys_.vars[target->var()].hasStart = true;
      return true;
    }
    // Other values are given at initialization by the when-clause that assigns the variable
    // (initialDiscreteValues, once every when-clause is known).
    addEquation(l, r, range, number, originId, true);
    return true;
  }
  if (!initial && !collect_ && (definesDiscrete(l, r) || definesDiscrete(r, l))) {
    const Expr *target = definesDiscrete(l, r) ? l : r;
    sys_.discreteEquations.push_back(DiscreteEquation{target->var(), target == l ? r : l, range, number, originId});
    return true;
  }
  auto initialParameter = [&](const Expr *x) {
    return x->kind() == ExprKind::Var &&
           std::find(initialParameters_.begin(), initialParameters_.end(), x->var()) != initialParameters_.end();
  };
  if (initial && isBool && (initialParameter(l) || initialParameter(r))) {
    // `b = f(...)` of a Boolean parameter with fixed = false (MSL's positiveBranch): its value
    // (initialParameters).
    addEquation(l, r, range, number, originId, true);
    return true;
  }
  if (isBool && !collect_) { // in an if-equation's branch the if-equation decides (lowerIfEquation)
    diags_.error(range, "a Boolean equation must have a Boolean variable alone on one side, e.g. 'open = v < 0'");
    return false;
  }
  addEquation(l, r, range, number, originId, initial);
  return true;
}

void Flattener::lowerForEquation(const ast::Equation &eq, Scope &scope, int number, bool initial,
                                 const std::function<void(Scope &)> &body) {
  (void)number;
  (void)initial;
  std::function<void(size_t)> loop = [&](size_t k) {
    if (k == eq.indices.size()) {
      body(scope);
      return;
    }
    const ast::ForIndex &idx = eq.indices[k];
    const ClassInfo *enumeration = nullptr;
    bool boolean = false;
    std::optional<std::vector<double>> values;
    if (idx.in) {
      values = iterationValues(*idx.in, scope, "the range of '" + idx.name + "'", &enumeration, &boolean);
    } else {
      std::vector<const ast::Expr *> uses;
      std::function<void(const std::vector<ast::Equation> &)> collect = [&](const std::vector<ast::Equation> &body) {
        for (const ast::Equation &sub : body) {
          uses.push_back(sub.lhs.get());
          uses.push_back(sub.rhs.get());
          for (const auto &c : sub.conditions)
            uses.push_back(c.get());
          for (const auto &b : sub.branches)
            collect(b);
        }
      };
      for (const auto &b : eq.branches)
        collect(b);
      values = implicitRange(idx, uses, scope);
    }
    if (!values)
      return;
    const std::string savedText = scope.loopText;
    unsigned errors = diags_.errorCount();
    for (double x : *values) {
      if (!countIteration(idx.range))
        break;
      scope.loops.emplace_back(idx.name, loopValue(x, enumeration, boolean));
      scope.loopText = (savedText.empty() ? "" : savedText + ", ") + idx.name + " = " + formatNumber(x);
      loop(k + 1);
      scope.loops.pop_back();
      // The same mistake in every iteration is reported once.
      if (diags_.errorCount() != errors)
        break;
    }
    scope.loopText = savedText;
  };
  loop(0);
}

void Flattener::lowerIfEquation(const ast::Equation &eq, Scope &scope, int number, bool initial) {
  // Conditions that ask the connection graph (MLS 3.5, 9.4) wait until it is built.
  if (!graphBuilt_ && asksConnections(eq)) {
    if (collect_)
      diags_.error(eq.range, "an if-equation whose condition asks the connection graph cannot be inside one whose "
                             "condition changes in time");
    else
      deferred_.push_back(DeferredEquation{&eq, scope, number, initial, forPart_});
    return;
  }
  // Conditions known when the model is compiled select one branch.
  std::vector<Value> conds;
  bool constant = true;
  for (const auto &c : eq.conditions) {
    Value v = lowerBool(*c, scope);
    if (!scalar(v, *c, "the condition of an if-equation must be a scalar"))
      return;
    constant = constant && parameterExpression(v.elems[0]);
    conds.push_back(v);
  }
  if (constant) {
    size_t chosen = conds.size();
    for (size_t i = 0; i < conds.size(); ++i) {
      std::optional<double> b = conds[i].elems[0]->kind() == ExprKind::BoolConst
                                    ? std::optional<double>(conds[i].elems[0]->boolValue())
                                    : evaluateStructural(conds[i].elems[0], eq.conditions[i]->range, "this condition");
      if (!b)
        return;
      if (*b != 0) {
        chosen = i;
        break;
      }
    }
    if (chosen < eq.branches.size())
      for (const ast::Equation &sub : eq.branches[chosen])
        lowerEquation(sub, scope, number, initial);
    return;
  }
  // Conditions that change in time: every branch has as many equations, and equation k is
  // `if c1 then residual1k elseif ... else residual_else_k = 0`.
  std::vector<std::vector<std::pair<const Expr *, const Expr *>>> branches;
  auto *saved = collect_;
  unsigned errors = diags_.errorCount();
  const Expr *earlier = ctx().boolean(false); // a condition of an earlier branch holds
  for (size_t b = 0; b < eq.branches.size(); ++b) {
    branches.emplace_back();
    collect_ = &branches.back();
    const Expr *taken = ctx().logicalNot(earlier);
    if (b < conds.size()) {
      taken = ctx().logicalAnd(taken, conds[b].elems[0]);
      earlier = ctx().logicalOr(earlier, conds[b].elems[0]);
    }
    assertGuards_.push_back(taken);
    for (const ast::Equation &sub : eq.branches[b])
      lowerEquation(sub, scope, number, initial);
    assertGuards_.pop_back();
  }
  collect_ = saved;
  if (diags_.errorCount() != errors)
    return;
  if (eq.branches.size() == eq.conditions.size())
    branches.emplace_back(); // no else: no equations
  for (size_t b = 1; b < branches.size(); ++b)
    if (branches[b].size() != branches[0].size()) {
      diags_.error(eq.range, "the branches of this if-equation have different numbers of equations (" +
                                 std::to_string(branches[0].size()) + " and " + std::to_string(branches[b].size()) +
                                 "); with a condition that changes in time each branch needs as many");
      return;
    }
  const int originId = origin(scope);
  for (size_t k = 0; k < branches[0].size(); ++k) {
    // `v = a` in every branch: v = if c1 then a1 elseif ... (a discrete v is defined by it).
    bool sameLhs = branches[0][k].first->kind() == ExprKind::Var;
    for (const auto &branch : branches)
      sameLhs = sameLhs && branch[k].first == branches[0][k].first;
    if (sameLhs) {
      const Expr *value = branches.back()[k].second;
      for (size_t b = conds.size(); b-- > 0;)
        value = ctx().ifThenElse(conds[b].elems[0], branches[b][k].second, value);
      if (!addScalarEquation(branches[0][k].first, value, value->isBool(), eq.range, number, originId, initial))
        return;
      continue;
    }
    if (branches[0][k].first->isBool() || branches[0][k].second->isBool()) {
      diags_.error(eq.range, "equation " + std::to_string(k + 1) + " of this if-equation's branches is Boolean: each "
                             "branch must give the same Boolean variable alone on one side, e.g. 'y = v < 0'");
      return;
    }
    const Expr *residual = ctx().sub(branches.back()[k].first, branches.back()[k].second);
    for (size_t b = conds.size(); b-- > 0;)
      residual = ctx().ifThenElse(conds[b].elems[0], ctx().sub(branches[b][k].first, branches[b][k].second), residual);
    addEquation(residual, ctx().zero(), eq.range, number, originId, initial);
  }
  if (scope.inst && !initial)
    scope.inst->equations += branches[0].size();
}

void Flattener::lowerWhenBody(const std::vector<ast::Equation> &body, Scope &scope, WhenBranch &branch) {
  for (const ast::Equation &eq : body) {
    switch (eq.kind) {
    case ast::EquationKind::Simple: {
      // `v = expression`, or `(a, b) = f(x)` (MLS 3.5, 8.3.5: each output named assigns its variable).
      auto assign = [&](const ast::Expr &targetAst, Value value, SourceRange range) {
        ++stringContext_;
        Value target = lower(targetAst, scope);
        --stringContext_;
        if (!target.ok || !value.ok || !handlesOfStrings(target, value, range, targetAst.text))
          return;
        if (target.dims != value.dims || (target.type == Type::Boolean) != (value.type == Type::Boolean)) {
          diags_.error(range, "the two sides have different types or shapes: " + std::string(typeName(target.type)) +
                                  " " + shapeText(target.dims) + " and " + typeName(value.type) + " " +
                                  shapeText(value.dims));
          return;
        }
        for (size_t i = 0; i < target.size(); ++i) {
          const Expr *t = target.elems[i];
          if (t->kind() != ExprKind::Var || sys_.vars[t->var()].role == VarRole::Parameter) {
            diags_.error(targetAst.range, "a when-clause can only assign variables, not parameters or expressions");
            break;
          }
          branch.assignments.emplace_back(t->var(), value.elems[i]);
          whenAssigned_.emplace(t->var(), targetAst.range);
        }
      };
      if (eq.lhs->kind == ast::ExprKind::Tuple) {
        std::vector<Value> outputs;
        if (tupleOutputs(*eq.lhs, *eq.rhs, scope, outputs))
          for (size_t k = 0; k < eq.lhs->args.size(); ++k)
            if (eq.lhs->args[k])
              assign(*eq.lhs->args[k], outputs[k], eq.range);
        break;
      }
      if (eq.lhs->kind != ast::ExprKind::Name) {
        diags_.error(eq.lhs->range, "an equation in a when-clause assigns a variable: write 'v = expression;'");
        continue;
      }
      ++stringContext_; // a String variable's value (assign checks that the target is one)
      Value value = lower(*eq.rhs, scope);
      --stringContext_;
      assign(*eq.lhs, value, eq.range);
      break;
    }
    case ast::EquationKind::Call: {
      const ast::Expr &call = *eq.lhs;
      if (call.text == "reinit") {
        if (call.args.size() != 2) {
          diags_.error(call.nameRange, "reinit(x, value) takes 2 arguments");
          continue;
        }
        Value target = lower(*call.args[0], scope);
        Value value = lowerReal(*call.args[1], scope);
        if (!target.ok || !value.ok)
          continue;
        if (target.dims != value.dims) {
          diags_.error(call.range, "reinit(): the variable is " + shapeText(target.dims) + " but the value is " +
                                       shapeText(value.dims));
          continue;
        }
        for (size_t i = 0; i < target.size(); ++i) {
          const Expr *t = target.elems[i];
          if (t->kind() != ExprKind::Var || sys_.vars[t->var()].role != VarRole::Unknown) {
            diags_.error(call.args[0]->range, "reinit() takes a state variable (a Real variable x of which der(x) occurs)");
            break;
          }
          branch.reinits.emplace_back(t->var(), value.elems[i]);
          reinitTargets_.emplace_back(t->var(), call.args[0]->range);
        }
      } else if (call.text == "terminate") {
        branch.terminates = true;
        if (call.args.size() == 1 && call.args[0]->kind == ast::ExprKind::String)
          branch.terminate = call.args[0]->text;
      } else if (call.text == "assert" && branch.conditions.size() == 1 && branch.conditions[0] == ctx().initial()) {
        // `when initial() then assert(...)`: checked at initialization, as in an initial equation.
        Scope outer = scope;
        outer.context = Context::Equation;
        lowerAssert(call, outer, true);
      } else if (call.text == "assert") { // checked with the value it has when the branch fires
        Scope outer = scope;
        outer.context = Context::Equation;
        lowerAssert(call, outer, false, &branch);
      } else if (isEffectCall(call, scope)) {
        Scope outer = scope;
        outer.context = Context::Equation;
        lowerEffectCall(call, outer, false, &branch);
      } else {
        diags_.error(call.nameRange, "'" + call.text + "(...)' is not allowed in a when-clause (reinit, terminate, "
                                                     "assert and functions without outputs are)");
      }
      break;
    }
    case ast::EquationKind::For:
      lowerForEquation(eq, scope, 0, false, [&](Scope &inner) { lowerWhenBody(eq.branches[0], inner, branch); });
      break;
    case ast::EquationKind::If: {
      // Assignments under conditions: v = if c then a else (the other branch, or pre(v)).
      std::vector<Value> conds;
      for (const auto &c : eq.conditions) {
        Value v = lowerBool(*c, scope);
        if (!v.ok || !v.isScalar())
          return;
        conds.push_back(v);
      }
      std::vector<WhenBranch> parts(eq.branches.size());
      for (size_t b = 0; b < eq.branches.size(); ++b)
        lowerWhenBody(eq.branches[b], scope, parts[b]);
      std::map<int, const Expr *> merged;
      std::vector<int> order;
      for (auto &p : parts)
        for (auto &[v, e] : p.assignments)
          if (!merged.count(v)) {
            merged[v] = nullptr;
            order.push_back(v);
          }
      for (int v : order) {
        const Expr *value = ctx().pre(v, sys_.vars[v].type == ValueType::Boolean);
        if (parts.size() > conds.size())
          for (auto &[w, e] : parts.back().assignments)
            if (w == v)
              value = e;
        for (size_t b = conds.size(); b-- > 0;) {
          const Expr *then = ctx().pre(v, sys_.vars[v].type == ValueType::Boolean);
          for (auto &[w, e] : parts[b].assignments)
            if (w == v)
              then = e;
          value = ctx().ifThenElse(conds[b].elems[0], then, value);
        }
        branch.assignments.emplace_back(v, value);
      }
      for (size_t b = 0; b < parts.size(); ++b)
        for (auto &[v, e] : parts[b].reinits) {
          const Expr *value = e;
          if (b < conds.size())
            value = ctx().ifThenElse(conds[b].elems[0], e, ctx().var(v));
          branch.reinits.emplace_back(v, value);
        }
      for (auto &p : parts)
        if (p.terminates) {
          diags_.error(eq.range, "terminate() inside an if in a when-clause is not supported; use its own when-clause");
          break;
        }
      break;
    }
    case ast::EquationKind::When:
      diags_.error(eq.range, "when-equations cannot be nested");
      break;
    case ast::EquationKind::Connect:
      diags_.error(eq.range, "connect() is not allowed in a when-clause");
      break;
    }
  }
}

void Flattener::lowerWhenEquation(const ast::Equation &eq, Scope &scope, int number) {
  (void)number;
  WhenClause clause;
  clause.loc = eq.range;
  clause.origin = origin(scope);
  Scope inner = scope;
  inner.context = Context::When;
  for (size_t b = 0; b < eq.branches.size(); ++b) {
    WhenBranch branch;
    branch.loc = eq.conditions[b]->range;
    Value cond = lowerBool(*eq.conditions[b], scope);
    if (!cond.ok)
      return;
    if (cond.dims.size() > 1) {
      diags_.error(eq.conditions[b]->range, "a when-condition is a Boolean or a vector of them");
      return;
    }
    branch.conditions = cond.elems;
    lowerWhenBody(eq.branches[b], inner, branch);
    // The equations of a branch hold together: an assert in it sees the values they give.
    std::unordered_map<int, const Expr *> given;
    for (auto &[v, e] : branch.assignments)
      if (!eventAssertVars_.count(v))
        given.emplace(v, e);
    for (auto &[v, e] : branch.assignments)
      if (eventAssertVars_.count(v))
        e = substitute(ctx(), e, given);
    clause.branches.push_back(std::move(branch));
  }
  // Every branch assigns the same variables (each keeps its value where no branch fires); the
  // values an assert keeps are its branch's alone.
  std::set<int> first;
  for (auto &[v, e] : clause.branches[0].assignments)
    if (!eventAssertVars_.count(v))
      first.insert(v);
  for (size_t b = 1; b < clause.branches.size(); ++b) {
    std::set<int> other;
    for (auto &[v, e] : clause.branches[b].assignments)
      if (!eventAssertVars_.count(v))
        other.insert(v);
    if (other != first) {
      diags_.error(clause.branches[b].loc, "the branches of a when-equation must assign the same variables");
      return;
    }
  }
  if (scope.inst)
    scope.inst->equations += first.size();
  for (WhenBranch &branch : clause.branches)
    branch.equations = true;
  sys_.whens.push_back(std::move(clause));
}
} // namespace eqc::frontend
