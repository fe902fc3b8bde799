// Constraints of a model table over a subset of its states: the projections that keep some
// values (initialization keeps the fixed start values, a reinit the values it set) move only the
// others, and may aim at only the constraints those reach. One implementation for eqc_sim and
// eqc simulate's dummy derivatives.
#ifndef EQC_RUNTIME_HELD_CONSTRAINTS_H
#define EQC_RUNTIME_HELD_CONSTRAINTS_H

#include "eqc/eqc_model.h"

#include <vector>

namespace eqc::rt {

/// g(t, x) = 0 with rows constraints over n states, their Jacobian dense (rows x n) or the
/// values of `pattern`; the states not in `movable` held at the values of x given.
/// Requires: p valid for the object's lifetime (x is copied); movable distinct.
class HeldConstraints {
public:
  HeldConstraints(int n, int rows, eqc_model_inv_fn g, eqc_model_invjac_fn jacobian, const eqc_sparsity *pattern,
                  const double *p, const double *x, std::vector<int> movable);

  /// Keeps only the constraints whose row of dg/dx at (t, x) is not zero on a movable state.
  /// Returns 0, or the Jacobian's failure code.
  int keepReached(double t, const double *x);
  /// After keepReached: no constraint is reached (there is nothing to project).
  bool noneReached() const { return reachedNone_; }

  /// Projects the movable states of xs (n values) onto the constraints kept, with eqc_project's
  /// tolerance and iteration limit; the largest residual of those constraints in `residual`.
  /// xs is updated on success; on failure it holds the last iterate with `keepLastIterate`, else
  /// it is left as it was. Returns an eqc_status.
  int project(eqc_projector *projector, double t, double *xs, double tol, int maxIter, double &residual,
              bool keepLastIterate);

private:
  static int evaluate(void *user, double t, const double *xs, double *g, double *G);
  /// After a failed projection of as many constraints as movable states or fewer: the constraints
  /// solved one block at a time in the order of their dependencies (a matching of constraints to
  /// movable states, its strong components), each block by damped Newton (eqc_solve_block), the
  /// states no constraint is matched to held. A density that starts at MSL's 1 kg/m³ where
  /// `u = h - p/d` couples it to the energy: the projection's simultaneous step overshoots, while
  /// in order d follows from T and p first. Requires buildPattern. Returns an eqc_status; the
  /// movable values of `moving` hold the result.
  int solveInOrder(double t, std::vector<double> &moving, double tol);
  /// Visits the entries of column j: f(row, place in the table's Jacobian values).
  template <typename F> void column(int j, F &&f) const;
  /// The pattern of the projected part: rows the kept constraints renumbered, columns movable.
  void buildPattern();

  int n_, rows_;
  eqc_model_inv_fn g_;
  eqc_model_invjac_fn jacobian_;
  const eqc_sparsity *fullPattern_; ///< null: dense
  const double *p_;
  std::vector<int> movable_;
  std::vector<double> full_;         ///< the state: held values, and the movable ones being tried
  std::vector<double> fullJacobian_; ///< the table's Jacobian values
  std::vector<int> subset_;          ///< the constraints kept (empty: all)
  bool reachedNone_ = false;
  std::vector<double> fullG_;        // scratch with a subset
  std::vector<int> colStart_, rowIndex_, source_; ///< the projected part, each entry's place in fullJacobian_
  eqc_sparsity pattern_{};
};

} // namespace eqc::rt

#endif // EQC_RUNTIME_HELD_CONSTRAINTS_H
