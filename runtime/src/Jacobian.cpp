// Dense and sparse Jacobians of the implicit methods and the LU factors of
// c I - J.
#include "Jacobian.h"
#include "LinearSolve.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace eqc::rt {

namespace {

/// Below this size a dense LU is as fast as a sparse one whatever the pattern
/// (SparseLU's supernodal bookkeeping dominates), and above this density the
/// fill-in makes the sparse factors nearly dense anyway.
constexpr int SparseMinimumSize = 64;
constexpr double SparseMaximumDensity = 0.1;

double increment(double xj, const double *floor, int j) {
  const double size = std::max(std::fabs(xj), floor ? floor[j] : 1.0);
  // The increment actually represented is used, so the quotient carries no
  // extra rounding of delta.
  return (xj + std::sqrt(DBL_EPSILON) * (size > 0.0 ? size : 1.0)) - xj;
}

} // namespace

bool sparsityValid(int n, const eqc_sparsity &pattern) {
  if (!pattern.col_start || pattern.nnz < 0 || (pattern.nnz > 0 && !pattern.row_index))
    return false;
  if (pattern.col_start[0] != 0 || pattern.col_start[n] != pattern.nnz)
    return false;
  for (int j = 0; j < n; ++j) {
    const int begin = pattern.col_start[j], end = pattern.col_start[j + 1];
    if (end < begin || end > pattern.nnz)
      return false;
    for (int k = begin; k < end; ++k) {
      const int row = pattern.row_index[k];
      if (row < 0 || row >= n || (k > begin && row <= pattern.row_index[k - 1]))
        return false;
    }
  }
  return true;
}

bool chooseSparse(int n, const eqc_jacobian &jac) {
  if (!jac.pattern || jac.solver == EQC_LINEAR_DENSE)
    return false;
  if (jac.solver == EQC_LINEAR_SPARSE)
    return true;
  return n >= SparseMinimumSize &&
         static_cast<double>(jac.pattern->nnz) <= SparseMaximumDensity * static_cast<double>(n) * n;
}

JacobianMatrix::JacobianMatrix(int n, const eqc_jacobian &jac, eqc_stats &stats)
    : n(n), jac_(jac), stats(stats), sparse_(chooseSparse(n, jac)), perturbed_(n), fPerturbed_(n) {
  stats.linear_solver = sparse_ ? EQC_LINEAR_SPARSE : EQC_LINEAR_DENSE;
  if (!sparse_) {
    dense_.resize(n, n);
    if (jac_.dense)
      rowMajor_.resize(n, n);
    else if (jac_.sparse && jac_.pattern)
      values_.resize(jac_.pattern->nnz);
    return;
  }
  const eqc_sparsity &pattern = *jac_.pattern;
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(pattern.nnz);
  for (int j = 0; j < n; ++j)
    for (int k = pattern.col_start[j]; k < pattern.col_start[j + 1]; ++k)
      entries.emplace_back(pattern.row_index[k], j, 0.0);
  sparseJ_.resize(n, n);
  sparseJ_.setFromTriplets(entries.begin(), entries.end());
  sparseJ_.makeCompressed(); // same order as the pattern: columns, rows ascending
  if (jac_.sparse)
    return;
  // Greedy colouring: a column joins the first group none of whose columns
  // shares a row with it, so one evaluation of f per group gives all of the
  // group's columns.
  std::vector<std::vector<int>> rowColumns(n);
  for (int j = 0; j < n; ++j)
    for (int k = pattern.col_start[j]; k < pattern.col_start[j + 1]; ++k)
      rowColumns[pattern.row_index[k]].push_back(j);
  colour_.assign(n, -1);
  std::vector<int> usedBy; // colour -> last column that saw it taken
  for (int j = 0; j < n; ++j) {
    for (int k = pattern.col_start[j]; k < pattern.col_start[j + 1]; ++k)
      for (int other : rowColumns[pattern.row_index[k]])
        if (other != j && colour_[other] >= 0)
          usedBy[colour_[other]] = j;
    int c = 0;
    while (c < static_cast<int>(usedBy.size()) && usedBy[c] == j)
      ++c;
    if (c == static_cast<int>(usedBy.size())) {
      usedBy.push_back(-1);
      groups_.emplace_back();
    }
    colour_[j] = c;
    groups_[c].push_back(j);
  }
}

int JacobianMatrix::callDense(double t, const double *x, double *values) {
  ++stats.jac_evals;
  return callUser(stats, [&] { return jac_.dense(jac_.user, t, x, values); });
}

int JacobianMatrix::callSparse(double t, const double *x, double *values) {
  ++stats.jac_evals;
  return callUser(stats, [&] { return jac_.sparse(jac_.user, t, x, values); });
}

int JacobianMatrix::evaluate(RhsEvaluator &rhs, double t, const double *x, const double *f0, const double *floor) {
  if (sparse_) {
    if (jac_.sparse)
      return callSparse(t, x, sparseJ_.valuePtr());
    return differenceSparse(rhs, t, x, f0, floor);
  }
  if (jac_.dense) {
    if (int rc = callDense(t, x, rowMajor_.data()))
      return rc;
    dense_ = rowMajor_;
    return EQC_OK;
  }
  if (jac_.sparse && jac_.pattern) {
    if (int rc = callSparse(t, x, values_.data()))
      return rc;
    dense_.setZero();
    const eqc_sparsity &pattern = *jac_.pattern;
    for (int j = 0; j < n; ++j)
      for (int k = pattern.col_start[j]; k < pattern.col_start[j + 1]; ++k)
        dense_(pattern.row_index[k], j) = values_[k];
    return EQC_OK;
  }
  return differenceDense(rhs, t, x, f0, floor);
}

int JacobianMatrix::differenceDense(RhsEvaluator &rhs, double t, const double *x, const double *f0,
                                    const double *floor) {
  std::copy(x, x + n, perturbed_.data());
  for (int j = 0; j < n; ++j) {
    double delta = increment(x[j], floor, j);
    perturbed_[j] = x[j] + delta;
    int rc = rhs(t, perturbed_.data(), fPerturbed_.data());
    if (retryable(rc, rhs.statistics())) { // x + delta is outside the model's domain: difference backwards
      delta = -delta;
      perturbed_[j] = x[j] + delta;
      rc = rhs(t, perturbed_.data(), fPerturbed_.data());
    }
    perturbed_[j] = x[j];
    if (rc != EQC_OK)
      return rc;
    for (int i = 0; i < n; ++i)
      dense_(i, j) = (fPerturbed_[i] - f0[i]) / delta;
  }
  return EQC_OK;
}

int JacobianMatrix::differenceSparse(RhsEvaluator &rhs, double t, const double *x, const double *f0,
                                     const double *floor) {
  std::copy(x, x + n, perturbed_.data());
  const int *start = sparseJ_.outerIndexPtr();
  const int *rows = sparseJ_.innerIndexPtr();
  double *values = sparseJ_.valuePtr();
  for (const std::vector<int> &group : groups_) {
    for (int j : group)
      perturbed_[j] = x[j] + increment(x[j], floor, j);
    int rc = rhs(t, perturbed_.data(), fPerturbed_.data());
    if (retryable(rc, rhs.statistics())) { // outside the model's domain: difference backwards
      for (int j : group)
        perturbed_[j] = x[j] - (perturbed_[j] - x[j]);
      rc = rhs(t, perturbed_.data(), fPerturbed_.data());
    }
    for (int j : group) {
      const double delta = perturbed_[j] - x[j];
      perturbed_[j] = x[j];
      for (int k = start[j]; k < start[j + 1]; ++k)
        values[k] = (fPerturbed_[rows[k]] - f0[rows[k]]) / delta;
    }
    if (rc != EQC_OK)
      return rc;
  }
  return EQC_OK;
}

/// The sparse shifted matrix: J's pattern plus the diagonal, with the position
/// of each of J's entries and of each diagonal entry in it.
template <typename Scalar>
struct ShiftedLU<Scalar>::Sparse {
  Eigen::SparseMatrix<Scalar> matrix;
  std::vector<int> fromJ, diagonal;
  Eigen::SparseLU<Eigen::SparseMatrix<Scalar>, Eigen::COLAMDOrdering<int>> lu;
  bool analyzed = false;
};

template <typename Scalar>
ShiftedLU<Scalar>::ShiftedLU(const JacobianMatrix &J) : J(J) {
  if (!J.isSparse()) {
    const Eigen::Index n = J.dense().rows();
    denseMatrix.resize(n, n);
    denseLU = Eigen::PartialPivLU<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>>(n);
    return;
  }
  sparse = std::make_unique<Sparse>();
  const Eigen::SparseMatrix<double> &s = J.sparse();
  const int n = static_cast<int>(s.rows());
  const int *start = s.outerIndexPtr();
  const int *rows = s.innerIndexPtr();
  std::vector<Eigen::Triplet<Scalar>> entries;
  entries.reserve(s.nonZeros() + n);
  for (int j = 0; j < n; ++j) {
    for (int k = start[j]; k < start[j + 1]; ++k)
      entries.emplace_back(rows[k], j, Scalar(0));
    entries.emplace_back(j, j, Scalar(0)); // summed with J's diagonal entry, if any
  }
  sparse->matrix.resize(n, n);
  sparse->matrix.setFromTriplets(entries.begin(), entries.end());
  sparse->matrix.makeCompressed();
  // Locate J's entries and the diagonal in the merged pattern, column by column.
  sparse->fromJ.resize(s.nonZeros());
  sparse->diagonal.resize(n);
  const int *mStart = sparse->matrix.outerIndexPtr();
  const int *mRows = sparse->matrix.innerIndexPtr();
  for (int j = 0; j < n; ++j) {
    int m = mStart[j];
    for (int k = start[j]; k < start[j + 1]; ++k) {
      while (mRows[m] < rows[k])
        ++m;
      sparse->fromJ[k] = m;
    }
    m = mStart[j];
    while (mRows[m] < j)
      ++m;
    sparse->diagonal[j] = m;
  }
}

template <typename Scalar>
ShiftedLU<Scalar>::~ShiftedLU() = default;

template <typename Scalar>
int ShiftedLU<Scalar>::factor(Scalar c) {
  if (!sparse) {
    denseMatrix = (-J.dense()).template cast<Scalar>();
    denseMatrix.diagonal().array() += c;
    return factorDense(denseLU, denseMatrix);
  }
  Scalar *values = sparse->matrix.valuePtr();
  std::fill(values, values + sparse->matrix.nonZeros(), Scalar(0));
  const double *jValues = J.sparse().valuePtr();
  for (size_t k = 0; k < sparse->fromJ.size(); ++k) {
    if (!std::isfinite(jValues[k]))
      return EQC_ERR_SINGULAR;
    values[sparse->fromJ[k]] = -jValues[k];
  }
  for (int d : sparse->diagonal)
    values[d] += c;
  if (!sparse->analyzed) {
    sparse->lu.analyzePattern(sparse->matrix);
    sparse->analyzed = true;
  }
  sparse->lu.factorize(sparse->matrix);
  return sparse->lu.info() == Eigen::Success ? EQC_OK : EQC_ERR_SINGULAR;
}

template <typename Scalar>
void ShiftedLU<Scalar>::solve(const Vector &b, Vector &out) const {
  if (!sparse)
    out = denseLU.solve(b);
  else
    out = sparse->lu.solve(b);
}

template class ShiftedLU<double>;
template class ShiftedLU<std::complex<double>>;

} // namespace eqc::rt

extern "C" int eqc_constraint_jacobian_fd(int (*g)(double, const double *, const double *, double *), int n, int rows, const int *col_start,
                                          const int *row_index, double t, const double *x, const double *p,
                                          double *values) {
  std::vector<double> shifted(x, x + n), g0(static_cast<size_t>(rows)), g1(static_cast<size_t>(rows));
  if (int code = g(t, x, p, g0.data()))
    return code;
  for (int j = 0; j < n; ++j) {
    if (col_start[j] == col_start[j + 1])
      continue;
    const double h = eqc::rt::increment(x[j], nullptr, j);
    shifted[static_cast<size_t>(j)] = x[j] + h;
    const int code = g(t, shifted.data(), p, g1.data());
    shifted[static_cast<size_t>(j)] = x[j];
    if (code)
      return code;
    for (int k = col_start[j]; k < col_start[j + 1]; ++k)
      values[k] = (g1[static_cast<size_t>(row_index[k])] - g0[static_cast<size_t>(row_index[k])]) / h;
  }
  return 0;
}
