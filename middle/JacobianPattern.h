// The structure of the ODE Jacobian df/dx of a causalized model: which steps of the evaluation
// sequence a state reaches, and the structurally non-zero entries, column by column.
#pragma once

#include "middle/FlatSystem.h"
#include "middle/OdeModel.h"

#include <vector>

namespace eqc {

/// Compressed sparse columns of an n-by-n matrix over state indices: the rows of column j are
/// rowIndex[colStart[j] .. colStart[j+1]), strictly increasing (the eqc_sparsity layout).
struct SparsityPattern {
  std::vector<int> colStart, rowIndex;
  size_t nnz() const { return rowIndex.size(); }
};

/// Which steps of `cs` read which variables, for walking the dependencies of one state at a time.
class StepDependencies {
public:
  StepDependencies(const FlatSystem &flat, const CausalSystem &cs);

  /// The variables step s reads (inputs included; parameters and discrete variables, constant
  /// while the integrator runs, excluded), sorted.
  const std::vector<int> &reads(int s) const { return reads_[s]; }
  /// The variables step s defines (the assignment's target or the loop's unknowns).
  const std::vector<int> &targets(int s) const { return targets_[s]; }
  /// The steps that depend on `var`, directly or through other steps, in evaluation order.
  /// Cost: the size of the answer and of the reads it visits.
  void reachableSteps(int var, std::vector<int> &out);

private:
  std::vector<std::vector<int>> reads_, targets_, readers_;
  std::vector<int> mark_;
  int epoch_ = 0;
};

/// The structurally non-zero entries of df/dx: f_i (the derivative of states[i]) depends on
/// x_j when a step that defines it is reachable from states[j], or when it is states[j] itself
/// (a chain copy). Requires: a causalized OdeModel. Cost: the sum over the states of the steps
/// each reaches (near-linear for models whose states each reach few equations).
SparsityPattern odeJacobianPattern(const FlatSystem &flat, const OdeModel &model, StepDependencies &deps);

/// The structure of dg/dx for constraints g (the invariants, or the initial constraints) over
/// model's states: compressed sparse columns over the n states, rows the constraints; row i has
/// an entry in column j when states[j] occurs in residuals[i], or in every column when residual i
/// reads what the ODE computes (OdeModel::initialConstraintsReadOde; the generated Jacobian writes
/// a value for each, 0 where the partial derivative vanishes identically). Cost: the size of the
/// residuals, plus the states for each residual that reads the ODE.
SparsityPattern constraintJacobianPattern(const OdeModel &model, const std::vector<const Expr *> &residuals);

} // namespace eqc
