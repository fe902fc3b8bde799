// Conditions and event indicators from the relations of a model.
#include "middle/Events.h"

#include "middle/ExprOps.h"
#include "middle/Function.h"

#include <functional>
#include <limits>
#include <unordered_map>

namespace eqc {
namespace {

/// Appends a discrete variable made by eqc (a condition, a when-condition, floor(u) and the like);
/// returns its index.
int addGenerated(FlatSystem &flat, std::string name, ValueType type, SourceRange loc, const Expr *relation = nullptr) {
  Variable v;
  v.name = std::move(name);
  v.role = VarRole::Discrete;
  v.type = type;
  v.loc = loc;
  v.relation = relation;
  v.generated = true;
  flat.vars.push_back(std::move(v));
  return static_cast<int>(flat.vars.size()) - 1;
}

class ConditionExtractor {
public:
  explicit ConditionExtractor(FlatSystem &flat) : flat_(flat), ctx_(*flat.ctx) {}

  const Expr *rewrite(const Expr *e, SourceRange loc) {
    auto it = memo_.find(e);
    if (it != memo_.end())
      return it->second;
    const Expr *result = e;
    if (e->kind() == ExprKind::NoEvent) {
      result = e;
    } else if ((e->kind() == ExprKind::Lt || e->kind() == ExprKind::Le) && dynamic(e)) {
      result = condition(e, loc);
    } else if (e->kind() == ExprKind::Call && dynamic(e) &&
               builtinInfo(e->builtin()).events == BuiltinEvents::Steps) {
      result = piecewiseConstant(e, rewrite(e->op(0), loc), loc);
    } else if (e->kind() == ExprKind::Call && dynamic(e) &&
               builtinInfo(e->builtin()).events == BuiltinEvents::Jumps) {
      result = rewrite(expandJumps(ctx_, e), loc);
    } else if (e->numOps()) {
      std::vector<const Expr *> ops;
      bool changed = false;
      for (const Expr *op : e->ops()) {
        ops.push_back(rewrite(op, loc));
        changed = changed || ops.back() != op;
      }
      if (changed)
        result = rebuild(ctx_, e, ops);
    }
    memo_.emplace(e, result);
    return result;
  }

  /// `e` with the relations that are conditions already (of the equations) read as those
  /// conditions, the others left literal: no new events.
  const Expr *readConditions(const Expr *e) {
    if (e->kind() == ExprKind::NoEvent)
      return e;
    if (e->kind() == ExprKind::Lt || e->kind() == ExprKind::Le) {
      auto known = conditions_.find(e);
      if (known != conditions_.end())
        return known->second;
    }
    if (!e->numOps())
      return e;
    std::vector<const Expr *> ops;
    bool changed = false;
    for (const Expr *op : e->ops()) {
      ops.push_back(readConditions(op));
      changed = changed || ops.back() != op;
    }
    return changed ? rebuild(ctx_, e, ops) : e;
  }

private:
  /// Depends on time or a continuous unknown (not through noEvent).
  bool dynamic(const Expr *e) {
    auto it = dynamic_.find(e);
    if (it != dynamic_.end())
      return it->second;
    bool d = false;
    switch (e->kind()) {
    case ExprKind::Time:
      d = true;
      break;
    case ExprKind::Var:
      d = !flat_.vars[e->var()].isKnown() || flat_.vars[e->var()].isTimeVaryingKnown();
      break;
    default:
      for (const Expr *op : e->ops())
        d = d || dynamic(op);
    }
    dynamic_.emplace(e, d);
    return d;
  }

  const Expr *condition(const Expr *relation, SourceRange loc) {
    auto known = conditions_.find(relation);
    if (known != conditions_.end())
      return known->second;
    VarNamer namer = [this](int v) { return flat_.varName(v); };
    int index = addGenerated(flat_, toString(relation, namer), ValueType::Boolean, loc, relation);
    const Expr *var = ctx_.var(index, true);
    conditions_.emplace(relation, var);
    return var;
  }

  /// floor(u), ceil(u) and sign(u) of a continuous u jump where u crosses an integer (or 0):
  /// floor(u) becomes a discrete variable m, updated at events, with the conditions m <= u and
  /// u < m + 1 whose changes are those events (ceil alike); sign(u) becomes
  /// `if 0 < u then 1 elseif u < 0 then -1 else 0` of two conditions.
  /// At an event m takes floor(u)'s right limit, which the conditions know (they look just after
  /// the event where an indicator is at 0): where u reaches an integer k going down, floor(u) is
  /// k but the right limit is k - 1. So m keeps its value while both conditions hold and is
  /// otherwise the right limit from the side the failing condition names:
  ///   floor: m = if m <= u and u < m + 1 then m elseif m <= u then floor(u) else ceil(u) - 1
  ///   ceil:  m = if m - 1 < u and u <= m then m elseif u <= m then ceil(u) else floor(u) + 1
  const Expr *piecewiseConstant(const Expr *call, const Expr *u, SourceRange loc) {
    ExprContext &c = ctx_;
    if (call->builtin() == Builtin::Sign)
      return c.ifThenElse(condition(c.lt(c.zero(), u), loc), c.one(),
                          c.ifThenElse(condition(c.lt(u, c.zero()), loc), c.constant(-1), c.zero()));
    VarNamer namer = [this](int v) { return flat_.varName(v); };
    const Expr *live = c.call(call->builtin(), {u});
    int index = addGenerated(flat_, toString(live, namer), ValueType::Real, loc);
    const Expr *mv = c.var(index);
    const Expr *value = nullptr;
    if (call->builtin() == Builtin::Floor) {
      const Expr *below = condition(c.le(mv, u), loc), *above = condition(c.lt(u, c.add(mv, c.one())), loc);
      value = c.ifThenElse(c.logicalAnd(below, above), mv,
                           c.ifThenElse(below, live, c.sub(c.call(Builtin::Ceil, {u}), c.one())));
    } else {
      const Expr *below = condition(c.lt(c.sub(mv, c.one()), u), loc), *above = condition(c.le(u, mv), loc);
      value = c.ifThenElse(c.logicalAnd(below, above), mv,
                           c.ifThenElse(above, live, c.add(c.call(Builtin::Floor, {u}), c.one())));
    }
    flat_.discreteEquations.push_back(DiscreteEquation{index, value, loc, 0, -1});
    return mv;
  }

  FlatSystem &flat_;
  ExprContext &ctx_;
  std::unordered_map<const Expr *, const Expr *> memo_;
  std::unordered_map<const Expr *, bool> dynamic_;
  std::unordered_map<const Expr *, const Expr *> conditions_; ///< relation → its condition
};

} // namespace

namespace {

bool containsInitial(const Expr *e) {
  std::vector<const Expr *> stack{e};
  while (!stack.empty()) {
    const Expr *n = stack.back();
    stack.pop_back();
    if (n->kind() == ExprKind::Initial)
      return true;
    for (const Expr *op : n->ops())
      stack.push_back(op);
  }
  return false;
}

/// Discrete equations after the ones that define what they read (Kahn's order, stable); the
/// equations of a cycle keep their order (the event iteration settles them).
void sortDiscreteEquations(FlatSystem &flat) {
  std::vector<DiscreteEquation> &eqs = flat.discreteEquations;
  std::unordered_map<int, size_t> definedBy;
  for (size_t i = 0; i < eqs.size(); ++i)
    definedBy[eqs[i].var] = i;
  std::vector<std::vector<size_t>> readers(eqs.size());
  std::vector<int> pending(eqs.size(), 0);
  for (size_t i = 0; i < eqs.size(); ++i)
    for (int v : collectVars(eqs[i].value)) {
      auto it = definedBy.find(v);
      if (it != definedBy.end() && it->second != i) {
        readers[it->second].push_back(i);
        ++pending[i];
      }
    }
  std::vector<size_t> order;
  std::vector<char> placed(eqs.size(), 0);
  for (size_t round = 0; order.size() < eqs.size(); ++round) {
    bool progress = false;
    for (size_t i = 0; i < eqs.size(); ++i) {
      if (placed[i] || pending[i])
        continue;
      // Stable: take every ready equation in source order, then release its readers.
      placed[i] = 1;
      order.push_back(i);
      progress = true;
      for (size_t r : readers[i])
        --pending[r];
    }
    if (!progress)
      for (size_t i = 0; i < eqs.size(); ++i)
        if (!placed[i]) { // a cycle: break it at the first equation left
          placed[i] = 1;
          order.push_back(i);
          for (size_t r : readers[i])
            --pending[r];
          break;
        }
  }
  std::vector<DiscreteEquation> sorted;
  for (size_t i : order)
    sorted.push_back(eqs[i]);
  eqs = std::move(sorted);
}

/// Whether a call of a function has effects or answers differently each time: declared impure
/// (MLS 3.5, 12.3), or calling such a function in its body.
class Impurity {
public:
  explicit Impurity(const ExprContext &ctx) : ctx_(ctx), known_(ctx.numFunctions(), Unknown) {}

  bool of(int fn) {
    if (known_[fn] == Unknown) {
      known_[fn] = Pure; // (a recursive call decides nothing)
      known_[fn] = ctx_.function(fn).impure || calls(ctx_.function(fn).body) ? Impure : Pure;
    }
    return known_[fn] == Impure;
  }

private:
  enum State : signed char { Unknown, Pure, Impure };

  bool calls(const Expr *e) {
    bool found = false;
    if (e)
      forEachNode(e, [&](const Expr *n) {
        found = n->kind() == ExprKind::FnCall && of(n->function());
        return found ? Walk::Stop : Walk::Descend;
      });
    return found;
  }
  bool calls(const std::vector<FnStatement> &block) {
    for (const FnStatement &s : block) {
      if (calls(s.value) || calls(s.index) || calls(s.step) || calls(s.stop))
        return true;
      for (const Expr *c : s.conditions)
        if (calls(c))
          return true;
      for (const auto &inner : s.blocks)
        if (calls(inner))
          return true;
    }
    return false;
  }

  const ExprContext &ctx_;
  std::vector<State> known_;
};

/// In every when-branch, an impure call becomes once(call), held in a discrete variable of its
/// own (EQC_DISCRETE_ONCE): a step of the event iteration may evaluate a branch several times (its
/// passes with pre() fixed, the initialization's passes), but Modelica solves each step once, so
/// a message prints once and a random number is drawn once.
void holdImpureCalls(FlatSystem &flat) {
  if (flat.whens.empty())
    return;
  ExprContext &ctx = *flat.ctx;
  Impurity impurity(ctx);
  std::unordered_map<const Expr *, const Expr *> memo;
  std::function<const Expr *(const Expr *, SourceRange)> hold = [&](const Expr *e,
                                                                    SourceRange loc) -> const Expr * {
    if (e->numOps() == 0 && e->kind() != ExprKind::FnCall)
      return e;
    if (auto it = memo.find(e); it != memo.end())
      return it->second;
    std::vector<const Expr *> ops;
    bool same = true;
    for (const Expr *op : e->ops()) {
      ops.push_back(hold(op, loc));
      same = same && ops.back() == op;
    }
    const Expr *result = same ? e : rebuild(ctx, e, ops);
    if (result->kind() == ExprKind::FnCall && impurity.of(result->function())) {
      Variable v;
      v.name =
          "once(" + ctx.function(result->function()).name + ", " + std::to_string(flat.vars.size()) + ")";
      v.role = VarRole::Discrete;
      v.type = result->isBool() ? ValueType::Boolean : ValueType::Real;
      v.loc = loc;
      v.binding = ctx.constant(std::numeric_limits<double>::quiet_NaN());
      v.hasStart = true;
      v.generated = true;
      v.heldCall = true;
      flat.vars.push_back(std::move(v));
      result = ctx.once(static_cast<int>(flat.vars.size()) - 1, result);
    }
    memo.emplace(e, result);
    return result;
  };
  for (WhenClause &w : flat.whens)
    for (WhenBranch &b : w.branches) {
      memo.clear(); // a call in two branches is evaluated in each
      for (auto &[v, e] : b.assignments)
        e = hold(e, b.loc);
      for (auto &[v, e] : b.reinits)
        e = hold(e, b.loc);
    }
}

} // namespace

void extractConditions(FlatSystem &flat) {
  holdImpureCalls(flat);
  ConditionExtractor x(flat);
  // Rewriting may add discrete equations (m = floor(u)): those are final already, and rewriting
  // them would read m = m.
  const size_t given = flat.discreteEquations.size();
  for (Equation &eq : flat.equations) {
    eq.lhs = x.rewrite(eq.lhs, eq.loc);
    eq.rhs = x.rewrite(eq.rhs, eq.loc);
  }
  for (size_t i = 0; i < given; ++i) {
    const Expr *value = x.rewrite(flat.discreteEquations[i].value, flat.discreteEquations[i].loc);
    flat.discreteEquations[i].value = value;
  }
  VarNamer namer = [&flat](int v) { return flat.varName(v); };
  std::unordered_map<const Expr *, const Expr *> whenVars;
  for (WhenClause &w : flat.whens)
    for (WhenBranch &b : w.branches) {
      b.initial.clear();
      for (const Expr *&c : b.conditions) {
        b.initial.push_back(containsInitial(c));
        c = x.rewrite(c, b.loc);
        if (c->kind() == ExprKind::Var && flat.vars[c->var()].role == VarRole::Discrete)
          continue;
        auto known = whenVars.find(c);
        if (known != whenVars.end()) {
          c = known->second;
          continue;
        }
        int index = addGenerated(flat, "when " + toString(c, namer), ValueType::Boolean, b.loc);
        flat.discreteEquations.push_back(DiscreteEquation{index, c, b.loc, 0, w.origin});
        const Expr *var = flat.ctx->var(index, true);
        whenVars.emplace(c, var);
        c = var;
      }
    }
  // An assert is an equation (MLS 3.5, 8.3.7): a relation of it that the equations have too
  // holds its value between events as theirs does (8.5), so that the assertion reads the same
  // side at an event as the equations; its own relations stay literal (they make no events:
  // it is checked at steps and events, where it fails located by bisection).
  for (Assertion &a : flat.assertions)
    a.condition = x.readConditions(a.condition);
  sortDiscreteEquations(flat);
}

const Expr *eventIndicator(FlatSystem &flat, int v) {
  const Expr *r = flat.vars[v].relation;
  return flat.ctx->sub(r->op(1), r->op(0));
}

} // namespace eqc
