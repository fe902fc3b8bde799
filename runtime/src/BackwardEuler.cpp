// beuler's implicit step: simplified Newton on x_new - x - h f(t_new, x_new)
// = 0 with a kept Jacobian (callback or forward differences) and LU.
#include "BackwardEuler.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace eqc::rt {

namespace {

/// Converged when max_j |dx_j| / (1 + |x_j|) falls to this (as eqc_solve_block).
constexpr double NewtonTolerance = 1e-10;
constexpr int MaxIterations = 10;
/// The last resort, full Newton (J at every iterate), may take this many.
constexpr int MaxFullIterations = 30;
/// A kept Jacobian that shrinks the Newton step by less than this per
/// iteration is too stale: re-evaluate it.
constexpr double MaxContraction = 0.5;
/// Fixed-step times come from k*dt, so consecutive h differ in the last bits;
/// such a change does not warrant a new factorization of I - h J.
constexpr double StepChangeTolerance = 1e-6;

} // namespace

BackwardEulerSolver::BackwardEulerSolver(IntegrationProblem &p, eqc_stats &stats)
    : p(p), stats(stats), n(p.n), fz(n), residual(n), dz(n), jacobian(n, p.jacobian, stats), lu(jacobian) {}

int BackwardEulerSolver::updateJacobian(double t, const double *z) {
  haveJacobian = true;
  factoredStep = 0.0;
  return jacobian.evaluate(p.rhs, t, z, fz.data(), nullptr);
}

int BackwardEulerSolver::factor(double h) {
  // I - h J = h (I/h - J): the shifted matrix's factors serve, with the
  // residual divided by h.
  ++stats.lu_decompositions;
  int rc = lu.factor(1.0 / h);
  factoredStep = rc == EQC_OK ? h : 0.0;
  return rc;
}

int BackwardEulerSolver::step(double tNew, double h, const double *x, double *z) {
  std::copy(x, x + n, z);
  // fresh: J has been (or is about to be) re-evaluated in this step, so a
  // failure is final.
  bool wantJacobian = !haveJacobian;
  bool fresh = wantJacobian;
  // full: the simplified iteration failed even with a fresh J (a J far from
  // the solution, as at a start where some coupling is still zero): Newton
  // with J at every iterate, from x.
  bool full = false;
  double previousNorm = 0.0;
  int iterations = 0;
  for (;;) {
    if (int rc = p.rhs(tNew, z, fz.data()))
      return rc;
    bool ok = fz.allFinite();
    if (ok && (wantJacobian || full)) {
      if (int rc = updateJacobian(tNew, z))
        return rc;
      wantJacobian = false;
      if (!full)
        iterations = 0;
    }
    if (ok && !(std::fabs(h - factoredStep) <= StepChangeTolerance * h)) {
      int rc = factor(h);
      if (rc != EQC_OK && fresh)
        return rc;
      ok = rc == EQC_OK;
    }
    double norm = 0.0;
    if (ok) {
      for (int i = 0; i < n; ++i)
        residual[i] = (x[i] + h * fz[i] - z[i]) / h;
      lu.solve(residual, dz);
      ++stats.newton_iterations;
      ++iterations;
      for (int i = 0; i < n; ++i) {
        z[i] += dz[i];
        norm = std::max(norm, std::fabs(dz[i]) / (1.0 + std::fabs(z[i])));
      }
      ok = std::isfinite(norm);
    }
    const double contraction = ok && iterations > 1 ? norm / previousNorm : 0.0;
    previousNorm = norm;
    // With linear convergence at rate theta the remaining error is about
    // theta / (1 - theta) times the last step (HNW II, IV.8).
    if (ok && (norm <= NewtonTolerance || (iterations > 1 && contraction < 1.0 &&
                                           contraction / (1.0 - contraction) * norm <= NewtonTolerance)))
      return EQC_OK;
    if (full) {
      // Far from the solution the full iteration's steps may grow before it
      // converges (quadratically); only a non-finite value or the iteration
      // limit ends it.
      if (ok && iterations < MaxFullIterations)
        continue;
      return EQC_ERR_NEWTON;
    }
    const bool diverging = !ok || contraction >= 1.0;
    const bool slow = contraction > MaxContraction || iterations >= MaxIterations;
    if (!diverging && (!slow || (fresh && iterations < MaxIterations)))
      continue;
    if (fresh) {
      full = true;
      std::copy(x, x + n, z);
      previousNorm = 0.0;
      iterations = 0;
      continue;
    }
    // Refactor once: from the current iterate while it still converges (it is
    // nearer the solution), else from the start.
    if (diverging)
      std::copy(x, x + n, z);
    wantJacobian = true;
    fresh = true;
    previousNorm = 0.0;
    iterations = 0;
  }
}

} // namespace eqc::rt
