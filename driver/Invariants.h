// The hidden constraints of an index-reduced model at run time: residuals and projection.
#pragma once

#include "backend/Jit.h"
#include "middle/JacobianPattern.h"
#include "middle/OdeModel.h"
#include "runtime/include/eqc/eqc_runtime.h"

#include <memory>
#include <vector>

namespace eqc {

/// Evaluates the invariants g(t, x) and projects states onto g = 0 (minimum-norm Gauss–Newton on
/// the sparse Jacobian, rt::HeldConstraints: dummy derivatives' re-projections, initialization's
/// diagnosis).
class InvariantProjector {
public:
  /// Reads parameters, discrete variables and conditions from `params` (the model's p, which
  /// must stay where it is: a run's array, which events update — invariants may read
  /// conditions, e.g. a friction law's). With `initial`, the constraints of the consistent
  /// initial point (invariants and initial equations) instead of the invariants.
  InvariantProjector(JitModel &jit, const OdeModel &model, const double *params, bool initial = false);

  size_t size() const { return m_; }
  /// Moves the states with slots in `movable` onto g(t, x) = 0, changing them as little as
  /// possible; returns an eqc_status and the final max |g_i| in `residual`. With
  /// `reachableOnly`, onto the invariants that the movable states enter at x (the others are
  /// left as they are, and `residual` is over the ones projected).
  int project(double t, double *x, const std::vector<int> &movable, double tol, double *residual,
              bool reachableOnly = false);
  /// Projection of every state (stabilization after a step).
  int projectAll(double t, double *x, double tol, double *residual) { return project(t, x, all_, tol, residual); }
  /// Numerical rank of ∂g/∂x restricted to the `movable` states (-1 when it cannot be evaluated).
  int rank(double t, const double *x, const std::vector<int> &movable);
  /// max_i |g_i(t, x)| and the invariant where it occurs; NaN when g fails (`failure`, when
  /// given, receives its code; 0 otherwise).
  double maxResidual(double t, const double *x, int *which = nullptr, int *failure = nullptr);

private:
  int evaluate(double t, const double *x, double *g);
  /// dg/dx at (t, x), dense, into fullJac_ (the rank test only: projections use the pattern).
  int jacobian(double t, const double *x);

  JitModel &jit_;
  bool initial_;
  const double *p_;
  size_t n_, m_;
  std::vector<int> all_;
  std::vector<double> fullJac_, g_;
  SparsityPattern pattern_;     ///< of the generated Jacobian's values
  std::vector<double> values_;  // scratch
  eqc_sparsity sparsity_;       ///< pattern_ for the runtime
  std::unique_ptr<eqc_projector, void (*)(eqc_projector *)> projector_{eqc_projector_new(), eqc_projector_free};
};

} // namespace eqc
