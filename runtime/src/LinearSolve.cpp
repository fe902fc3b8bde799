// Dense linear solves: eqc_linsolve and the LU helper used by the Newton
// iteration.
#include "LinearSolve.h"

#include "eqc/eqc_runtime.h"

#include <algorithm>
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

namespace eqc::rt {

/// Small systems (the blocks of generated models are mostly a few unknowns), without allocation:
/// LU with partial pivoting in place on the row-major A, the same pivots and the same singularity
/// test as factorDense (pivot against its column of A), then the substitutions on B.
int solveSmall(int n, double *a, double *b, int nrhs) {
  double columnMax[SmallSystem];
  for (int j = 0; j < n; ++j) {
    columnMax[j] = 0.0;
    for (int i = 0; i < n; ++i) {
      const double v = a[i * n + j];
      if (!std::isfinite(v))
        return EQC_ERR_SINGULAR;
      columnMax[j] = std::max(columnMax[j], std::fabs(v));
    }
  }
  const double tolerance = static_cast<double>(n) * DBL_EPSILON;
  for (int k = 0; k < n; ++k) {
    int pivotRow = k;
    double biggest = std::fabs(a[k * n + k]);
    for (int i = k + 1; i < n; ++i)
      if (std::fabs(a[i * n + k]) > biggest) {
        biggest = std::fabs(a[i * n + k]);
        pivotRow = i;
      }
    if (biggest == 0.0 || biggest <= tolerance * columnMax[k])
      return EQC_ERR_SINGULAR;
    if (pivotRow != k) {
      for (int j = 0; j < n; ++j)
        std::swap(a[k * n + j], a[pivotRow * n + j]);
      for (int r = 0; r < nrhs; ++r)
        std::swap(b[k * nrhs + r], b[pivotRow * nrhs + r]);
    }
    const double pivot = a[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const double l = a[i * n + k] / pivot;
      a[i * n + k] = l;
      for (int j = k + 1; j < n; ++j)
        a[i * n + j] -= l * a[k * n + j];
      for (int r = 0; r < nrhs; ++r)
        b[i * nrhs + r] -= l * b[k * nrhs + r];
    }
  }
  for (int r = 0; r < nrhs; ++r)
    for (int i = n - 1; i >= 0; --i) {
      double v = b[i * nrhs + r];
      for (int j = i + 1; j < n; ++j)
        v -= a[i * n + j] * b[j * nrhs + r];
      v /= a[i * n + i];
      if (!std::isfinite(v))
        return EQC_ERR_SINGULAR;
      b[i * nrhs + r] = v;
    }
  return EQC_OK;
}

} // namespace eqc::rt

extern "C" int eqc_linsolve(int n, double *a, double *b, int nrhs) {
  if (n < 0 || nrhs < 0 || (n > 0 && (!a || (nrhs > 0 && !b))))
    return EQC_ERR_ARGUMENT;
  if (n == 0)
    return EQC_OK;
  if (n <= eqc::rt::SmallSystem)
    return eqc::rt::solveSmall(n, a, b, nrhs);
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
