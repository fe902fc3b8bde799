// Projection onto a model table's constraints moving a subset of the states (see HeldConstraints.h).
#include "HeldConstraints.h"

#include <utility>

namespace eqc::rt {

HeldConstraints::HeldConstraints(int n, int rows, eqc_model_inv_fn g, eqc_model_invjac_fn jacobian,
                                 const eqc_sparsity *pattern, const double *p, const double *x,
                                 std::vector<int> movable)
    : n_(n), rows_(rows), g_(g), jacobian_(jacobian), fullPattern_(pattern), p_(p), movable_(std::move(movable)),
      full_(x, x + n),
      fullJacobian_(pattern ? static_cast<size_t>(pattern->nnz) : static_cast<size_t>(rows) * static_cast<size_t>(n)) {}

template <typename F> void HeldConstraints::column(int j, F &&f) const {
  if (fullPattern_) {
    for (int k = fullPattern_->col_start[j]; k < fullPattern_->col_start[j + 1]; ++k)
      f(fullPattern_->row_index[k], static_cast<size_t>(k));
  } else {
    for (int i = 0; i < rows_; ++i)
      f(i, static_cast<size_t>(i) * static_cast<size_t>(n_) + static_cast<size_t>(j));
  }
}

int HeldConstraints::keepReached(double t, const double *x) {
  if (int code = jacobian_(t, x, p_, fullJacobian_.data()))
    return code;
  std::vector<char> reached(static_cast<size_t>(rows_), 0);
  for (int j : movable_)
    column(j, [&](int i, size_t k) { reached[static_cast<size_t>(i)] |= fullJacobian_[k] != 0; });
  subset_.clear();
  for (int i = 0; i < rows_; ++i)
    if (reached[static_cast<size_t>(i)])
      subset_.push_back(i);
  reachedNone_ = subset_.empty();
  if (static_cast<int>(subset_.size()) == rows_)
    subset_.clear();
  return 0;
}

void HeldConstraints::buildPattern() {
  std::vector<int> newRow(static_cast<size_t>(rows_), subset_.empty() ? 0 : -1);
  if (subset_.empty())
    for (int i = 0; i < rows_; ++i)
      newRow[static_cast<size_t>(i)] = i;
  for (size_t r = 0; r < subset_.size(); ++r)
    newRow[static_cast<size_t>(subset_[r])] = static_cast<int>(r);
  colStart_.assign(1, 0);
  rowIndex_.clear();
  source_.clear();
  for (int j : movable_) {
    column(j, [&](int i, size_t k) {
      if (newRow[static_cast<size_t>(i)] >= 0) {
        rowIndex_.push_back(newRow[static_cast<size_t>(i)]);
        source_.push_back(static_cast<int>(k));
      }
    });
    colStart_.push_back(static_cast<int>(rowIndex_.size()));
  }
  pattern_ = {static_cast<int>(rowIndex_.size()), colStart_.data(), rowIndex_.data()};
}

int HeldConstraints::evaluate(void *user, double t, const double *xs, double *g, double *G) {
  auto *h = static_cast<HeldConstraints *>(user);
  for (size_t c = 0; c < h->movable_.size(); ++c)
    h->full_[static_cast<size_t>(h->movable_[c])] = xs[c];
  const bool subset = !h->subset_.empty();
  if (subset)
    h->fullG_.resize(static_cast<size_t>(h->rows_));
  if (int code = h->g_(t, h->full_.data(), h->p_, subset ? h->fullG_.data() : g))
    return code;
  for (size_t r = 0; r < h->subset_.size(); ++r)
    g[r] = h->fullG_[static_cast<size_t>(h->subset_[r])];
  if (!G)
    return 0;
  if (int code = h->jacobian_(t, h->full_.data(), h->p_, h->fullJacobian_.data()))
    return code;
  for (size_t k = 0; k < h->source_.size(); ++k)
    G[k] = h->fullJacobian_[static_cast<size_t>(h->source_[k])];
  return 0;
}

int HeldConstraints::project(eqc_projector *projector, double t, double *xs, double tol, int maxIter,
                             double &residual, bool keepLastIterate) {
  buildPattern();
  std::vector<double> moving;
  moving.reserve(movable_.size());
  for (int i : movable_)
    moving.push_back(xs[i]);
  const int rows = subset_.empty() ? rows_ : static_cast<int>(subset_.size());
  const int status = eqc_projector_project_sparse(projector, static_cast<int>(moving.size()), rows, &pattern_, t,
                                                  moving.data(), evaluate, this, tol, maxIter, &residual);
  if (status == EQC_OK || keepLastIterate)
    for (size_t c = 0; c < movable_.size(); ++c)
      xs[movable_[c]] = moving[c];
  return status;
}

} // namespace eqc::rt
