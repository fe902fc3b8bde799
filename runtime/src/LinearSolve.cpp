// Dense linear solves: eqc_linsolve and the LU helper used by the Newton
// iteration.
#include "LinearSolve.h"

#include "eqc/eqc_runtime.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>
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

int factorSmall(int n, double *a, int *pivots) {
  double columnMax[InPlaceSystem];
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
    pivots[k] = pivotRow;
    if (pivotRow != k)
      for (int j = 0; j < n; ++j)
        std::swap(a[k * n + j], a[pivotRow * n + j]);
    const double pivot = a[k * n + k];
    for (int i = k + 1; i < n; ++i) {
      const double l = a[i * n + k] / pivot;
      a[i * n + k] = l;
      for (int j = k + 1; j < n; ++j)
        a[i * n + j] -= l * a[k * n + j];
    }
  }
  return EQC_OK;
}

int substituteSmall(int n, const double *lu, const int *pivots, double *b, int nrhs) {
  // P B (the row exchanges in the order factorSmall made them: they moved whole rows, L's
  // too, so P A = L U), then the forward and the back substitution.
  for (int k = 0; k < n; ++k)
    if (pivots[k] != k)
      for (int r = 0; r < nrhs; ++r)
        std::swap(b[k * nrhs + r], b[pivots[k] * nrhs + r]);
  if (nrhs == 1) { // the common case (a block's one right-hand side), as dot products
    for (int i = 1; i < n; ++i) {
      double v = b[i];
      for (int j = 0; j < i; ++j)
        v -= lu[i * n + j] * b[j];
      b[i] = v;
    }
    for (int i = n - 1; i >= 0; --i) {
      double v = b[i];
      for (int j = i + 1; j < n; ++j)
        v -= lu[i * n + j] * b[j];
      v /= lu[i * n + i];
      if (!std::isfinite(v))
        return EQC_ERR_SINGULAR;
      b[i] = v;
    }
    return EQC_OK;
  }
  for (int k = 0; k < n; ++k) {
    for (int i = k + 1; i < n; ++i) {
      const double l = lu[i * n + k];
      for (int r = 0; r < nrhs; ++r)
        b[i * nrhs + r] -= l * b[k * nrhs + r];
    }
  }
  for (int r = 0; r < nrhs; ++r)
    for (int i = n - 1; i >= 0; --i) {
      double v = b[i * nrhs + r];
      for (int j = i + 1; j < n; ++j)
        v -= lu[i * n + j] * b[j * nrhs + r];
      v /= lu[i * n + i];
      if (!std::isfinite(v))
        return EQC_ERR_SINGULAR;
      b[i * nrhs + r] = v;
    }
  return EQC_OK;
}

int solveSmall(int n, double *a, double *b, int nrhs) {
  int pivots[InPlaceSystem];
  if (int rc = factorSmall(n, a, pivots))
    return rc;
  return substituteSmall(n, a, pivots, b, nrhs);
}

const double *FactorCache::find(int n, const double *a, const int *&pivots) {
  const size_t size = static_cast<size_t>(n) * static_cast<size_t>(n);
  for (Entry &e : entries_)
    if (e.n == n && std::memcmp(a, e.matrix.data(), size * sizeof(double)) == 0) {
      e.used = ++clock_;
      pivots = e.pivots.data();
      return e.factors.data();
    }
  return nullptr;
}

const double *FactorCache::factor(int n, double *a, const int *&pivots) {
  Entry *victim = &entries_[0];
  for (Entry &e : entries_)
    if (e.used < victim->used)
      victim = &e;
  const size_t size = static_cast<size_t>(n) * static_cast<size_t>(n);
  victim->matrix.assign(a, a + size);
  victim->pivots.resize(static_cast<size_t>(n));
  victim->n = 0;
  if (factorSmall(n, a, victim->pivots.data()) != EQC_OK)
    return nullptr;
  victim->n = n;
  victim->used = ++clock_;
  victim->factors.assign(a, a + size);
  pivots = victim->pivots.data();
  return victim->factors.data();
}

FactorCache *&FactorCache::current() {
  // A plain pointer: a thread_local object with a destructor would keep a dlopened FMU loaded.
  static thread_local FactorCache *cache = nullptr;
  return cache;
}

int solveCached(int n, double *a, double *b, int nrhs) {
  FactorCache *cache = FactorCache::current();
  if (!cache)
    return solveSmall(n, a, b, nrhs);
  const int *pivots = nullptr;
  const double *factors = cache->find(n, a, pivots);
  if (!factors)
    factors = cache->factor(n, a, pivots);
  if (!factors)
    return EQC_ERR_SINGULAR;
  return substituteSmall(n, factors, pivots, b, nrhs);
}

} // namespace eqc::rt

extern "C" int eqc_linsolve(int n, double *a, double *b, int nrhs) {
  if (n < 0 || nrhs < 0 || (n > 0 && (!a || (nrhs > 0 && !b))))
    return EQC_ERR_ARGUMENT;
  if (n == 0)
    return EQC_OK;
  if (n <= eqc::rt::InPlaceSystem)
    return eqc::rt::solveCached(n, a, b, nrhs);
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

extern "C" int eqc_linsolve_min_norm(int n, double *a, double *b, int nrhs) {
  return eqc_linsolve_nearest(n, a, b, nrhs, nullptr);
}

extern "C" int eqc_linsolve_nearest(int n, double *a, double *b, int nrhs, const double *x0) {
  if (n < 0 || nrhs < 0 || (n > 0 && (!a || (nrhs > 0 && !b))))
    return EQC_ERR_ARGUMENT;
  if (n == 0)
    return EQC_OK;
  try {
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    // eqc_linsolve overwrites A and B: keep them for a singular A. The block is solved at every
    // evaluation: up to the in-place size the copies live on the stack (no allocation where A is
    // regular; no thread_local object either, which would keep a dlopened FMU loaded).
    const size_t sizeA = static_cast<size_t>(n) * static_cast<size_t>(n);
    const size_t sizeB = static_cast<size_t>(n) * static_cast<size_t>(nrhs);
    constexpr size_t kStack = static_cast<size_t>(eqc::rt::InPlaceSystem) * eqc::rt::InPlaceSystem;
    double stackA[kStack], stackB[eqc::rt::InPlaceSystem];
    std::vector<double> heapA, heapB;
    double *keptA = sizeA <= kStack ? stackA : (heapA.resize(sizeA), heapA.data());
    double *keptB = sizeB <= static_cast<size_t>(eqc::rt::InPlaceSystem) ? stackB : (heapB.resize(sizeB), heapB.data());
    std::copy(a, a + sizeA, keptA);
    std::copy(b, b + sizeB, keptB);
    int rc = eqc_linsolve(n, a, b, nrhs);
    if (rc != EQC_ERR_SINGULAR)
      return rc;
    const Eigen::MatrixXd original = Eigen::Map<const RowMajor>(keptA, n, n);
    const Eigen::MatrixXd rhs = Eigen::Map<const RowMajor>(keptB, n, nrhs);
    Eigen::Map<RowMajor> bMap(b, n, nrhs);
    if (!original.allFinite() || !rhs.allFinite())
      return EQC_ERR_SINGULAR;
    // Rank from a complete orthogonal decomposition; pivots below 1e-10 of the largest count as
    // zero (a rank deficiency that a mode's coefficients make exact, up to rounding).
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(original);
    cod.setThreshold(1e-10);
    // The minimum-norm change from x0: x = x0 + pinv(A) (B - A x0).
    Eigen::MatrixXd x;
    double magnitude = 0; // of x, and of x0 where x is computed from it (its rounding is x0's)
    if (x0) {
      const Eigen::MatrixXd before = Eigen::Map<const RowMajor>(x0, n, nrhs);
      x = before.allFinite() ? Eigen::MatrixXd(before + cod.solve(rhs - original * before)) : cod.solve(rhs);
      if (before.allFinite())
        magnitude = before.cwiseAbs().maxCoeff();
    } else {
      x = cod.solve(rhs);
    }
    if (!x.allFinite())
      return EQC_ERR_SINGULAR;
    magnitude = std::max(magnitude, x.cwiseAbs().maxCoeff());
    // Consistent: the residual at the level of rounding in A x and B.
    const double scale =
        original.cwiseAbs().rowwise().sum().maxCoeff() * magnitude + rhs.cwiseAbs().maxCoeff();
    const double residual = (original * x - rhs).cwiseAbs().maxCoeff();
    if (!(residual <= 1e-9 * scale))
      return EQC_ERR_SINGULAR;
    bMap = x;
    return EQC_OK;
  } catch (...) {
    return EQC_ERR_ARGUMENT;
  }
}
