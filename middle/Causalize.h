// Structural analysis and causalization: which equation computes which unknown, in what order, how.
#pragma once

#include "middle/Blt.h"
#include "middle/ExprOps.h"
#include "middle/FlatSystem.h"
#include "middle/Matching.h"

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace eqc {

/// A square system of residual equations to be solved for `unknowns` given everything else.
struct EquationSystem {
  std::string purpose; ///< "simulation" or "initialization", for messages
  std::vector<const Expr *> residuals;
  std::vector<SourceRange> locs;
  std::vector<std::string> labels; ///< "equation 3", "initial equation 1", "x.start"
  std::vector<int> unknowns;       ///< variable indices
};

/// Incidence graph of a system (rows: residuals, columns: positions in `unknowns`). With
/// `mergeDerivatives`, der(x), der(der(x)), ... count as occurrences of x (the structure Pantelides
/// and the Σ-method start from).
BipartiteGraph incidenceGraph(const FlatSystem &flat, const EquationSystem &sys, bool mergeDerivatives = false);

/// Requires: a square system. Ensures: a perfect matching, or errors that name the equations and
/// unknowns of the over- and under-determined parts (with locations) and nullopt.
std::optional<Matching> matchEquations(const FlatSystem &flat, const EquationSystem &sys,
                                       const BipartiteGraph &graph, Diagnostics &diags);

/// An algebraic loop solved at run time: by one dense LU solve when it is linear in its unknowns
/// (the usual case after index reduction), else by Newton's method with its symbolic Jacobian.
/// A nonlinear loop, and a large linear one, is torn: Newton (or the LU) works on `vars` (the
/// tearing variables) only; the loop's other unknowns (`tornVars`) are computed from them by
/// explicit assignments, substituted into `residuals`, and assigned by the steps that follow the
/// loop.
struct AlgebraicLoop {
  std::vector<int> vars;
  std::vector<const Expr *> residuals;
  std::vector<const Expr *> jacobian; ///< row-major, ∂residual_i/∂vars_j
  std::vector<int> equations;         ///< rows of the EquationSystem
  bool linear = false;                ///< residual = jacobian·vars + offset, jacobian free of vars
  std::vector<const Expr *> offset;   ///< linear: the residuals at vars = 0
  std::vector<int> tornVars;          ///< unknowns the loop computes from `vars`, in order
  std::vector<int> tornEquations;     ///< the rows they are solved from
  /// A torn loop: the loop whole (every unknown iterated), solved when Newton on the tearing
  /// variables fails.
  std::shared_ptr<const AlgebraicLoop> untorn;
  size_t size() const { return vars.size() + tornVars.size(); }
};

/// One step of the evaluation sequence: an explicit assignment or an algebraic loop.
struct CausalStep {
  int var = -1;                 ///< assignment: target variable
  const Expr *value = nullptr;  ///< assignment: its value
  int loop = -1;                ///< index into CausalSystem::loops, or -1
  int equation = -1;            ///< assignment: the row it was solved from
};

/// The evaluation sequence of an EquationSystem.
struct CausalSystem {
  std::vector<CausalStep> steps;
  std::vector<AlgebraicLoop> loops;
  /// "2 nonlinear loops of 10, 4 unknowns -> 2, 1 tearing variables; 1 linear loop of 160 unknowns
  /// -> 9 tearing variables" (--stats), or "".
  std::string tearingSummary() const;
  /// Prints the sequence (`--dump-after=causalize`).
  void print(std::ostream &os, const FlatSystem &flat, const EquationSystem &sys) const;
};

/// Residual `r` = 0 solved for `var` in closed form: where var occurs linearly (var = -rest/slope,
/// the slope possibly a value of other variables) or only as 1/var; else null. What a BLT block of
/// one row becomes instead of a loop.
const Expr *solveExplicitly(ExprContext &ctx, Differentiator &d, const Expr *r, int var);

/// Requires: `block` a BLT block of rows of `sys` matched by `m`, nonlinear. Ensures: a split of
/// the block into tearing variables and explicit assignments: each assignment solves a row for
/// a variable that occurs in it linearly with a constant coefficient (never dividing by a value
/// that may be zero) and through no switch of its pieces, so Newton's method sees only the
/// tearing variables (a greedy choice in the manner of Cellier's heuristic: variables assigned as
/// soon as a row determines them, and else the variable that occurs in most of the rows left
/// torn; then each tearing variable the others determine is dropped). The loop's `vars`, `residuals`
/// (with the assignments substituted), `tornVars`, `tornEquations` and `equations` are set;
/// `assignments` receives the steps that follow the loop.
void tearLoop(FlatSystem &flat, const EquationSystem &sys, const Matching &m, const std::vector<int> &block,
              AlgebraicLoop &loop, std::vector<CausalStep> &assignments);

/// Requires: a perfect matching and its BLT blocks. Ensures: scalar blocks whose unknown occurs
/// linearly become assignments (solved symbolically); all other blocks become AlgebraicLoops with
/// their symbolic Jacobian. Steps are in evaluation order.
CausalSystem causalize(FlatSystem &flat, const EquationSystem &sys, const Matching &matching,
                       const std::vector<std::vector<int>> &blocks);

} // namespace eqc
