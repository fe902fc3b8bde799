// Storage assignment and the two equation systems (simulation, initialization) of an ODE model.
#include "middle/OdeModel.h"

#include "middle/ExprOps.h"

namespace eqc {

OdeModel setupOdeModel(const FlatSystem &flat, Diagnostics &diags) {
  OdeModel m;
  m.slots.resize(flat.vars.size());
  for (size_t i = 0; i < flat.vars.size(); ++i) {
    const Variable &v = flat.vars[i];
    int vi = static_cast<int>(i);
    if (v.role == VarRole::Parameter) {
      m.slots[i] = {Storage::Param, static_cast<int>(m.params.size())};
      m.params.push_back(vi);
    } else if (v.derivative >= 0) {
      m.slots[i] = {Storage::State, static_cast<int>(m.states.size())};
      m.states.push_back(vi);
    } else if (v.role == VarRole::Unknown) {
      m.slots[i] = {Storage::Algebraic, static_cast<int>(m.algebraics.size())};
      m.algebraics.push_back(vi);
    }
  }
  // A highest derivative lives in dx at its state's slot; a derivative that is itself a state
  // feeds dx by a copy.
  for (size_t i = 0; i < flat.vars.size(); ++i) {
    const Variable &v = flat.vars[i];
    if (v.role != VarRole::Derivative)
      continue;
    int of = m.slots[v.derivativeOf].index;
    if (v.derivative >= 0)
      m.chainCopies.emplace_back(of, m.slots[i].index);
    else
      m.slots[i] = {Storage::Derivative, of};
  }

  auto addEquations = [&](EquationSystem &sys, const std::vector<Equation> &eqs, const char *label) {
    for (const Equation &eq : eqs) {
      sys.residuals.push_back(flat.residual(eq));
      sys.locs.push_back(eq.loc);
      sys.labels.push_back(std::string(label) + " " + std::to_string(eq.number));
    }
  };
  m.simulation.purpose = "simulation";
  addEquations(m.simulation, flat.equations, "equation");
  for (int s : m.states)
    if (!flat.isState(flat.vars[s].derivative))
      m.simulation.unknowns.push_back(flat.vars[s].derivative);
  for (int a : m.algebraics)
    m.simulation.unknowns.push_back(a);

  // Initialization: with no initial equations every state starts at its start value (as in
  // Modelica tools); otherwise states with fixed = true do, and the others are unknowns that the
  // initial equations must determine.
  m.initialization = m.simulation;
  m.initialization.purpose = "initialization";
  if (!flat.initialEquations.empty()) {
    addEquations(m.initialization, flat.initialEquations, "initial equation");
    for (int s : m.states)
      if (!flat.vars[s].fixed) {
        m.freeStates.push_back(s);
        m.initialization.unknowns.push_back(s);
      }
    if (m.initialization.residuals.size() != m.initialization.unknowns.size()) {
      size_t nInit = flat.initialEquations.size(), nFree = m.freeStates.size();
      diags.error(flat.initialEquations.front().loc,
                  "the initialization problem has " + std::to_string(nInit) + " initial equation" +
                      (nInit == 1 ? "" : "s") + " for " + std::to_string(nFree) +
                      " state" + (nFree == 1 ? "" : "s") + " without 'fixed = true'");
      std::string list;
      for (int s : m.freeStates)
        list += (list.empty() ? "" : ", ") + flat.vars[s].name;
      diags.note(SourceRange{}, nFree ? "states left free: " + list : std::string("every state has fixed = true"));
    }
  } else {
    for (int s : m.states)
      if (!flat.vars[s].hasStart)
        diags.warning(flat.vars[s].loc, "state '" + flat.vars[s].name + "' has no start value; it starts at 0" +
                                            (flat.vars[s].role == VarRole::Derivative ? " (set it with an initial equation)" : ""));
  }
  return m;
}

static bool causalizeSystem(FlatSystem &flat, const EquationSystem &sys, CausalSystem &out, Diagnostics &diags) {
  BipartiteGraph g = incidenceGraph(flat, sys);
  std::optional<Matching> m = matchEquations(flat, sys, g, diags);
  if (!m)
    return false;
  out = causalize(flat, sys, *m, sortBlt(g, *m));
  return true;
}

bool causalizeOdeModel(FlatSystem &flat, OdeModel &model, Diagnostics &diags) {
  if (!causalizeSystem(flat, model.simulation, model.ode, diags))
    return false;
  return causalizeSystem(flat, model.initialization, model.init, diags);
}

} // namespace eqc
