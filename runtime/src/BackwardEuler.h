// The implicit step of beuler: x_new = x + h f(t_new, x_new) by simplified
// Newton with a kept Jacobian and LU factorization.
#ifndef EQC_RUNTIME_BACKWARDEULER_H
#define EQC_RUNTIME_BACKWARDEULER_H

#include "Integrator.h"
#include "Jacobian.h"

namespace eqc::rt {

/// Solves backward Euler steps for one integration. The Jacobian and the LU
/// factors of I - h J live across Newton iterations and steps; all work
/// storage is allocated by the constructor, so step() never allocates.
class BackwardEulerSolver {
public:
  BackwardEulerSolver(IntegrationProblem &p, eqc_stats &stats);

  /// Solves xNew = x + h f(tNew, xNew), starting Newton from x. J is
  /// re-evaluated at most once per step: when an iteration with the kept J
  /// contracts by less than MaxContraction, diverges or fails (from the
  /// current iterate while it still converges, else from x), or before the
  /// first step. Returns EQC_OK, EQC_ERR_NEWTON (no convergence with a fresh
  /// J), EQC_ERR_SINGULAR (I - h J singular), or EQC_ERR_RHS (f or the
  /// Jacobian callback failed); x is never written.
  int step(double tNew, double h, const double *x, double *xNew);

private:
  /// J at (t, z) from the callback or by forward differences; fz = f(t, z).
  int updateJacobian(double t, const double *z);
  /// Factors I - h J (as I/h - J); on success later iterations with this h reuse it.
  int factor(double h);

  IntegrationProblem &p;
  eqc_stats &stats;
  const int n;
  Eigen::VectorXd fz, residual, dz;
  JacobianMatrix jacobian;
  ShiftedLU<double> lu; ///< factors of I/h - J
  bool haveJacobian = false;
  double factoredStep = 0.0; ///< h of the current LU factors, 0 for none
};

} // namespace eqc::rt

#endif // EQC_RUNTIME_BACKWARDEULER_H
