// Pantelides' index reduction: differentiate the equations of every failed augmenting path until the
// highest-order equations match the highest derivatives and algebraic variables one to one.
#pragma once

#include "middle/ExprOps.h"
#include "middle/FlatSystem.h"

#include <optional>
#include <vector>

namespace eqc {

/// One equation of the augmented system: the `order`-th time derivative of original equation `source`.
struct AugmentedEquation {
  const Expr *residual;
  int source;      ///< index into FlatSystem::equations
  int order;       ///< how often it was differentiated
  int derivative;  ///< index of d/dt of this equation in the augmented list, or -1
};

struct PantelidesResult {
  std::vector<AugmentedEquation> equations; ///< originals first (in order), then derivatives as created
  std::vector<int> highest;                 ///< per original equation: its highest derivative (index above)
  std::vector<int> differentiations;        ///< per original equation: how often it was differentiated
  /// Highest-order equation → the variable it is matched to (a highest derivative or algebraic).
  std::vector<int> matchedVar;
  int iterations = 0;                       ///< failed augmenting paths (each one differentiated equations)
};

/// Requires: a balanced FlatSystem that is structurally nonsingular when every variable is merged
/// with its derivatives (checked by the caller). Ensures: derivative variables and differentiated
/// equations created as needed, with a perfect matching of the highest-order equations.
/// Stops with nullopt after `maxDifferentiations` differentiations (a guard, never reached for
/// structurally nonsingular systems).
std::optional<PantelidesResult> runPantelides(FlatSystem &flat, Differentiator &diff, int maxDifferentiations);

} // namespace eqc
