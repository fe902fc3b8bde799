// Algorithm sections of models and blocks (MLS 3.5, 11.1): each section is executed symbolically,
// once, statement by statement; the value it leaves in each variable it assigns becomes that
// variable's equation, so that the section is one block whose unknowns are the variables it
// assigns. if-statements become if-expressions, for-loops over ranges known at compilation are
// unrolled, when-statements become when-clauses, assert() an assertion under the conditions of
// the branches it is in.
#include "frontend/FlattenImpl.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace eqc::frontend {

ast::Expr wholeVariable(const ast::Expr &target) {
  ast::Expr whole;
  whole.kind = ast::ExprKind::Name;
  whole.range = target.range;
  whole.text = target.text;
  for (const ast::RefPart &part : target.ref)
    whole.ref.push_back(ast::RefPart{part.name, part.range, {}});
  return whole;
}

/// The symbolic execution of one section.
class AlgorithmLowering {
public:
  AlgorithmLowering(Flattener &f, const ast::AlgorithmSection &section, Scope &scope)
      : f_(f), section_(section), scope_(scope), id_(f.algorithmCount_++) {}

  void run() {
    const unsigned errors = f_.diags_.errorCount();
    collectTargets(section_.statements, false);
    // MLS 3.5, 11.1.2: at the start of the section a variable it assigns has its start value,
    // or pre() for a discrete one.
    for (int v : assigned_) {
      const Variable &var = f_.sys_.vars[v];
      const bool isBool = var.type == ValueType::Boolean;
      if (var.role == VarRole::Discrete || whenTargets_.count(v))
        values_[v] = f_.ctx().pre(v, isBool);
      else if (var.hasStart && var.binding)
        values_[v] = var.binding;
      else
        values_[v] = isBool ? f_.ctx().boolean(false) : f_.ctx().zero();
    }
    block(section_.statements, scope_, /*top=*/true);
    if (f_.diags_.errorCount() != errors)
      return;
    const int originId = f_.origin(scope_);
    for (int v : assigned_) {
      if (whenTargets_.count(v))
        continue;
      const bool isBool = f_.sys_.vars[v].type == ValueType::Boolean;
      if (!f_.addScalarEquation(f_.ctx().var(v, isBool), values_[v], isBool, targetRange_[v], kAlgorithmSection, originId,
                                section_.initial))
        return;
    }
    if (scope_.inst && !section_.initial)
      scope_.inst->equations += assigned_.size();
  }

private:
  /// Every variable the statements assign (an array or record as a whole), and which of them a
  /// when-statement assigns.
  void collectTargets(const std::vector<ast::Statement> &statements, bool inWhen) {
    for (const ast::Statement &st : statements) {
      switch (st.kind) {
      case ast::StatementKind::Assign:
        addTarget(*st.target, inWhen);
        break;
      case ast::StatementKind::TupleAssign:
        for (const ast::ExprPtr &t : st.target->args)
          if (t)
            addTarget(*t, inWhen);
        break;
      default:
        for (const auto &b : st.branches)
          collectTargets(b, inWhen || st.kind == ast::StatementKind::When);
      }
    }
  }
  void addTarget(const ast::Expr &target, bool inWhen) {
    if (target.kind != ast::ExprKind::Name) {
      f_.diags_.error(target.range, "an assignment's target is a variable, e.g. 'x := ...' or 'x[i] := ...'");
      return;
    }
    ast::Expr whole = wholeVariable(target);
    ++f_.stringContext_;
    Value v = f_.lower(whole, scope_);
    --f_.stringContext_;
    if (!v.ok)
      return;
    if (const Expr *handle = f_.textHandle(v)) // a String variable: its handle is assigned
      v = Value::scalar(handle, Type::Real);
    for (const Expr *e : v.elems) {
      // An initial algorithm may compute a parameter with fixed = false (MLS 3.5, 8.6).
      const bool computedAtStart =
          section_.initial && e->kind() == ExprKind::Var &&
          std::find(f_.initialParameters_.begin(), f_.initialParameters_.end(), e->var()) != f_.initialParameters_.end();
      if (!computedAtStart && (e->kind() != ExprKind::Var || f_.sys_.vars[e->var()].role == VarRole::Parameter ||
                               f_.sys_.vars[e->var()].role == VarRole::Input)) {
        f_.diags_.error(target.range, "'" + target.text +
                                          "' cannot be assigned in an algorithm section: it is a parameter, constant "
                                          "or input");
        return;
      }
      const int var = e->var();
      if (std::find(assigned_.begin(), assigned_.end(), var) == assigned_.end()) {
        assigned_.push_back(var);
        targetRange_[var] = target.range;
      }
      if (inWhen)
        whenTargets_.insert(var);
      else
        outsideWhen_.insert(var);
      if (outsideWhen_.count(var) && whenTargets_.count(var) && mixed_.insert(var).second) {
        f_.diags_.error(target.range, "'" + f_.sys_.vars[var].name +
                                          "' is assigned both inside and outside a when-statement");
        return;
      }
    }
  }

  /// `e` read at this point of the section: the variables it assigns by their current values.
  const Expr *current(const Expr *e) { return substitute(f_.ctx(), e, values_); }

  void block(const std::vector<ast::Statement> &statements, Scope &scope, bool top) {
    for (const ast::Statement &st : statements)
      statement(st, scope, top);
  }

  void statement(const ast::Statement &st, Scope &scope, bool top) {
    switch (st.kind) {
    case ast::StatementKind::Assign: {
      ++f_.stringContext_;
      Value target = f_.lower(*st.target, scope);
      --f_.stringContext_;
      const bool text = target.ok && target.type == Type::String; // a String variable's value
      f_.stringContext_ += text;
      Value value = f_.lower(*st.value, scope);
      f_.stringContext_ -= text;
      if (target.ok && value.ok && !f_.handlesOfStrings(target, value, st.range, st.target->text))
        return;
      if (target.ok && value.ok && assignable(target))
        assign(target, value, *st.target, st.range);
      else if (target.ok && value.ok)
        assignSelected(*st.target, value, scope, st.range);
      return;
    }
    case ast::StatementKind::TupleAssign:
      tupleAssign(st, scope);
      return;
    case ast::StatementKind::Call:
      call(*st.value, scope);
      return;
    case ast::StatementKind::If:
      ifStatement(st, scope);
      return;
    case ast::StatementKind::For:
      forStatement(st, scope);
      return;
    case ast::StatementKind::When:
      if (!top || when_) {
        f_.diags_.error(st.range, "a when-statement cannot be inside another statement (MLS 3.5, 11.2.7)");
        return;
      }
      whenStatement(st, scope);
      return;
    case ast::StatementKind::While:
      f_.diags_.error(st.range, "while-loops are supported in functions only; call a function from the algorithm");
      return;
    case ast::StatementKind::Break:
      // The innermost loop ends (MLS 3.5, 11.2.6): what follows in it runs under `not broken`.
      if (!values_.count(kBroken)) {
        f_.diags_.error(st.range, "break is only allowed inside a loop (MLS 3.5, 11.2.6)");
        return;
      }
      values_[kBroken] = f_.ctx().boolean(true);
      return;
    case ast::StatementKind::Return:
      f_.diags_.error(st.range, "return is only allowed in functions (MLS 3.5, 11.2.5)");
      return;
    }
  }

  /// Whether every element of `target` is a variable the section assigns (else its subscripts
  /// select elements when the model runs, or it was reported when the targets were collected).
  bool assignable(const Value &target) {
    for (const Expr *t : target.elems)
      if (t->kind() != ExprKind::Var || !values_.count(t->var()))
        return false;
    return true;
  }

  /// `a[i, 1:n] := v` whose subscripts change when the model runs (MLS 3.5, 11.1.2 and 10.5):
  /// each element of `a` that some value of the subscripts selects becomes `if the subscripts
  /// select it then its part of v else its current value`.
  void assignSelected(const ast::Expr &targetAst, const Value &value, Scope &scope, SourceRange range) {
    if (targetAst.ref.size() != 1) {
      f_.diags_.error(targetAst.range,
                      "'" + targetAst.text +
                          "': eqc assigns elements that subscripts choose when the "
                          "model runs only of a variable named by one identifier ('x[i] := ...')");
      return;
    }
    Value whole = f_.lower(wholeVariable(targetAst), scope);
    if (!whole.ok || !assignable(whole))
      return;
    std::vector<int> dims;
    std::vector<const Expr *> varying;
    auto picked =
        f_.subscriptIndices(whole.dims, targetAst.ref[0].subscripts, scope, targetAst.text, dims, &varying);
    if (!picked)
      return;
    Value selected = whole; // the shape and type the value must have
    selected.dims = dims;
    selected.elems.clear();
    for (size_t k : *picked)
      selected.elems.push_back(whole.elems[k]);
    if (!compatible(selected, value, targetAst, range))
      return;
    std::vector<const Expr *> values, chosen(varying.size(), nullptr);
    for (const Expr *e : value.elems)
      values.push_back(current(e));
    for (size_t d = 0; d < varying.size(); ++d)
      chosen[d] = varying[d] ? current(varying[d]) : nullptr;
    outOfBoundsIsAnError(targetAst, whole.dims, chosen, scope, range);
    std::vector<size_t> strides(whole.dims.size(), 1);
    for (size_t d = whole.dims.size(); d-- > 1;)
      strides[d - 1] = strides[d] * static_cast<size_t>(whole.dims[d]);
    ExprContext &c = f_.ctx();
    auto broken = values_.find(kBroken);
    // Every choice of the varying subscripts (an odometer over their ranges), every element picked.
    std::vector<int> at(varying.size(), 1);
    for (bool more = true; more;) {
      const Expr *holds = c.boolean(true);
      size_t offset = 0;
      for (size_t d = 0; d < varying.size(); ++d)
        if (chosen[d]) {
          holds = c.logicalAnd(holds, c.eq(chosen[d], c.constant(at[d])));
          offset += static_cast<size_t>(at[d] - 1) * strides[d];
        }
      if (broken != values_.end())
        holds = c.logicalAnd(holds, c.logicalNot(broken->second));
      for (size_t k = 0; k < picked->size(); ++k) {
        const int var = whole.elems[(*picked)[k] + offset]->var();
        values_[var] = c.ifThenElse(holds, values[k], values_[var]);
        if (when_)
          when_->insert(var);
      }
      more = false;
      for (size_t d = varying.size(); d-- > 0 && !more;)
        if (chosen[d] && ++at[d] <= whole.dims[d])
          more = true;
        else if (chosen[d])
          at[d] = 1;
    }
  }

  /// A subscript chosen when the model runs must lie in its dimension (MLS 3.5, 10.5): an
  /// assertion where the assignment runs (in its branches, at its when-statement's events).
  void outOfBoundsIsAnError(const ast::Expr &targetAst, const std::vector<int> &dims,
                            const std::vector<const Expr *> &chosen, Scope &scope, SourceRange range) {
    ExprContext &c = f_.ctx();
    auto broken = values_.find(kBroken);
    if (broken != values_.end())
      f_.assertGuards_.push_back(c.logicalNot(broken->second));
    for (size_t d = 0; d < chosen.size(); ++d) {
      if (!chosen[d])
        continue;
      Assertion a;
      a.loc = range;
      a.origin = f_.origin(scope);
      a.message.push_back({"'" + targetAst.text + "': subscript " + std::to_string(d + 1) + " = ", nullptr,
                           ValueType::Real, "", {}});
      a.message.push_back({"", chosen[d], ValueType::Integer, "d", {}});
      a.message.push_back({" is out of bounds 1.." + std::to_string(dims[d]), nullptr, ValueType::Real, "", {}});
      const Expr *inside = c.logicalAnd(c.le(c.one(), chosen[d]), c.le(chosen[d], c.constant(dims[d])));
      f_.addAssertion(std::move(a), inside, range, when_ ? branch_ : nullptr);
    }
    if (broken != values_.end())
      f_.assertGuards_.pop_back();
  }

  /// Whether `value` may be assigned to `target` (shape and type), else an error.
  bool compatible(const Value &target, const Value &value, const ast::Expr &targetAst, SourceRange range) {
    if (value.type == Type::String) {
      f_.diags_.error(range, "a string is not allowed here");
      return false;
    }
    if (target.dims != value.dims) {
      f_.diags_.error(range, "'" + targetAst.text + "' is " + shapeText(target.dims) + " but the value is " +
                                 shapeText(value.dims));
      return false;
    }
    if ((target.type == Type::Boolean) != (value.type == Type::Boolean)) {
      f_.diags_.error(range, "'" + targetAst.text + "' is a " + typeName(target.type) + " but the value is a " +
                                 typeName(value.type));
      return false;
    }
    if (target.enumeration != value.enumeration) {
      f_.diags_.error(range, "'" + targetAst.text + "' and the value have different types (an enumeration and " +
                                 "another type, or two enumerations)");
      return false;
    }
    if (target.type == Type::Integer && value.type == Type::Real) {
      f_.diags_.error(range, "'" + targetAst.text + "' is an Integer but the value is a Real (use integer())");
      return false;
    }
    return true;
  }

  void assign(const Value &target, const Value &value, const ast::Expr &targetAst, SourceRange range) {
    if (!assignable(target) || !compatible(target, value, targetAst, range))
      return; // not assignable: reported when the targets were collected
    std::vector<const Expr *> values;
    for (const Expr *e : value.elems)
      values.push_back(current(e)); // every value first: `x := {x[2], x[1]}` swaps
    auto broken = values_.find(kBroken);
    for (size_t i = 0; i < target.size(); ++i) {
      const int var = target.elems[i]->var();
      if (broken != values_.end()) // after a break the variable keeps its value
        values[i] = f_.ctx().ifThenElse(broken->second, values_[var], values[i]);
      values_[var] = values[i];
      if (when_)
        when_->insert(var);
    }
  }

  void tupleAssign(const ast::Statement &st, Scope &scope) {
    const ast::Expr &callAst = *st.value;
    ClassInfo *fn = f_.findClass(callAst.text, scope.lexical);
    if (!fn || fn->kind() != ast::ClassKind::Function) {
      f_.diags_.error(callAst.nameRange, "'" + callAst.text + "' is not a function");
      return;
    }
    std::vector<Value> outputs;
    if (!f_.lowerUserCall(callAst, scope, fn, 0, &outputs).ok)
      return;
    if (st.target->args.size() > outputs.size()) {
      f_.diags_.error(st.target->range, "'" + callAst.text + "' has " + std::to_string(outputs.size()) +
                                            " output(s), not " + std::to_string(st.target->args.size()));
      return;
    }
    std::vector<std::pair<Value, size_t>> targets;
    for (size_t k = 0; k < st.target->args.size(); ++k)
      if (st.target->args[k]) {
        Value t = f_.lower(*st.target->args[k], scope);
        if (!t.ok)
          return;
        targets.emplace_back(std::move(t), k);
      }
    for (auto &[t, k] : targets)
      if (assignable(t))
        assign(t, outputs[k], *st.target->args[k], st.range);
      else
        assignSelected(*st.target->args[k], outputs[k], scope, st.range);
  }

  void call(const ast::Expr &callAst, Scope &scope) {
    if (callAst.text == "assert") {
      const auto *saved = f_.algorithmValues_;
      f_.algorithmValues_ = &values_;
      auto broken = values_.find(kBroken);
      if (broken != values_.end()) // not checked once a break ended the loop
        f_.assertGuards_.push_back(f_.ctx().logicalNot(broken->second));
      f_.lowerAssert(callAst, scope, section_.initial, when_ ? branch_ : nullptr);
      if (broken != values_.end())
        f_.assertGuards_.pop_back();
      f_.algorithmValues_ = saved;
      return;
    }
    if (callAst.text == "reinit" || callAst.text == "terminate") {
      if (!when_) {
        f_.diags_.error(callAst.nameRange, callAst.text + "() is only allowed inside a when-statement");
        return;
      }
      if (callAst.text == "terminate") {
        branch_->terminates = true;
        if (callAst.args.size() == 1 && callAst.args[0]->kind == ast::ExprKind::String)
          branch_->terminate = callAst.args[0]->text;
        return;
      }
      if (callAst.args.size() != 2) {
        f_.diags_.error(callAst.nameRange, "reinit(x, value) takes 2 arguments");
        return;
      }
      Value target = f_.lower(*callAst.args[0], scope);
      Value value = f_.lowerReal(*callAst.args[1], scope);
      if (!target.ok || !value.ok)
        return;
      if (target.dims != value.dims) {
        f_.diags_.error(callAst.range, "reinit(): the variable is " + shapeText(target.dims) + " but the value is " +
                                           shapeText(value.dims));
        return;
      }
      for (size_t i = 0; i < target.size(); ++i) {
        const Expr *t = target.elems[i];
        if (t->kind() != ExprKind::Var || f_.sys_.vars[t->var()].role != VarRole::Unknown) {
          f_.diags_.error(callAst.args[0]->range, "reinit() takes a state variable (a Real variable x of which der(x) occurs)");
          return;
        }
        branch_->reinits.emplace_back(t->var(), current(value.elems[i]));
        f_.reinitTargets_.emplace_back(t->var(), callAst.args[0]->range);
      }
      return;
    }
    // A function called as a statement runs for its effects (MLS 3.5, 11.2.3 and 12.3: its
    // assertions, the files it writes, what it prints), whether or not it has outputs.
    ClassInfo *fn = f_.findClass(callAst.text, scope.lexical);
    if (fn && fn->kind() == ast::ClassKind::Function && f_.resolveClass(*fn)) {
      const auto *saved = f_.algorithmValues_;
      f_.algorithmValues_ = &values_;
      auto broken = values_.find(kBroken);
      if (broken != values_.end())
        f_.assertGuards_.push_back(f_.ctx().logicalNot(broken->second));
      f_.lowerEffectCall(callAst, scope, section_.initial, when_ ? branch_ : nullptr);
      if (broken != values_.end())
        f_.assertGuards_.pop_back();
      f_.algorithmValues_ = saved;
      return;
    }
    f_.lower(callAst, scope);
  }

  void ifStatement(const ast::Statement &st, Scope &scope) {
    std::vector<const Expr *> conditions;
    for (const ast::ExprPtr &c : st.conditions) {
      Value v = f_.lowerBool(*c, scope);
      const Expr *cond = f_.scalar(v, *c, "the condition of an if-statement must be a scalar");
      if (!cond)
        return;
      conditions.push_back(current(cond));
    }
    // Each branch from the values before the statement; then v = if c1 then v1 elseif ... else v0.
    const std::unordered_map<int, const Expr *> before = values_;
    std::vector<std::unordered_map<int, const Expr *>> after;
    const Expr *earlier = f_.ctx().boolean(false);
    for (size_t b = 0; b < st.branches.size(); ++b) {
      const Expr *taken = f_.ctx().logicalNot(earlier);
      if (b < conditions.size()) {
        taken = f_.ctx().logicalAnd(taken, conditions[b]);
        earlier = f_.ctx().logicalOr(earlier, conditions[b]);
      }
      values_ = before;
      f_.assertGuards_.push_back(taken);
      block(st.branches[b], scope, false);
      f_.assertGuards_.pop_back();
      after.push_back(values_);
    }
    if (st.branches.size() == conditions.size())
      after.push_back(before); // no else: the values stay
    values_ = before;
    for (auto &[var, old] : before) {
      const Expr *merged = after.back().at(var);
      for (size_t b = conditions.size(); b-- > 0;)
        if (after[b].at(var) != merged)
          merged = f_.ctx().ifThenElse(conditions[b], after[b].at(var), merged);
      values_[var] = merged;
    }
  }

  /// A for-statement: its iterations unrolled, a break ending them under its condition.
  void forStatement(const ast::Statement &st, Scope &scope) {
    auto outer = values_.find(kBroken);
    const Expr *saved = outer != values_.end() ? outer->second : nullptr;
    values_[kBroken] = f_.ctx().boolean(false);
    forLoop(st, 0, scope);
    if (saved)
      values_[kBroken] = saved;
    else
      values_.erase(kBroken);
  }

  void forLoop(const ast::Statement &st, size_t k, Scope &scope) {
    if (k == st.indices.size()) {
      block(st.branches[0], scope, false);
      return;
    }
    const ast::ForIndex &idx = st.indices[k];
    const ClassInfo *enumeration = nullptr;
    bool boolean = false;
    std::optional<std::vector<double>> values;
    if (idx.in) {
      values = f_.iterationValues(*idx.in, scope, "the range of '" + idx.name + "'", &enumeration, &boolean);
    } else {
      std::vector<const ast::Expr *> uses;
      std::function<void(const std::vector<ast::Statement> &)> collect = [&](const std::vector<ast::Statement> &body) {
        for (const ast::Statement &sub : body) {
          uses.push_back(sub.target.get());
          uses.push_back(sub.value.get());
          for (const auto &c : sub.conditions)
            uses.push_back(c.get());
          for (const auto &b : sub.branches)
            collect(b);
        }
      };
      collect(st.branches[0]);
      values = f_.implicitRange(idx, uses, scope);
    }
    if (!values)
      return;
    const unsigned errors = f_.diags_.errorCount();
    for (double x : *values) {
      if (!f_.countIteration(idx.range))
        break;
      scope.loops.emplace_back(idx.name, f_.loopValue(x, enumeration, boolean));
      forLoop(st, k + 1, scope);
      scope.loops.pop_back();
      if (f_.diags_.errorCount() != errors)
        break;
    }
  }

  /// A when-statement: a when-clause whose branches assign the values their statements leave
  /// (a variable a branch does not assign keeps its value).
  void whenStatement(const ast::Statement &st, Scope &scope) {
    if (section_.initial) {
      f_.diags_.error(st.range, "a when-statement is not allowed in an initial algorithm section");
      return;
    }
    WhenClause clause;
    clause.loc = st.range;
    clause.origin = f_.origin(scope);
    clause.algorithm = id_;
    Scope inner = scope;
    inner.context = Context::When;
    const std::unordered_map<int, const Expr *> before = values_;
    std::set<int> assignedInWhen;
    std::vector<std::unordered_map<int, const Expr *>> after;
    for (size_t b = 0; b < st.conditions.size(); ++b) {
      WhenBranch branch;
      branch.loc = st.conditions[b]->range;
      // Each condition reads the values before the statement, not those an earlier branch assigns.
      values_ = before;
      Value cond = f_.lowerBool(*st.conditions[b], scope);
      if (!cond.ok)
        return;
      if (cond.dims.size() > 1) {
        f_.diags_.error(st.conditions[b]->range, "a when-condition is a Boolean or a vector of them");
        return;
      }
      for (const Expr *c : cond.elems)
        branch.conditions.push_back(current(c));
      values_ = before;
      std::set<int> assigned;
      when_ = &assigned;
      branch_ = &branch;
      block(st.branches[b], inner, false);
      when_ = nullptr;
      branch_ = nullptr;
      assignedInWhen.insert(assigned.begin(), assigned.end());
      after.push_back(values_);
      clause.branches.push_back(std::move(branch));
    }
    for (size_t b = 0; b < clause.branches.size(); ++b)
      for (int var : assignedInWhen) {
        clause.branches[b].assignments.emplace_back(var, after[b].at(var));
        f_.whenAssigned_.emplace(var, targetRange_[var]);
      }
    // After the statement the variables hold what the clause gave them at the last event.
    values_ = before;
    for (int var : assignedInWhen)
      values_[var] = f_.ctx().var(var, f_.sys_.vars[var].type == ValueType::Boolean);
    f_.sys_.whens.push_back(std::move(clause));
  }

  Flattener &f_;
  const ast::AlgorithmSection &section_;
  Scope &scope_;
  const int id_; ///< this section's number among the model's algorithm sections (WhenClause::algorithm)
  std::vector<int> assigned_; ///< in the order of their first assignment in the text
  std::unordered_map<int, SourceRange> targetRange_;
  std::unordered_set<int> whenTargets_, outsideWhen_, mixed_;
  std::unordered_map<int, const Expr *> values_;
  /// The key in values_ of the condition that a break ended the innermost loop (present inside
  /// loops only; no variable has it).
  static constexpr int kBroken = -1;
  std::set<int> *when_ = nullptr; ///< inside a when-statement's branch: what it assigns
  WhenBranch *branch_ = nullptr;
};

void Flattener::lowerAlgorithm(const ast::AlgorithmSection &section, Scope &scope) {
  AlgorithmLowering(*this, section, scope).run();
}

} // namespace eqc::frontend
