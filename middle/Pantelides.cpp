// Pantelides (1988), with iterative augmenting-path search.
#include "middle/Pantelides.h"

#include "middle/TimeDerivative.h"

namespace eqc {

std::optional<PantelidesResult> runPantelides(FlatSystem &flat, Differentiator &diff, int maxDifferentiations) {
  PantelidesResult r;
  std::vector<std::vector<int>> incidence; // per augmented equation: its non-parameter variables
  auto addEquation = [&](const Expr *residual, int source, int order) {
    r.equations.push_back({residual, source, order, -1});
    std::vector<int> vars;
    for (int v : collectVars(residual))
      if (!flat.vars[v].isKnown())
        vars.push_back(v);
    incidence.push_back(std::move(vars));
    return static_cast<int>(r.equations.size()) - 1;
  };
  for (size_t i = 0; i < flat.equations.size(); ++i)
    addEquation(flat.residual(flat.equations[i]), static_cast<int>(i), 0);

  // assign[v]: the equation matched to variable v (only highest derivatives/algebraics take part).
  std::vector<int> assign(flat.vars.size(), -1);
  auto candidate = [&](int v) { return flat.vars[v].derivative < 0; };
  std::vector<char> eqColor, varColor;
  int differentiations = 0;
  const size_t originals = flat.equations.size();

  for (size_t start = 0; start < originals; ++start) {
    int k = static_cast<int>(start);
    while (true) {
      eqColor.assign(r.equations.size(), 0);
      varColor.assign(flat.vars.size(), 0);
      // Depth-first search for an augmenting path from equation k (explicit stack of (eq, next edge)).
      std::vector<std::pair<int, size_t>> stack{{k, 0}};
      std::vector<int> via; // via[d]: the variable leading from stack[d] to stack[d+1]
      eqColor[k] = 1;
      bool found = false;
      while (!stack.empty() && !found) {
        int eq = stack.back().first;
        size_t &next = stack.back().second;
        bool descended = false;
        while (next < incidence[eq].size()) {
          int v = incidence[eq][next++];
          if (!candidate(v) || varColor[v])
            continue;
          varColor[v] = 1;
          int owner = assign[v];
          if (owner < 0) {
            // Augment: eq takes v, each earlier equation the variable it passed through.
            assign[v] = eq;
            for (size_t d = via.size(); d-- > 0;)
              assign[via[d]] = stack[d].first;
            found = true;
            break;
          }
          if (!eqColor[owner]) {
            eqColor[owner] = 1;
            via.push_back(v);
            stack.push_back({owner, 0});
            descended = true;
            break;
          }
        }
        if (!found && !descended) {
          stack.pop_back();
          if (!via.empty())
            via.pop_back();
        }
      }
      if (found)
        break;
      ++r.iterations;
      // Differentiate every colored variable and equation; matched pairs move up one order.
      std::vector<int> coloredVars;
      for (size_t v = 0; v < varColor.size(); ++v)
        if (varColor[v])
          coloredVars.push_back(static_cast<int>(v));
      for (int v : coloredVars)
        flat.derivativeVar(v);
      assign.resize(flat.vars.size(), -1);
      for (size_t e = 0; e < eqColor.size(); ++e) {
        if (!eqColor[e])
          continue;
        if (++differentiations > maxDifferentiations)
          return std::nullopt;
        const AugmentedEquation eqCopy = r.equations[e];
        int d = addEquation(timeDerivative(flat, diff, eqCopy.residual), eqCopy.source, eqCopy.order + 1);
        r.equations[e].derivative = d;
      }
      assign.resize(flat.vars.size(), -1);
      for (int v : coloredVars) {
        int owner = assign[v];
        if (owner >= 0)
          assign[flat.vars[v].derivative] = r.equations[owner].derivative;
        assign[v] = -1;
      }
      k = r.equations[k].derivative;
    }
  }

  r.highest.resize(originals);
  r.differentiations.resize(originals);
  for (size_t i = 0; i < originals; ++i) {
    int e = static_cast<int>(i);
    while (r.equations[e].derivative >= 0)
      e = r.equations[e].derivative;
    r.highest[i] = e;
    r.differentiations[i] = r.equations[e].order;
  }
  r.matchedVar.assign(r.equations.size(), -1);
  for (size_t v = 0; v < assign.size(); ++v)
    if (assign[v] >= 0 && flat.vars[v].derivative < 0)
      r.matchedVar[assign[v]] = static_cast<int>(v);
  return r;
}

} // namespace eqc
