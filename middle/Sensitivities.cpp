// Forward sensitivity equations by symbolic differentiation of every equation along a parameter.
#include "middle/Sensitivities.h"

#include "middle/ExprOps.h"

#include <unordered_map>

namespace eqc {
namespace {

/// The derivatives along one parameter p: of parameters (through their bindings), of unknowns and
/// their derivatives (the new variables), of expressions.
class Along {
public:
  Along(FlatSystem &flat, Differentiator &diff, int p, const std::vector<int> &sensitivityOf)
      : flat_(flat), ctx_(*flat.ctx), diff_(diff), p_(p), sensitivityOf_(sensitivityOf) {}

  /// d(e)/dp for an expression of parameters, unknowns and their derivatives.
  const Expr *of(const Expr *e) {
    std::vector<const Expr *> terms;
    for (int v : collectVars(e)) {
      const Expr *dv = variable(v);
      if (dv != ctx_.zero())
        terms.push_back(ctx_.mul(diff_.diff(e, v), dv));
    }
    return ctx_.add(std::move(terms));
  }

private:
  /// d(v)/dp: 1 for p, a bound parameter's binding differentiated, the new unknown of an unknown,
  /// der of that of a derivative; 0 for anything else (other parameters, time).
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
    int s = sensitivityVar(v);
    return s >= 0 ? ctx_.var(s) : ctx_.zero();
  }

  int sensitivityVar(int v) {
    const Variable &var = flat_.vars[static_cast<size_t>(v)];
    if (var.role == VarRole::Unknown)
      return sensitivityOf_[static_cast<size_t>(v)];
    if (var.role == VarRole::Derivative) {
      int below = sensitivityVar(var.derivativeOf);
      return below >= 0 ? flat_.derivativeVar(below) : -1;
    }
    return -1;
  }

  FlatSystem &flat_;
  ExprContext &ctx_;
  Differentiator &diff_;
  int p_;
  const std::vector<int> &sensitivityOf_;
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

} // namespace

bool addSensitivities(FlatSystem &flat, const std::vector<std::string> &parameters, Diagnostics &diags) {
  std::string unsupported;
  for (const Variable &v : flat.vars)
    if (v.role == VarRole::Discrete && unsupported.empty())
      unsupported = "events (its condition or discrete variable '" + v.name + "')";
    else if (v.role == VarRole::Input && unsupported.empty())
      unsupported = "inputs ('" + v.name + "')";
  if (!flat.delayLocs.empty() && unsupported.empty())
    unsupported = "delay()";
  if (!unsupported.empty()) {
    diags.error(flat.loc, "--sensitivities: model '" + flat.modelName + "' has " + unsupported +
                              "; eqc generates sensitivities of continuous models without inputs and delays "
                              "(sensitivities jump at events by rules it does not generate yet)");
    return false;
  }
  std::vector<int> ps;
  for (const std::string &name : parameters) {
    int p = findParameter(flat, name, diags);
    if (p < 0)
      return false;
    ps.push_back(p);
  }
  ExprContext &ctx = *flat.ctx;
  Differentiator diff(ctx);
  const size_t originalVars = flat.vars.size(), equations = flat.equations.size(),
               initialEquations = flat.initialEquations.size();
  for (int p : ps) {
    // One new unknown per unknown, in the order of the unknowns.
    std::vector<int> sensitivityOf(originalVars, -1);
    for (size_t v = 0; v < originalVars; ++v) {
      if (flat.vars[v].role != VarRole::Unknown)
        continue;
      Variable s;
      s.name = "d(" + flat.vars[v].name + ")/d(" + flat.vars[static_cast<size_t>(p)].name + ")";
      s.description = "sensitivity of " + flat.vars[v].name + " to " + flat.vars[static_cast<size_t>(p)].name;
      s.loc = flat.vars[v].loc;
      s.fixed = flat.vars[v].fixed;
      sensitivityOf[v] = static_cast<int>(flat.vars.size());
      flat.vars.push_back(std::move(s));
    }
    Along along(flat, diff, p, sensitivityOf);
    for (size_t v = 0; v < originalVars; ++v) {
      if (sensitivityOf[v] < 0 || !flat.vars[v].hasStart)
        continue;
      const Expr *start = flat.vars[v].binding ? along.of(flat.vars[v].binding) : ctx.zero();
      Variable &s = flat.vars[static_cast<size_t>(sensitivityOf[v])];
      s.hasStart = true;
      s.binding = start;
    }
    auto extend = [&](std::vector<Equation> &section, size_t count) {
      for (size_t k = 0; k < count; ++k) {
        Equation e = section[k];
        e.lhs = along.of(flat.residual(section[k]));
        e.rhs = ctx.zero();
        e.residualOf = {nullptr, nullptr};
        e.cachedResidual = nullptr;
        section.push_back(e);
      }
    };
    extend(flat.equations, equations);
    extend(flat.initialEquations, initialEquations);
  }
  return true;
}

} // namespace eqc
