// Dense linear solves: eqc_linsolve and the LU helper used by the Newton
// iteration.
#include "LinearSolve.h"

#include "eqc/eqc_runtime.h"

#include <cfloat>
#include <cmath>
#include <complex>

namespace eqc::rt {

namespace {

template <typename Matrix>
int factorDenseImpl(Eigen::PartialPivLU<Matrix> &lu, const Matrix &a) {
  const Eigen::Index n = a.rows();
  if (n == 0)
    return EQC_OK;
  if (!a.allFinite())
    return EQC_ERR_SINGULAR;
  lu.compute(a);
  // Pivot u_jj is compared with column j of A rather than with the whole matrix
  // norm: scaling an unknown (a change of units, common in models) scales its
  // column and its pivot alike, so a badly scaled but regular Jacobian is not
  // mistaken for a singular one.
  const Matrix &factors = lu.matrixLU();
  const double tolerance = static_cast<double>(n) * DBL_EPSILON;
  for (Eigen::Index j = 0; j < n; ++j) {
    double pivot = std::abs(factors(j, j));
    double columnMax = a.col(j).cwiseAbs().maxCoeff();
    if (pivot == 0.0 || pivot <= tolerance * columnMax)
      return EQC_ERR_SINGULAR;
  }
  return EQC_OK;
}

} // namespace

int factorDense(Eigen::PartialPivLU<Eigen::MatrixXd> &lu,
                const Eigen::MatrixXd &a) {
  return factorDenseImpl(lu, a);
}

int factorDense(Eigen::PartialPivLU<Eigen::MatrixXcd> &lu,
                const Eigen::MatrixXcd &a) {
  return factorDenseImpl(lu, a);
}

int solveDense(Eigen::PartialPivLU<Eigen::MatrixXd> &lu,
               const Eigen::MatrixXd &a, Eigen::Ref<Eigen::MatrixXd> b) {
  if (a.rows() == 0)
    return EQC_OK;
  if (int rc = factorDense(lu, a))
    return rc;
  b = lu.solve(b);
  return b.allFinite() ? EQC_OK : EQC_ERR_SINGULAR;
}

} // namespace eqc::rt

extern "C" int eqc_linsolve(int n, double *a, double *b, int nrhs) {
  if (n < 0 || nrhs < 0 || (n > 0 && (!a || (nrhs > 0 && !b))))
    return EQC_ERR_ARGUMENT;
  if (n == 0)
    return EQC_OK;
  try {
    using RowMajor =
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Eigen::Map<RowMajor> aMap(a, n, n);
    Eigen::Map<RowMajor> bMap(b, n, nrhs);
    Eigen::MatrixXd aCol = aMap;
    Eigen::MatrixXd x = bMap;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu(n);
    int rc = eqc::rt::solveDense(lu, aCol, x);
    if (rc != EQC_OK)
      return rc;
    bMap = x;
    aMap = lu.matrixLU(); // the header promises only that A is overwritten;
                          // give it the factors
    return EQC_OK;
  } catch (...) {
    // Only allocation can throw here; the header has no out-of-memory code, and
    // a size too large to allocate is the nearest thing to an invalid argument.
    return EQC_ERR_ARGUMENT;
  }
}

extern "C" int eqc_matrix_rank(int m, int n, const double *a, double rel_tol) {
  if (m < 0 || n < 0 || (m * n > 0 && !a) || !(rel_tol >= 0))
    return -1;
  if (m == 0 || n == 0)
    return 0;
  try {
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> map(a, m, n);
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(map);
    qr.setThreshold(rel_tol);
    return static_cast<int>(qr.rank());
  } catch (...) {
    return -1;
  }
}
