// Pantelides (1988), with iterative augmenting-path search.
#include "middle/Pantelides.h"

#include "middle/TimeDerivative.h"

#include <algorithm>
#include <cstdint>

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
  // Colors are stamps of the current search, and the colored equations and variables are listed
  // as they are colored: a search costs what it visits, not the size of the system.
  std::vector<uint32_t> eqColor, varColor;
  uint32_t stamp = 0;
  std::vector<int> coloredEqs, coloredVars;
  // Lookahead (Duff's MC21): before descending from an equation, its variables are scanned for
  // one that is free. A candidate that is matched stays matched (augmenting reassigns, never
  // frees; a differentiation turns the freed ones into non-candidates), so each equation's scan
  // resumes where it stopped: a shared ground node's equation of 10^4 terms is scanned once,
  // not once per search, and the paths stay short (without it a circuit of 2·10^4 components on
  // one ground took minutes).
  std::vector<size_t> look;
  int differentiations = 0;
  const size_t originals = flat.equations.size();

  for (size_t start = 0; start < originals; ++start) {
    int k = static_cast<int>(start);
    while (true) {
      ++stamp;
      eqColor.resize(r.equations.size(), 0);
      look.resize(r.equations.size(), 0);
      varColor.resize(flat.vars.size(), 0);
      coloredEqs.clear();
      coloredVars.clear();
      // Depth-first search for an augmenting path from equation k (explicit stack of (eq, next edge)).
      std::vector<std::pair<int, size_t>> stack{{k, 0}};
      std::vector<int> via; // via[d]: the variable leading from stack[d] to stack[d+1]
      eqColor[k] = stamp;
      coloredEqs.push_back(k);
      bool found = false;
      auto augment = [&](int eq, int v) { // eq takes v, each earlier equation the variable it passed through
        assign[v] = eq;
        for (size_t d = via.size(); d-- > 0;)
          assign[via[d]] = stack[d].first;
      };
      while (!stack.empty() && !found) {
        int eq = stack.back().first;
        if (stack.back().second == 0) // first visit: a free variable ends the search here
          for (size_t &at = look[eq]; at < incidence[eq].size(); ++at) {
            const int v = incidence[eq][at];
            if (candidate(v) && assign[v] < 0) {
              augment(eq, v);
              found = true;
              break;
            }
          }
        if (found)
          break;
        size_t &next = stack.back().second;
        bool descended = false;
        while (next < incidence[eq].size()) {
          int v = incidence[eq][next++];
          if (!candidate(v) || varColor[v] == stamp)
            continue;
          varColor[v] = stamp;
          coloredVars.push_back(v);
          int owner = assign[v];
          if (owner < 0) {
            augment(eq, v);
            found = true;
            break;
          }
          if (eqColor[owner] != stamp) {
            eqColor[owner] = stamp;
            coloredEqs.push_back(owner);
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
      std::sort(coloredVars.begin(), coloredVars.end());
      std::sort(coloredEqs.begin(), coloredEqs.end());
      for (int v : coloredVars)
        flat.derivativeVar(v);
      assign.resize(flat.vars.size(), -1);
      for (int e : coloredEqs) {
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
