// Forward sensitivity equations by symbolic differentiation of every equation along a parameter,
// and their jumps at events.
#include "middle/Sensitivities.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <unordered_map>

namespace eqc {
namespace {

/// The derivatives along one parameter p: of parameters (through their bindings), of unknowns,
/// discrete Reals and their derivatives (the new variables), of expressions.
class Along {
public:
  Along(FlatSystem &flat, Differentiator &diff, size_t sensitivity)
      : flat_(flat), ctx_(*flat.ctx), diff_(diff), sensitivity_(sensitivity),
        p_(flat.sensitivities[sensitivity].parameter) {}

  /// d(e)/dp for an expression of parameters, unknowns, discrete variables, their derivatives and
  /// pre(), at fixed time.
  const Expr *of(const Expr *e) {
    std::vector<const Expr *> terms;
    for (int v : collectVars(e)) {
      const Expr *dv = variable(v);
      if (dv != ctx_.zero())
        terms.push_back(ctx_.mul(diff_.diff(e, v), dv));
    }
    // pre(v) is a leaf: differentiated through a placeholder variable (an index no variable has),
    // its derivative pre(d(v)/d(p)).
    std::unordered_map<int, const Expr *> placeholders, closed;
    std::vector<std::pair<int, int>> pres; // placeholder, d(v)/d(p)
    forEachNode(e, [&](const Expr *n) {
      if (n->kind() == ExprKind::Pre && !placeholders.count(n->var())) {
        if (int s = sensitivityVar(n->var()); s >= 0) {
          const int placeholder = kPlaceholders + n->var();
          placeholders.emplace(n->var(), ctx_.var(placeholder));
          closed.emplace(placeholder, n);
          pres.emplace_back(placeholder, s);
        }
      }
      return Walk::Descend;
    });
    if (!pres.empty()) {
      const Expr *opened = substitutePre(ctx_, e, placeholders);
      for (auto &[placeholder, s] : pres)
        terms.push_back(ctx_.mul(substitute(ctx_, diff_.diff(opened, placeholder), closed), ctx_.pre(s)));
    }
    return ctx_.add(std::move(terms));
  }

  /// d(e)/dp at an event whose time t_e depends on p: of(e) + (d(e)/d(time)) d(t_e)/d(p), where
  /// the states' sensitivities already include their motion over d(t_e)/d(p) (see
  /// eqc_model.sensitivity_event_time).
  const Expr *atEvent(const Expr *e) {
    const Expr *d = of(e);
    const int eventTime = flat_.sensitivities[sensitivity_].eventTime;
    const Expr *dt = diff_.diff(e, Differentiator::kTime);
    return dt == ctx_.zero() || eventTime < 0 ? d : ctx_.add(d, ctx_.mul(dt, ctx_.var(eventTime)));
  }

  /// The variable d(v)/dp of an unknown, a discrete Real or a derivative, or -1.
  int sensitivityVar(int v) const { return sensitivityOf(flat_, flat_.sensitivities[sensitivity_], v); }

private:
  /// The placeholder of pre(v) is variable kPlaceholders + v.
  static constexpr int kPlaceholders = 1 << 29;

  /// d(v)/dp: 1 for p, a bound parameter's binding differentiated, the new variable of an unknown
  /// or a discrete Real, der of that of a derivative; 0 for anything else (other parameters,
  /// Booleans and Integers).
  const Expr *variable(int v) {
    const Variable &var = flat_.vars[static_cast<size_t>(v)];
    if (v == p_)
      return ctx_.one();
    if (var.role == VarRole::Parameter) {
      if (!var.binding)
        return ctx_.zero();
      auto [it, fresh] = parameters_.try_emplace(v, nullptr);
      if (fresh)
        it->second = of(var.binding);
      return it->second;
    }
    if (var.role == VarRole::Derivative) {
      int below = sensitivityVar(var.derivativeOf);
      return below >= 0 ? ctx_.var(flat_.derivativeVar(below)) : ctx_.zero();
    }
    int s = sensitivityVar(v);
    return s >= 0 ? ctx_.var(s) : ctx_.zero();
  }

  FlatSystem &flat_;
  ExprContext &ctx_;
  Differentiator &diff_;
  size_t sensitivity_;
  int p_;
  std::unordered_map<int, const Expr *> parameters_;
};

/// The parameter named `name`, or -1 with an error.
int findParameter(const FlatSystem &flat, const std::string &name, Diagnostics &diags) {
  for (size_t v = 0; v < flat.vars.size(); ++v) {
    const Variable &var = flat.vars[v];
    if (var.name != name)
      continue;
    std::string why = var.role != VarRole::Parameter ? "is not a parameter"
                      : var.type != ValueType::Real  ? "is not a Real parameter"
                      : var.structural               ? "is fixed when compiled (array sizes, loop ranges, "
                                                       "which equations exist, Evaluate = true, a final binding)"
                      : var.object                   ? "is an external object"
                                                     : "";
    if (why.empty())
      return static_cast<int>(v);
    diags.error(var.loc, "--sensitivities: '" + name + "' " + why + ": sensitivities are with respect to Real "
                         "parameters");
    return -1;
  }
  diags.error(flat.loc, "--sensitivities: model '" + flat.modelName + "' has no parameter '" + name + "'");
  return -1;
}

/// Whether v has a sensitivity: an unknown, or a discrete Real that is not a condition (a
/// relation's value) or an impure call's value.
bool hasSensitivity(const Variable &v) {
  return v.role == VarRole::Unknown ||
         (v.role == VarRole::Discrete && v.type == ValueType::Real && !v.relation && !v.heldCall);
}

/// Whether the model has discrete variables: events (when-clauses, conditions of relations).
bool hasDiscretes(const FlatSystem &flat) {
  return std::any_of(flat.vars.begin(), flat.vars.end(),
                     [](const Variable &v) { return v.role == VarRole::Discrete; });
}

/// The variables d(v)/d(p) of sensitivity `k` (its `of`), with their start values and, in a model
/// with events, d(t_e)/d(p).
void addVariables(FlatSystem &flat, size_t k, size_t originalVars, bool events) {
  SensitivityParameter &sp = flat.sensitivities[k];
  const std::string p = flat.vars[static_cast<size_t>(sp.parameter)].name;
  sp.of.assign(originalVars, -1);
  for (size_t v = 0; v < originalVars; ++v) {
    if (!hasSensitivity(flat.vars[v]))
      continue;
    const Variable &var = flat.vars[v];
    Variable s;
    s.name = "d(" + var.name + ")/d(" + p + ")";
    s.description = "sensitivity of " + var.name + " to " + p;
    s.loc = var.loc;
    s.role = var.role;
    s.fixed = var.fixed;
    s.generated = var.generated;
    sp.of[v] = static_cast<int>(flat.vars.size());
    flat.vars.push_back(std::move(s));
  }
  if (events) {
    Variable t;
    t.name = "d(time of event)/d(" + p + ")";
    t.description = "derivative of the time of the event being handled with respect to " + p;
    t.loc = flat.loc;
    t.role = VarRole::Discrete;
    t.binding = flat.ctx->zero();
    t.hasStart = true;
    t.generated = true;
    sp.eventTime = static_cast<int>(flat.vars.size());
    flat.vars.push_back(std::move(t));
  }
}

/// The jumps of sensitivity `k` at events: every when-branch that assigns a discrete Real or
/// reinitializes a state assigns or reinitializes its sensitivity too, every discrete equation of
/// a discrete Real has one for its sensitivity, and every condition's indicator has its
/// derivative along p (eqc_model.indicator_sensitivities).
void addEventParts(FlatSystem &flat, Along &along, size_t k) {
  auto sensitivity = [&](int v) { return along.sensitivityVar(v); };
  for (WhenClause &w : flat.whens)
    for (WhenBranch &br : w.branches) {
      for (auto *list : {&br.assignments, &br.reinits}) {
        const size_t count = list->size();
        for (size_t i = 0; i < count; ++i)
          if (int s = sensitivity((*list)[i].first); s >= 0)
            list->emplace_back(s, along.atEvent((*list)[i].second));
      }
    }
  const size_t discreteEquations = flat.discreteEquations.size();
  for (size_t i = 0; i < discreteEquations; ++i)
    if (int s = sensitivity(flat.discreteEquations[i].var); s >= 0) {
      DiscreteEquation eq = flat.discreteEquations[i];
      eq.var = s;
      eq.value = along.atEvent(eq.value);
      flat.discreteEquations.push_back(eq);
    }
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (const Expr *r = flat.vars[v].relation)
      flat.sensitivities[k].indicators.emplace_back(static_cast<int>(v),
                                                    along.of(flat.ctx->sub(r->op(1), r->op(0))));
}

} // namespace

int sensitivityOf(const FlatSystem &flat, const SensitivityParameter &s, int v) {
  const Variable &var = flat.vars[static_cast<size_t>(v)];
  if (var.role == VarRole::Derivative) {
    int below = sensitivityOf(flat, s, var.derivativeOf);
    return below >= 0 ? flat.vars[static_cast<size_t>(below)].derivative : -1;
  }
  return static_cast<size_t>(v) < s.of.size() ? s.of[static_cast<size_t>(v)] : -1;
}

bool checkSensitivityStates(const FlatSystem &flat, const std::vector<int> &states,
                            const std::vector<int> &discretes, Diagnostics &diags) {
  std::vector<char> isState(flat.vars.size(), 0), isDiscrete(flat.vars.size(), 0);
  for (int v : states)
    isState[static_cast<size_t>(v)] = 1;
  for (int v : discretes)
    isDiscrete[static_cast<size_t>(v)] = 1;
  for (const SensitivityParameter &s : flat.sensitivities) {
    if (s.eventTime < 0)
      continue; // no events
    if (!isDiscrete[static_cast<size_t>(s.eventTime)]) {
      diags.error(flat.loc, "internal: --sensitivities: the event time's derivative '" +
                                flat.vars[static_cast<size_t>(s.eventTime)].name +
                                "' is not a discrete variable of the model");
      return false;
    }
    for (int v : states) {
      const int sv = sensitivityOf(flat, s, v);
      if (sv >= 0 && !isState[static_cast<size_t>(sv)]) {
        diags.error(
            flat.vars[static_cast<size_t>(v)].loc,
            "--sensitivities: '" + flat.varName(v) + "' is a state but its sensitivity '" + flat.varName(sv) +
                "' is not (the index reduction chose other states for the sensitivity equations): its "
                "jump at events cannot be made; eqc supports sensitivities across events where the "
                "states keep theirs");
        return false;
      }
    }
  }
  return true;
}

bool addSensitivities(FlatSystem &flat, const std::vector<std::string> &parameters, Diagnostics &diags) {
  // (Inputs are given functions of time, which the parameters do not change: their
  // sensitivities are 0.)
  if (!flat.delayLocs.empty()) {
    diags.error(flat.delayLocs.front(),
                "--sensitivities: model '" + flat.modelName +
                    "' has delay(); eqc generates sensitivities of models without delays");
    return false;
  }
  for (const std::string &name : parameters) {
    int p = findParameter(flat, name, diags);
    if (p < 0)
      return false;
    flat.sensitivities.emplace_back().parameter = p;
  }
  ExprContext &ctx = *flat.ctx;
  Differentiator diff(ctx);
  const size_t originalVars = flat.vars.size(), equations = flat.equations.size(),
               initialEquations = flat.initialEquations.size();
  const bool events = hasDiscretes(flat);
  for (size_t k = 0; k < flat.sensitivities.size(); ++k) {
    addVariables(flat, k, originalVars, events);
    Along along(flat, diff, k);
    for (size_t v = 0; v < originalVars; ++v) {
      const int s = flat.sensitivities[k].of[v];
      if (s < 0 || !flat.vars[v].hasStart)
        continue;
      const Expr *start = flat.vars[v].binding ? along.of(flat.vars[v].binding) : ctx.zero();
      Variable &var = flat.vars[static_cast<size_t>(s)];
      var.hasStart = true;
      var.binding = start;
    }
    auto extend = [&](std::vector<Equation> &section, size_t count) {
      for (size_t i = 0; i < count; ++i) {
        Equation e = section[i];
        e.lhs = along.of(flat.residual(section[i]));
        e.rhs = ctx.zero();
        e.residualOf = {nullptr, nullptr};
        e.cachedResidual = nullptr;
        section.push_back(e);
      }
    };
    extend(flat.equations, equations);
    extend(flat.initialEquations, initialEquations);
    if (events)
      addEventParts(flat, along, k);
  }
  return true;
}

} // namespace eqc
