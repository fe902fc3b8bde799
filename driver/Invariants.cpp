// Invariant residuals and projection through the runtime's (rt::HeldConstraints, sparse).
#include "driver/Invariants.h"

#include "runtime/include/eqc/eqc_runtime.h"
#include "runtime/src/HeldConstraints.h"

#include <cmath>

namespace eqc {

InvariantProjector::InvariantProjector(JitModel &jit, const OdeModel &model, const double *params, bool initial)
    : jit_(jit), initial_(initial), p_(params), n_(model.states.size()),
      m_(initial ? model.initialConstraints.residuals.size() : model.invariants.residuals.size()),
      g_(m_),
      pattern_(constraintJacobianPattern(model, initial ? model.initialConstraints.residuals
                                                        : model.invariants.residuals)),
      values_(pattern_.nnz()),
      sparsity_{static_cast<int>(pattern_.nnz()), pattern_.colStart.data(), pattern_.rowIndex.data()} {
  for (size_t i = 0; i < n_; ++i)
    all_.push_back(static_cast<int>(i));
}

int InvariantProjector::evaluate(double t, const double *x, double *g) {
  return (initial_ ? jit_.initialConstraints : jit_.invariants)(t, x, p_, g);
}

int InvariantProjector::jacobian(double t, const double *x) {
  eqc_model_invjac_fn fn = initial_ ? jit_.initialConstraintJacobian() : jit_.invariantJacobian();
  if (!fn)
    return 1;
  if (int code = fn(t, x, p_, values_.data()))
    return code;
  // The generated function writes the pattern's values: dense here, for the rank test of a
  // failed initialization's diagnosis only.
  fullJac_.assign(m_ * n_, 0.0);
  double *jac = fullJac_.data();
  for (size_t j = 0; j < n_; ++j)
    for (int k = pattern_.colStart[j]; k < pattern_.colStart[j + 1]; ++k)
      jac[static_cast<size_t>(pattern_.rowIndex[static_cast<size_t>(k)]) * n_ + j] = values_[static_cast<size_t>(k)];
  return 0;
}

int InvariantProjector::project(double t, double *x, const std::vector<int> &movable, double tol, double *residual,
                                bool reachableOnly) {
  if (m_ == 0) {
    *residual = 0;
    return EQC_OK;
  }
  if (movable.empty()) { // nothing may move: the values are consistent or they are not
    *residual = maxResidual(t, x);
    return EQC_OK;
  }
  eqc_model_invjac_fn jacobian = initial_ ? jit_.initialConstraintJacobian() : jit_.invariantJacobian();
  if (!jacobian)
    return EQC_ERR_RHS;
  rt::HeldConstraints held(static_cast<int>(n_), static_cast<int>(m_),
                           initial_ ? jit_.initialConstraints.load() : jit_.invariants.load(), jacobian, &sparsity_, p_,
                           x, movable);
  if (reachableOnly) {
    // The invariants that the movable states reach at x (a row of ∂g/∂x not zero on them).
    if (held.keepReached(t, x))
      return EQC_ERR_RHS;
    if (held.noneReached()) {
      *residual = 0;
      return EQC_OK;
    }
  }
  return held.project(projector_.get(), t, x, tol, 20, *residual, /*keepLastIterate=*/true);
}

int InvariantProjector::rank(double t, const double *x, const std::vector<int> &movable) {
  if (jacobian(t, x))
    return -1;
  std::vector<double> sub(m_ * movable.size());
  for (size_t i = 0; i < m_; ++i)
    for (size_t c = 0; c < movable.size(); ++c)
      sub[i * movable.size() + c] = fullJac_[i * n_ + movable[c]];
  return eqc_matrix_rank(static_cast<int>(m_), static_cast<int>(movable.size()), sub.data(), 1e-10);
}

double InvariantProjector::maxResidual(double t, const double *x, int *which, int *failure) {
  if (failure)
    *failure = 0;
  if (m_ == 0)
    return 0.0;
  if (int code = evaluate(t, x, g_.data())) {
    if (failure)
      *failure = code;
    return NAN;
  }
  double worst = 0;
  for (size_t i = 0; i < m_; ++i)
    if (!(std::fabs(g_[i]) <= worst)) {
      worst = std::fabs(g_[i]);
      if (which)
        *which = static_cast<int>(i);
    }
  return worst;
}

} // namespace eqc
