// eqc_solve_block: damped Newton iteration for the algebraic loops (strong
// components) of a model.
#include "LinearSolve.h"

#include "eqc/eqc_runtime.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

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

  /// The minimum-norm least-squares solution of J x = dw at the last point evaluated with its
  /// Jacobian (a rank-revealing factorization): the step where J is singular.
  bool solveMinimumNorm(Vector &dw) {
    Eigen::MatrixXd j = jacobianRowMajor;
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(j);
    Eigen::VectorXd x = cod.solve(Eigen::VectorXd(dw));
    if (!x.allFinite())
      return false;
    dw = x;
    return true;
  }

  /// Whether every residual is within rounding of what its terms can carry at w: |F_i| <=
  /// 1e-9 sum_j |dF_i/dw_j| (1 + |w_j|) (a singular block's solution, which the step test alone
  /// cannot tell from a least-squares point of an inconsistent one).
  bool residualNegligible(const Vector &w) const {
    for (int i = 0; i < n; ++i) {
      double scale = 0.0;
      for (int j = 0; j < n; ++j)
        scale += std::fabs(jacobianRowMajor(i, j)) * (1.0 + std::fabs(w[j]));
      if (!(std::fabs(residual[i]) <= 1e-9 * scale))
        return false;
    }
    return true;
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

/// A scalar block's points of either sign of the residual seen so far: where Newton fails
/// between them (it cycles across the kink of a piecewise-linear residual: an op-amp's
/// saturation in a loop with gain 1e6, `smooth(0, if ...)`), the root is bracketed.
/// The bracket is the start point and the nearest point of the other sign: of several roots (a
/// Schmitt trigger's two stable ones and the unstable one between), the one nearest the start.
struct Bracket {
  double start = NAN, fStart = NAN;
  double other = NAN, fOther = NAN; ///< the nearest point where the residual has the other sign

  void see(double w, double f) {
    if (std::isnan(fStart)) {
      start = w, fStart = f;
    } else if (((f < 0 && fStart > 0) || (f > 0 && fStart < 0)) &&
               !(std::fabs(w - start) >= std::fabs(other - start))) {
      other = w, fOther = f;
    }
  }
  bool found() const { return std::isfinite(other); }
  double below() const { return fStart < 0 ? start : other; }
  double above() const { return fStart < 0 ? other : start; }
  double fBelow() const { return fStart < 0 ? fStart : fOther; }
  double fAbove() const { return fStart < 0 ? fOther : fStart; }
};

/// The root of a scalar block inside a bracket: regula falsi with the Illinois modification,
/// bisecting where two steps did not halve the bracket (at least linear convergence, for a
/// continuous residual however steep). Converged as Newton is, the bracket within stepTol of the
/// unknown (or an exactly zero residual), and then only where a Newton step from the point is as
/// small: a bracket that closes on a jump of the residual (noEvent(if ...)) is no root.
template <int MaxN> int solveInBracket(Block<MaxN> &block, const Bracket &b, double stepTol) {
  typename Block<MaxN>::Vector w(1);
  double a = b.below(), fa = b.fBelow(), c = b.above(), fc = b.fAbove();
  int kept = 0; // the end kept in the last step: -1 a, 1 c (Illinois halves its residual)
  double checkpoint = std::fabs(c - a);
  for (int iter = 0; iter < 1000; ++iter) {
    const double x = std::fabs(fa) <= std::fabs(fc) ? a : c;
    if (std::fabs(c - a) <= stepTol * (1.0 + std::fabs(x))) {
      w[0] = x;
      if (!block.evaluate(w, true))
        return EQC_ERR_NONFINITE;
      const double slope = block.jacobianRowMajor(0, 0);
      const bool root =
          block.residual[0] == 0.0 ||
          std::fabs(block.residual[0]) <= 1e3 * stepTol * (1.0 + std::fabs(x)) * std::fabs(slope);
      return root ? EQC_OK : EQC_ERR_NEWTON;
    }
    double m = (a * fc - c * fa) / (fc - fa);
    bool bisect = !(m > std::min(a, c) && m < std::max(a, c));
    if (iter % 2 == 1) {
      bisect = bisect || std::fabs(c - a) > 0.5 * checkpoint;
      checkpoint = std::fabs(c - a);
    }
    if (bisect)
      m = 0.5 * (a + c);
    w[0] = m;
    if (!block.evaluate(w, false))
      return EQC_ERR_NONFINITE;
    const double fm = block.residual[0];
    if (fm == 0.0)
      return EQC_OK;
    if (fm < 0) {
      a = m, fa = fm;
      if (kept == 1)
        fc *= 0.5;
      kept = 1;
    } else {
      c = m, fc = fm;
      if (kept == -1)
        fa *= 0.5;
      kept = -1;
    }
  }
  return EQC_ERR_NEWTON;
}

/// Where Newton failed at `at` without a point of the other sign (a Schmitt trigger at its fold:
/// the solution it was on is gone and the one left is far), steps of doubling length from there,
/// first along the Newton step `dw` and then against it, until the residual changes sign.
template <int MaxN> Bracket searchBracket(Block<MaxN> &block, double at, double dw, double stepTol) {
  typename Block<MaxN>::Vector w(1);
  Bracket bracket;
  w[0] = at;
  if (!block.evaluate(w, false))
    return bracket;
  bracket.see(at, block.residual[0]);
  const double start = at;
  double length = std::max(std::fabs(dw), stepTol * (1.0 + std::fabs(start)));
  const double direction = dw < 0 ? -1.0 : 1.0;
  for (int k = 0; k < 64 && !bracket.found() && std::isfinite(length); ++k, length *= 2)
    for (double sign : {direction, -direction}) {
      w[0] = start + sign * length;
      if (block.evaluate(w, false))
        bracket.see(w[0], block.residual[0]);
      if (bracket.found())
        break;
    }
  return bracket;
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
  Bracket bracket;
  if (n == 1)
    bracket.see(w[0], block.residual[0]);
  // A tolerance below rounding cannot be met by the step test; a step at the
  // rounding level of w means Newton has converged as far as double precision
  // allows.
  const double stepTol = std::max(tol, 4.0 * DBL_EPSILON);

  // Convergence is decided only by the step or by an exactly zero residual. A
  // test on the residual's size alone is deliberately absent: residuals carry
  // the model's units, so any absolute threshold accepts wrong points of a
  // block whose equations are scaled small.
  // A singular Jacobian (a closed valve between two volumes: the pressures at its ends enter only
  // through their difference) takes the minimum-norm step; such a block converges only to a point
  // whose residual is negligible, not to a least-squares point of an inconsistent block.
  // Gauss–Newton converges fast on a consistent singular block; one that needs more than a few
  // such steps is taken as inconsistent (the caller then tries another mode or a smaller step).
  constexpr int MaxSingularSteps = 8;
  bool singular = false;
  int singularSteps = 0;
  for (int iter = 0; iter < maxIter && norm != 0.0; ++iter) {
    dw = -block.residual;
    if (int rc = block.solve(dw)) {
      dw = -block.residual;
      if (rc != EQC_ERR_SINGULAR || ++singularSteps > MaxSingularSteps || !block.solveMinimumNorm(dw)) {
        block.evaluate(w, false);
        return rc;
      }
      singular = true;
    }

    if (scaledStep(dw, w) <= stepTol) {
      // The remaining error is of the order of this step squared: take it and
      // stop.
      trial = w + dw;
      // Leave the model's storage at the returned point, and never at a
      // non-finite one.
      if (!block.evaluate(trial, singular)) {
        block.evaluate(w, false);
        return singular ? EQC_ERR_NEWTON : EQC_OK;
      }
      if (singular && !block.residualNegligible(trial)) {
        block.evaluate(w, false);
        return EQC_ERR_NEWTON;
      }
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
      const bool finite = block.evaluate(trial, full);
      if (finite && n == 1)
        bracket.see(trial[0], block.residual[0]);
      if (finite && block.residualNorm() < norm) {
        accepted = true;
        if (!full && !block.evaluate(trial, true))
          accepted = false;
        break;
      }
    }
    if (!accepted) {
      if (n == 1 && !bracket.found())
        bracket = searchBracket(block, w[0], dw[0], stepTol);
      if (bracket.found())
        return solveInBracket(block, bracket, stepTol);
      block.evaluate(w, false); // restore the best point found
      return EQC_ERR_NEWTON;
    }
    w = trial;
    norm = block.residualNorm();
  }
  if (norm != 0.0 && bracket.found())
    return solveInBracket(block, bracket, stepTol);
  return norm == 0.0 ? EQC_OK : EQC_ERR_NEWTON;
}

} // namespace

namespace eqc::rt {
thread_local unsigned long blockSolves = 0;
}

extern "C" int eqc_solve_block(int n, double *const *unknowns, eqc_block_fn f,
                               void *env, double tol, int max_iter) {
  ++eqc::rt::blockSolves;
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
