// Structural regularity check and Pantelides, with names for every augmented equation.
#include "middle/IndexReduction.h"

#include "middle/Causalize.h"

#include <ostream>

namespace eqc {

std::string derivativeLabel(const std::string &base, int order) {
  if (order == 0)
    return base;
  if (order == 1)
    return "d/dt " + base;
  return "d^" + std::to_string(order) + "/dt^" + std::to_string(order) + " " + base;
}

void printReduction(std::ostream &os, const FlatSystem &flat, const ReducedSystem &reduced) {
  VarNamer namer = [&flat](int v) { return flat.varName(v); };
  const PantelidesResult &p = reduced.pantelides;
  os << "// index reduction: " << reduced.invariants.size() << " differentiations in "
     << p.iterations << " failed augmenting paths\n";
  for (size_t e = 0; e < p.equations.size(); ++e)
    os << "  " << reduced.labels[e] << ": 0 = " << toString(p.equations[e].residual, namer)
       << (p.equations[e].derivative >= 0 ? "  // hidden constraint" : "") << "\n";
}

std::optional<ReducedSystem> reduceIndex(FlatSystem &flat, Diagnostics &diags) {
  // A DAE is structurally regular iff its equations match its variables with every derivative
  // merged into its variable (Pantelides would differentiate forever otherwise).
  EquationSystem merged;
  merged.purpose = "model";
  for (const Equation &eq : flat.equations) {
    merged.residuals.push_back(flat.residual(eq));
    merged.locs.push_back(eq.loc);
    merged.labels.push_back(flat.equationLabel(eq));
  }
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (flat.vars[v].role == VarRole::Unknown)
      merged.unknowns.push_back(static_cast<int>(v));
  if (!matchEquations(flat, merged, incidenceGraph(flat, merged, /*mergeDerivatives=*/true), diags))
    return std::nullopt;

  Differentiator diff(*flat.ctx);
  // Structurally regular systems need at most n differentiations per equation (Pantelides).
  size_t n = flat.equations.size();
  int limit = static_cast<int>(std::min<size_t>(n * (n + 1) + 16, 1u << 30));
  std::optional<PantelidesResult> p = runPantelides(flat, diff, limit);
  if (!p) {
    diags.error(flat.loc, "index reduction did not terminate after " + std::to_string(limit) + " differentiations");
    return std::nullopt;
  }
  ReducedSystem r;
  r.pantelides = std::move(*p);
  for (size_t e = 0; e < r.pantelides.equations.size(); ++e) {
    const AugmentedEquation &eq = r.pantelides.equations[e];
    const Equation &src = flat.equations[eq.source];
    r.labels.push_back(derivativeLabel(flat.equationLabel(src), eq.order));
    r.locs.push_back(src.loc);
    if (eq.derivative >= 0)
      r.invariants.push_back(static_cast<int>(e));
  }
  return r;
}

} // namespace eqc
