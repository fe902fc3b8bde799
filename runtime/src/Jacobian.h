// The Jacobian J = df/dx of the implicit methods (beuler, radau5), stored dense
// or sparse, and the LU factors of the shifted matrices c I - J they solve with.
#ifndef EQC_RUNTIME_JACOBIAN_H
#define EQC_RUNTIME_JACOBIAN_H

#include "Integrator.h"

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include <complex>
#include <memory>
#include <vector>

namespace eqc::rt {

/// Checks a sparsity pattern of an n-by-n matrix: col_start has n + 1
/// non-decreasing entries from 0 to nnz, and the row indices of each column are
/// in [0, n) and strictly increasing.
bool sparsityValid(int n, const eqc_sparsity &pattern);

/// True when the implicit methods should use the sparse solver for this
/// Jacobian description: the pattern is given and either the caller asks for
/// it, or (EQC_LINEAR_AUTO) the matrix is large and sparse enough for a sparse
/// LU to beat a dense one.
bool chooseSparse(int n, const eqc_jacobian &jac);

/// J at a point, from the callbacks of an eqc_jacobian or by forward
/// differences. Dense storage is n-by-n; sparse storage holds only the
/// pattern's entries and finite differences perturb structurally independent
/// columns together (Curtis-Powell-Reid grouping by a greedy colouring), so the
/// memory and the cost follow the pattern.
class JacobianMatrix {
public:
  /// Requires: jac validated (sparsityValid on its pattern).
  JacobianMatrix(int n, const eqc_jacobian &jac, eqc_stats &stats);

  bool isSparse() const { return sparse_; }

  /// Evaluates J at (t, x); f0 = f(t, x) (read by finite differences only).
  /// Finite-difference increments are sqrt(DBL_EPSILON) * max(|x_j|, floor[j])
  /// (floor NULL: 1 for every j), sqrt(DBL_EPSILON) where that is 0. Returns
  /// EQC_OK, or EQC_ERR_RHS with stats.rhs_code set when f or a Jacobian
  /// callback fails.
  int evaluate(RhsEvaluator &rhs, double t, const double *x, const double *f0, const double *floor);

  const Eigen::MatrixXd &dense() const { return dense_; }
  const Eigen::SparseMatrix<double> &sparse() const { return sparseJ_; }

private:
  int callDense(double t, const double *x, double *values);
  int callSparse(double t, const double *x, double *values);
  int differenceDense(RhsEvaluator &rhs, double t, const double *x, const double *f0, const double *floor);
  int differenceSparse(RhsEvaluator &rhs, double t, const double *x, const double *f0, const double *floor);

  const int n;
  eqc_jacobian jac_;
  eqc_stats &stats;
  bool sparse_;
  Eigen::MatrixXd dense_;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rowMajor_; ///< callback target
  std::vector<double> values_;       ///< sparse callback target (pattern order)
  Eigen::SparseMatrix<double> sparseJ_;
  std::vector<int> colour_;          ///< column -> group of structurally independent columns
  std::vector<std::vector<int>> groups_;
  Eigen::VectorXd perturbed_, fPerturbed_;
};

/// LU factors of c I - J for a real or complex shift c, dense (partial
/// pivoting, with the runtime's pivot test) or sparse (Eigen's SparseLU with
/// COLAMD ordering; the ordering and the symbolic structure are computed once).
template <typename Scalar>
class ShiftedLU {
public:
  using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

  explicit ShiftedLU(const JacobianMatrix &J);
  ~ShiftedLU();

  /// Factors c I - J for the J last evaluated. Returns EQC_OK or
  /// EQC_ERR_SINGULAR.
  int factor(Scalar c);
  /// out = (c I - J)^-1 b with the last factors; out and b must differ.
  void solve(const Vector &b, Vector &out) const;

private:
  struct Sparse;
  const JacobianMatrix &J;
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> denseMatrix;
  Eigen::PartialPivLU<Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>> denseLU;
  std::unique_ptr<Sparse> sparse;
};

extern template class ShiftedLU<double>;
extern template class ShiftedLU<std::complex<double>>;

} // namespace eqc::rt

#endif // EQC_RUNTIME_JACOBIAN_H
