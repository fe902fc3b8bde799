// Index reduction: the structural regularity check, then Pantelides' differentiations.
#pragma once

#include "middle/Pantelides.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace eqc {

/// The augmented system: original and differentiated equations with their names and places.
struct ReducedSystem {
  PantelidesResult pantelides;
  std::vector<std::string> labels; ///< per augmented equation: "equation 5", "d/dt equation 5", ...
  std::vector<SourceRange> locs;   ///< the source equation's location
  /// The augmented equations that were differentiated further: the hidden constraints
  /// (invariants) of the ODE formed by the highest-order equations.
  std::vector<int> invariants;
  bool differentiated() const { return !invariants.empty(); }
};

/// Requires: a balanced FlatSystem. Ensures: errors naming the over- and under-determined parts
/// when the system is structurally singular (even with derivatives merged into their variables);
/// otherwise the Pantelides-augmented system (unchanged equations for index ≤ 1).
std::optional<ReducedSystem> reduceIndex(FlatSystem &flat, Diagnostics &diags);

/// The differentiations and the augmented equations (`--dump-after=reduce`).
void printReduction(std::ostream &os, const FlatSystem &flat, const ReducedSystem &reduced);

/// "d/dt equation 5", "d^2/dt^2 equation 5" for order 1, 2; "equation 5" for order 0.
std::string derivativeLabel(const std::string &base, int order);

} // namespace eqc
