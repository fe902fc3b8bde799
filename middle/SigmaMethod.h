// Pryce's Σ-method: the signature matrix of a DAE, a highest-value transversal, the canonical
// equation and variable offsets, the structural index and the degrees of freedom.
#pragma once

#include "middle/FlatSystem.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace eqc {

/// Structural analysis of a DAE of any order (Pryce 2001; Pryce & Nedialkov).
struct SigmaResult {
  /// The base variables: every variable of role Unknown, in FlatSystem order; column j is variables[j].
  std::vector<int> variables;
  /// Signature matrix, sparse: per equation i (FlatSystem::equations order), its (column j, σ_ij)
  /// entries sorted by column, with σ_ij the highest derivative order of variables[j] in the
  /// residual of equation i (der(der(x)) is order 2). Absent entries are −∞.
  std::vector<std::vector<std::pair<int, int>>> sigma;
  /// Per equation i, its column in a highest-value transversal (HVT).
  std::vector<int> transversal;
  /// Σ_i σ_{i,transversal[i]}.
  int transversalValue = 0;
  /// Canonical offsets, the elementwise smallest non-negative ones with d_j − c_i ≥ σ_ij everywhere
  /// and equality on the transversal: c_i differentiations of equation i, d_j the highest derivative
  /// of variable j that the differentiated system determines.
  std::vector<int> c, d;
  /// Structural index: max c_i, plus 1 if some d_j == 0 (an algebraic variable).
  int index = 0;
  /// Degrees of freedom: Σd − Σc, the dimension of the consistent manifold at fixed time.
  int dof = 0;
};

/// Requires: a balanced FlatSystem (as many equations as variables of role Unknown; asserted).
/// Ensures: Σ, an HVT (sparse successive shortest augmenting paths: O(n·E log n) worst case, close to
/// O(E log n) on models where most equations match greedily) and the canonical offsets (O(E log n));
/// nullopt when Σ has no finite transversal (the system is structurally singular).
std::optional<SigmaResult> runSigmaMethod(const FlatSystem &flat);

/// Σ with the transversal marked `*`, the offsets c and d, value, index and dof as a text table
/// (for reports and debugging); deterministic.
std::string formatSignatureMatrix(const FlatSystem &flat, const SigmaResult &r);

} // namespace eqc
