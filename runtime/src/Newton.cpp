// eqc_solve_block: damped Newton iteration for the algebraic loops (strong
// components) of a model.
#include "LinearSolve.h"

#include "eqc/eqc_runtime.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace {

constexpr int MaxHalvings = 10;

/// The block's unknowns live in the model's own storage; this keeps copies for
/// the iteration and writes trial points back before every residual evaluation.
template <int MaxN> class Block {
public:
  /// Up to MaxN unknowns the vectors and matrices live on the stack (most blocks are small).
  using Vector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, MaxN, 1>;
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor, MaxN, MaxN>;
  Block(int n, double *const *unknowns, eqc_block_fn fn, void *env)
      : n(n), unknowns(unknowns), fn(fn), env(env), residual(n),
        jacobianRowMajor(n, n) {}

  /// Writes w to the unknowns and evaluates F (and the Jacobian when wanted);
  /// false if the callback threw or produced a non-finite residual or Jacobian.
  bool evaluate(const Vector &w, bool wantJacobian) {
    for (int j = 0; j < n; ++j)
      *unknowns[j] = w[j];
    try {
      fn(env, residual.data(),
         wantJacobian ? jacobianRowMajor.data() : nullptr);
    } catch (...) {
      return false;
    }
    if (!residual.allFinite())
      return false;
    return !wantJacobian || jacobianRowMajor.allFinite();
  }

  /// dw = J^-1 dw at the last point evaluated with its Jacobian.
  int solve(Vector &dw) {
    if constexpr (MaxN != Eigen::Dynamic) {
      double factors[MaxN * MaxN];
      std::copy(jacobianRowMajor.data(), jacobianRowMajor.data() + n * n, factors);
      return eqc::rt::solveSmall(n, factors, dw.data(), 1);
    } else {
      jacobian = jacobianRowMajor;
      return eqc::rt::solveDense(lu, jacobian, dw);
    }
  }

  double residualNorm() const {
    return n == 0 ? 0.0 : residual.cwiseAbs().maxCoeff();
  }

  int n;
  double *const *unknowns;
  eqc_block_fn fn;
  void *env;
  Vector residual;
  RowMatrix jacobianRowMajor;
  Eigen::MatrixXd jacobian;                // large blocks: the column-major copy that lu factors
  Eigen::PartialPivLU<Eigen::MatrixXd> lu; // large blocks
};

/// Newton's convergence measure: the step relative to the unknown, absolute
/// near zero.
template <typename Vector> double scaledStep(const Vector &dw, const Vector &w) {
  double worst = 0.0;
  for (Eigen::Index j = 0; j < w.size(); ++j)
    worst = std::max(worst, std::fabs(dw[j]) / (1.0 + std::fabs(w[j])));
  return worst;
}

template <int MaxN>
int solveBlock(int n, double *const *unknowns, eqc_block_fn fn, void *env,
               double tol, int maxIter) {
  Block<MaxN> block(n, unknowns, fn, env);
  typename Block<MaxN>::Vector w(n), trial(n), dw(n);
  for (int j = 0; j < n; ++j)
    w[j] = *unknowns[j];

  if (!block.evaluate(w, /*wantJacobian=*/true))
    return EQC_ERR_NONFINITE;
  double norm = block.residualNorm();
  // A tolerance below rounding cannot be met by the step test; a step at the
  // rounding level of w means Newton has converged as far as double precision
  // allows.
  const double stepTol = std::max(tol, 4.0 * DBL_EPSILON);

  // Convergence is decided only by the step or by an exactly zero residual. A
  // test on the residual's size alone is deliberately absent: residuals carry
  // the model's units, so any absolute threshold accepts wrong points of a
  // block whose equations are scaled small.
  for (int iter = 0; iter < maxIter && norm != 0.0; ++iter) {
    dw = -block.residual;
    if (int rc = block.solve(dw))
      return rc;

    if (scaledStep(dw, w) <= stepTol) {
      // The remaining error is of the order of this step squared: take it and
      // stop.
      trial = w + dw;
      // Leave the model's storage at the returned point, and never at a
      // non-finite one.
      if (!block.evaluate(trial, false))
        block.evaluate(w, false);
      return EQC_OK;
    }

    // Damping: halve while the max-norm of F does not strictly decrease, so the
    // iteration cannot wander off from a good initial guess (the usual one: the
    // previous time step's solution).
    double lambda = 1.0;
    bool accepted = false;
    for (int halving = 0; halving <= MaxHalvings; ++halving, lambda *= 0.5) {
      trial = w + lambda * dw;
      // Most steps are full steps; fetch the Jacobian with them to save a
      // second evaluation.
      bool full = halving == 0;
      if (block.evaluate(trial, full) && block.residualNorm() < norm) {
        accepted = true;
        if (!full && !block.evaluate(trial, true))
          accepted = false;
        break;
      }
    }
    if (!accepted) {
      block.evaluate(w, false); // restore the best point found
      return EQC_ERR_NEWTON;
    }
    w = trial;
    norm = block.residualNorm();
  }
  return norm == 0.0 ? EQC_OK : EQC_ERR_NEWTON;
}

} // namespace

extern "C" int eqc_solve_block(int n, double *const *unknowns, eqc_block_fn f,
                               void *env, double tol, int max_iter) {
  if (n < 0 || !f || (n > 0 && !unknowns) || !std::isfinite(tol) ||
      !(tol > 0) || max_iter < 1)
    return EQC_ERR_ARGUMENT;
  for (int j = 0; j < n; ++j)
    if (!unknowns[j])
      return EQC_ERR_ARGUMENT;
  if (n == 0)
    return EQC_OK;
  try {
    return n <= eqc::rt::SmallSystem ? solveBlock<eqc::rt::SmallSystem>(n, unknowns, f, env, tol, max_iter)
                                     : solveBlock<Eigen::Dynamic>(n, unknowns, f, env, tol, max_iter);
  } catch (...) {
    // Only allocation can throw here; there is no out-of-memory code in the
    // header.
    return EQC_ERR_ARGUMENT;
  }
}
