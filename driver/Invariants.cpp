// Invariant residuals and projection through the runtime's eqc_project.
#include "driver/Invariants.h"

#include "runtime/include/eqc/eqc_runtime.h"

#include <cmath>

namespace eqc {

InvariantProjector::InvariantProjector(JitModel &jit, const OdeModel &model, const std::vector<double> &params,
                                       bool initial)
    : jit_(jit), initial_(initial), p_(params.data()), n_(model.states.size()),
      m_(initial ? model.initialConstraints.residuals.size() : model.invariants.residuals.size()), full_(n_),
      g_(m_),
      pattern_(constraintJacobianPattern(model, initial ? model.initialConstraints.residuals
                                                        : model.invariants.residuals)),
      values_(pattern_.nnz()) {
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
  // The generated function writes the pattern's values: dense here, and only once a projection
  // needs it (a run may need residuals alone).
  fullJac_.assign(m_ * n_, 0.0);
  double *jac = fullJac_.data();
  for (size_t j = 0; j < n_; ++j)
    for (int k = pattern_.colStart[j]; k < pattern_.colStart[j + 1]; ++k)
      jac[static_cast<size_t>(pattern_.rowIndex[static_cast<size_t>(k)]) * n_ + j] = values_[static_cast<size_t>(k)];
  return 0;
}

int InvariantProjector::constraint(void *user, double t, const double *xs, double *g, double *jac) {
  auto *self = static_cast<InvariantProjector *>(user);
  const std::vector<int> &cols = *self->movable_;
  for (size_t c = 0; c < cols.size(); ++c)
    self->full_[cols[c]] = xs[c];
  const std::vector<int> &rows = self->rows_;
  double *gAll = rows.empty() ? g : self->g_.data();
  if (self->evaluate(t, self->full_.data(), gAll))
    return 1;
  for (size_t r = 0; r < rows.size(); ++r)
    g[r] = gAll[rows[r]];
  if (!jac)
    return 0;
  if (self->jacobian(t, self->full_.data()))
    return 1;
  const size_t m = rows.empty() ? self->m_ : rows.size();
  for (size_t r = 0; r < m; ++r) {
    size_t i = rows.empty() ? r : static_cast<size_t>(rows[r]);
    for (size_t c = 0; c < cols.size(); ++c)
      jac[r * cols.size() + c] = self->fullJac_[i * self->n_ + cols[c]];
  }
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
  rows_.clear();
  if (reachableOnly) {
    // The invariants that the movable states reach at x (a row of ∂g/∂x not zero on them).
    if (jacobian(t, x))
      return EQC_ERR_RHS;
    for (size_t i = 0; i < m_; ++i)
      for (int c : movable)
        if (fullJac_[i * n_ + c] != 0) {
          rows_.push_back(static_cast<int>(i));
          break;
        }
    if (rows_.empty()) {
      *residual = 0;
      return EQC_OK;
    }
    if (rows_.size() == m_)
      rows_.clear();
  }
  const size_t m = rows_.empty() ? m_ : rows_.size();
  full_.assign(x, x + n_);
  movable_ = &movable;
  std::vector<double> xs(movable.size());
  for (size_t c = 0; c < movable.size(); ++c)
    xs[c] = x[movable[c]];
  int status = eqc_projector_project(projector_.get(), static_cast<int>(n_ == 0 ? 0 : movable.size()), static_cast<int>(m), t, xs.data(),
                           constraint, this, tol, 20, residual);
  rows_.clear();
  for (size_t c = 0; c < movable.size(); ++c)
    x[movable[c]] = xs[c];
  return status;
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

double InvariantProjector::maxResidual(double t, const double *x, int *which) {
  if (m_ == 0 || evaluate(t, x, g_.data()))
    return m_ == 0 ? 0.0 : NAN;
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
