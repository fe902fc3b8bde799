// eqc_project: damped Gauss-Newton projection of a state onto the invariants
// g(t, x) = 0 (the hidden constraints of an index-reduced DAE).
#include "eqc/eqc_runtime.h"

#include <Eigen/Dense>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <limits>
#include <new>
#include <vector>

namespace {

constexpr int MaxHalvings = 10;
/// Tolerances below this cannot be met: g itself is computed with rounding.
constexpr double MinTolerance = 4.0 * DBL_EPSILON;
/// A Cholesky pivot d_j of G G^T is the squared distance of row j of G from
/// the span of the rows before it; below this fraction of |G_j|^2 (an angle of
/// about 5e-7 rad) the invariants count as dependent. Forming G G^T squares the
/// condition of G, so rows closer than that leave no correct digit in the step.
constexpr double SingularRatio = 1024.0 * DBL_EPSILON;

using RowMajorMap = Eigen::Map<
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
using VectorMap = Eigen::Map<Eigen::VectorXd>;

/// From this many invariants on, G G^T is factored as a sparse matrix when G is sparse: the
/// dense Cholesky costs m^3/3 (40 s for the 8,000 invariants of 2,000 coupled pendula) and m^2
/// doubles, while the hidden constraints of a large model each involve a few states.
constexpr int SparseFrom = 128;
/// ... and when at most this fraction of G's entries is non-zero.
constexpr double SparseDensity = 0.05;

using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using SparseColumns = Eigen::SparseMatrix<double>;

/// Scratch vectors of one projection. Projection runs after every step of an
/// integration, so each thread keeps its storage between calls and it grows
/// only when a larger problem comes along: the step loop does not allocate
/// (the sparse factorization of large systems does).
struct Workspace {
  std::vector<double> storage;
  bool inUse = false; // a constraint function that itself projects gets its own

  /// Carves the buffers for n states and m invariants out of the storage (G G^T dense only
  /// below SparseFrom invariants). With a pattern of nnz entries, G's values; a dense G only
  /// below SparseFrom invariants (for the dense normal equations).
  void layout(int n, int m, const eqc_sparsity *pattern) {
    const std::size_t nn = static_cast<std::size_t>(n);
    const std::size_t mm = static_cast<std::size_t>(m);
    const std::size_t normalSize = m < SparseFrom ? mm * mm : 0;
    const std::size_t valueCount = pattern ? static_cast<std::size_t>(pattern->nnz) : 0;
    const std::size_t denseSize = !pattern || m < SparseFrom ? mm * nn : 0;
    const std::size_t need = 2 * nn + 5 * mm + denseSize + valueCount + normalSize;
    if (storage.size() < need)
      storage.resize(need);
    double *p = storage.data();
    auto take = [&p](std::size_t count) {
      double *start = p;
      p += count;
      return start;
    };
    xTrial = take(nn);
    dx = take(nn);
    g = take(mm);
    gTrial = take(mm);
    y = take(mm);
    weight = take(mm);
    diag = take(mm);
    jac = denseSize ? take(denseSize) : nullptr;
    values = take(valueCount);
    normal = take(normalSize);
  }

  /// Where the constraint function writes G: the pattern's values, or the dense matrix.
  double *evaluated(const eqc_sparsity *pattern) { return pattern ? values : jac; }

  double *xTrial, *dx, *g, *gTrial, *y, *weight, *diag, *jac, *values, *normal;
};

/// Marks a workspace as taken for the lifetime of one projection.
class WorkspaceLease {
public:
  explicit WorkspaceLease(Workspace &w) : w(w) { w.inUse = true; }
  ~WorkspaceLease() { w.inUse = false; }
  WorkspaceLease(const WorkspaceLease &) = delete;
  WorkspaceLease &operator=(const WorkspaceLease &) = delete;

private:
  Workspace &w;
};

/// The user's invariants at fixed t (G dense, or the values of `pattern`).
class Constraints {
public:
  Constraints(int n, int m, const eqc_sparsity *pattern, double t, eqc_constraint_fn fn, void *user)
      : n(n), m(m), pattern(pattern), t(t), fn(fn), user(user) {}

  /// Evaluates g (and G when jac is not NULL) at x; EQC_OK, EQC_ERR_RHS when
  /// the function fails or throws, EQC_ERR_NONFINITE for NaN or Inf.
  int evaluate(const double *x, double *g, double *jac) const {
    int code;
    try {
      code = fn(user, t, x, g, jac);
    } catch (...) {
      code = -1; // must not unwind through the C ABI
    }
    if (code != 0)
      return EQC_ERR_RHS;
    const std::size_t entries = pattern ? static_cast<std::size_t>(pattern->nnz) : static_cast<std::size_t>(m) * n;
    if (!allFinite(static_cast<std::size_t>(m), g) || (jac && !allFinite(entries, jac)))
      return EQC_ERR_NONFINITE;
    return EQC_OK;
  }

  /// As evaluate, but rows that are not finite (g_i, or an entry of G's row i) are set aside:
  /// zeroed in g and G and counted in `excluded`, so that the others can move x to where those
  /// can be evaluated (a rotation matrix that starts at 0 gives a line force the direction 0/0).
  int evaluateFinite(const double *x, double *g, double *jac, int &excluded) const {
    int code;
    try {
      code = fn(user, t, x, g, jac);
    } catch (...) {
      code = -1;
    }
    if (code != 0)
      return EQC_ERR_RHS;
    std::vector<char> bad(static_cast<std::size_t>(m), 0);
    for (int i = 0; i < m; ++i)
      bad[i] = !std::isfinite(g[i]);
    if (jac && pattern) {
      for (int k = 0; k < pattern->nnz; ++k)
        if (!std::isfinite(jac[k]))
          bad[pattern->row_index[k]] = 1;
    } else if (jac) {
      for (int i = 0; i < m; ++i)
        bad[i] = bad[i] || !allFinite(static_cast<std::size_t>(n), jac + static_cast<std::size_t>(i) * n);
    }
    excluded = 0;
    for (int i = 0; i < m; ++i)
      if (bad[i]) {
        ++excluded;
        g[i] = 0.0;
        if (jac && !pattern)
          std::fill(jac + static_cast<std::size_t>(i) * n, jac + static_cast<std::size_t>(i + 1) * n, 0.0);
      }
    if (jac && pattern && excluded)
      for (int k = 0; k < pattern->nnz; ++k)
        if (bad[pattern->row_index[k]])
          jac[k] = 0.0;
    return EQC_OK;
  }

  const eqc_sparsity *sparsity() const { return pattern; }

private:
  static bool allFinite(std::size_t count, const double *v) {
    for (std::size_t i = 0; i < count; ++i)
      if (!std::isfinite(v[i]))
        return false;
    return true;
  }

  int n, m;
  const eqc_sparsity *pattern;
  double t;
  eqc_constraint_fn fn;
  void *user;
};

/// G = the pattern's values scattered into the dense m-by-n row-major `dense`.
void scatter(int n, int m, const eqc_sparsity &pattern, const double *values, double *dense) {
  std::fill(dense, dense + static_cast<std::size_t>(m) * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int k = pattern.col_start[j]; k < pattern.col_start[j + 1]; ++k)
      dense[static_cast<std::size_t>(pattern.row_index[k]) * n + j] = values[k];
}

/// A compressed-sparse-column pattern of an m-by-n matrix (see eqc_sparsity).
bool patternValid(int n, int m, const eqc_sparsity &p) {
  if (p.nnz < 0 || !p.col_start || (p.nnz > 0 && !p.row_index) || p.col_start[0] != 0 || p.col_start[n] != p.nnz)
    return false;
  for (int j = 0; j < n; ++j) {
    if (p.col_start[j + 1] < p.col_start[j])
      return false;
    for (int k = p.col_start[j]; k < p.col_start[j + 1]; ++k)
      if (p.row_index[k] < 0 || p.row_index[k] >= m || (k > p.col_start[j] && p.row_index[k] <= p.row_index[k - 1]))
        return false;
  }
  return true;
}

double maxAbs(int count, const double *v) {
  double worst = 0.0;
  for (int i = 0; i < count; ++i)
    worst = std::max(worst, std::fabs(v[i]));
  return worst;
}

/// max_i |g_i| / weight_i: the residual in units of the convergence threshold.
double scaledResidual(int m, const double *g, const double *weight) {
  double worst = 0.0;
  for (int i = 0; i < m; ++i) {
    // A row of G that vanishes (weight 0) is met only where g_i is exactly 0.
    double r = weight[i] > 0 ? std::fabs(g[i]) / weight[i] : g[i] == 0 ? 0.0 : HUGE_VAL;
    worst = std::max(worst, r);
  }
  return worst;
}

/// G's non-zero entries as a sparse row-major matrix (the same entries in the same order
/// whether G is dense or the values of a pattern), or nothing when more than SparseDensity of
/// G is non-zero.
bool sparseRows(int n, int m, const eqc_sparsity *pattern, Workspace &w, SparseRows &jac) {
  std::size_t nonZeros = 0;
  const std::size_t total = static_cast<std::size_t>(m) * n;
  if (pattern) {
    for (int k = 0; k < pattern->nnz; ++k)
      nonZeros += w.values[k] != 0.0;
  } else {
    for (std::size_t k = 0; k < total; ++k)
      nonZeros += w.jac[k] != 0.0;
  }
  if (static_cast<double>(nonZeros) > SparseDensity * static_cast<double>(total))
    return false;
  jac.resize(m, n);
  jac.reserve(static_cast<Eigen::Index>(nonZeros));
  if (pattern) {
    // Rows from the compressed columns: each row's entries in increasing column order.
    std::vector<int> rowStart(static_cast<std::size_t>(m) + 1, 0);
    for (int k = 0; k < pattern->nnz; ++k)
      if (w.values[k] != 0.0)
        ++rowStart[static_cast<std::size_t>(pattern->row_index[k]) + 1];
    for (int i = 0; i < m; ++i)
      rowStart[static_cast<std::size_t>(i) + 1] += rowStart[static_cast<std::size_t>(i)];
    std::vector<int> column(nonZeros), fill(rowStart.begin(), rowStart.end() - 1);
    std::vector<double> value(nonZeros);
    for (int j = 0; j < n; ++j)
      for (int k = pattern->col_start[j]; k < pattern->col_start[j + 1]; ++k)
        if (w.values[k] != 0.0) {
          const int at = fill[static_cast<std::size_t>(pattern->row_index[k])]++;
          column[static_cast<std::size_t>(at)] = j;
          value[static_cast<std::size_t>(at)] = w.values[k];
        }
    for (int i = 0; i < m; ++i) {
      jac.startVec(i);
      for (int at = rowStart[static_cast<std::size_t>(i)]; at < rowStart[static_cast<std::size_t>(i) + 1]; ++at)
        jac.insertBack(i, column[static_cast<std::size_t>(at)]) = value[static_cast<std::size_t>(at)];
    }
  } else {
    for (int i = 0; i < m; ++i) {
      jac.startVec(i);
      for (int j = 0; j < n; ++j)
        if (double v = w.jac[static_cast<std::size_t>(i) * n + j]; v != 0.0)
          jac.insertBack(i, j) = v;
    }
  }
  jac.finalize();
  return true;
}

/// solveNormalEquations for a large sparse G: G G^T by a sparse Cholesky factorization (with
/// a fill-reducing ordering), the same pivot test on the permuted rows; dx = -G^T y. Returns
/// EQC_OK, EQC_ERR_SINGULAR, or -1 when G is too dense for it.
int solveSparseNormalEquations(int n, int m, const eqc_sparsity *pattern, Workspace &w) {
  SparseRows jac;
  if (!sparseRows(n, m, pattern, w, jac))
    return -1;
  const SparseColumns normal = SparseColumns(jac * jac.transpose());
  Eigen::SimplicialLLT<SparseColumns> llt(normal);
  if (llt.info() != Eigen::Success)
    return EQC_ERR_SINGULAR;
  // L L^T = P N P^T: the pivot of row i of N is L_kk with k = P(i).
  const SparseColumns lower = llt.matrixL();
  const auto &permutation = llt.permutationP().indices();
  for (int i = 0; i < m; ++i) {
    const int k = permutation(i);
    const double pivot = lower.coeff(k, k) * lower.coeff(k, k);
    if (!(pivot > SingularRatio * normal.coeff(i, i)))
      return EQC_ERR_SINGULAR;
  }
  Eigen::VectorXd y = llt.solve(VectorMap(w.g, m));
  if (!y.allFinite())
    return EQC_ERR_SINGULAR;
  VectorMap(w.dx, n).noalias() = -(jac.transpose() * y);
  return EQC_OK;
}

/// Solves (G G^T) y = g into w.y; EQC_OK or EQC_ERR_SINGULAR.
int solveNormalEquations(int n, int m, Workspace &w) {
  RowMajorMap jac(w.jac, m, n);
  Eigen::Map<Eigen::MatrixXd> normal(w.normal, m, m);
  normal.noalias() = jac * jac.transpose();
  for (int i = 0; i < m; ++i)
    w.diag[i] = normal(i, i);
  // In place: no allocation per projection.
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(normal);
  if (llt.info() != Eigen::Success)
    return EQC_ERR_SINGULAR;
  for (int j = 0; j < m; ++j) {
    double pivot = normal(j, j) * normal(j, j); // L_jj^2 = d_j
    if (!(pivot > SingularRatio * w.diag[j]))
      return EQC_ERR_SINGULAR;
  }
  VectorMap y(w.y, m);
  y = VectorMap(w.g, m);
  llt.solveInPlace(y);
  return y.allFinite() ? EQC_OK : EQC_ERR_SINGULAR;
}

/// Requires: m >= 1, x finite, the workspace laid out for (n, m).
/// Ensures: x is the last accepted iterate and *residual its max |g_i| (NaN if
/// g could not be evaluated at the starting point).
int project(int n, int m, double *x, const Constraints &c, double tol,
            int maxIter, Workspace &w, double &residual) {
  residual = std::numeric_limits<double>::quiet_NaN();
  const eqc_sparsity *pattern = c.sparsity();
  double *G = w.evaluated(pattern);
  // Rows that cannot be evaluated at the start are set aside until the others have moved x
  // where they can (`excluded` of them; the projection converges only without any).
  int excluded = 0;
  int first = c.evaluate(x, w.g, G);
  const bool masked = first == EQC_ERR_NONFINITE;
  if (masked)
    first = c.evaluateFinite(x, w.g, G, excluded);
  if (first != EQC_OK)
    return first;
  residual = maxAbs(m, w.g);

  for (int iter = 0;; ++iter) {
    // weight_i: the most g_i changes, to first order, when every x_j moves by
    // tol * (1 + |x_j|) (eqc_solve_block's scaled step); it carries the units
    // of g_i, so scaling an invariant does not change the test. (Each row's terms are summed
    // in increasing j either way: a sparse G gives the dense sums' bits.)
    if (pattern) {
      std::fill(w.weight, w.weight + m, 0.0);
      for (int j = 0; j < n; ++j)
        for (int k = pattern->col_start[j]; k < pattern->col_start[j + 1]; ++k)
          w.weight[pattern->row_index[k]] += std::fabs(w.values[k]) * (1.0 + std::fabs(x[j]));
      for (int i = 0; i < m; ++i)
        w.weight[i] *= tol;
    } else {
      for (int i = 0; i < m; ++i) {
        double sum = 0.0;
        for (int j = 0; j < n; ++j)
          sum += std::fabs(w.jac[static_cast<std::size_t>(i) * n + j]) *
                 (1.0 + std::fabs(x[j]));
        w.weight[i] = tol * sum;
      }
    }
    bool converged = excluded == 0;
    for (int i = 0; i < m && converged; ++i)
      converged = std::fabs(w.g[i]) <= w.weight[i];
    if (converged)
      return EQC_OK;
    if (iter == maxIter)
      return EQC_ERR_NEWTON;

    // The minimum-norm correction: the smallest dx with G dx = -g.
    int solved = m >= SparseFrom ? solveSparseNormalEquations(n, m, pattern, w) : -1;
    std::vector<double> denseG; // a dense G of many invariants given sparse: not kept either
    if (solved != EQC_OK) { // the dense normal equations, or the rank-revealing fallback
      if (pattern && !w.jac) {
        denseG.resize(static_cast<std::size_t>(m) * n);
        w.jac = denseG.data();
      }
      if (pattern)
        scatter(n, m, *pattern, w.values, w.jac);
    }
    if (solved == -1) {
      std::vector<double> large; // G G^T of many dense invariants: not kept in the workspace
      if (m >= SparseFrom) {
        large.resize(static_cast<std::size_t>(m) * m);
        w.normal = large.data();
      }
      solved = solveNormalEquations(n, m, w);
      if (solved == EQC_OK)
        VectorMap(w.dx, n).noalias() = -(RowMajorMap(w.jac, m, n).transpose() * VectorMap(w.y, m));
      if (m >= SparseFrom)
        w.normal = nullptr;
    }
    if (solved != EQC_OK) {
      // Dependent invariants or a vanishing row of G (consistent start values often sit where
      // a constraint is stationary in the free states): the minimum-norm least-squares step of
      // a rank-revealing factorization. Rare, so its allocation does not matter.
      Eigen::MatrixXd jac = RowMajorMap(w.jac, m, n);
      Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(jac);
      Eigen::VectorXd step = cod.solve(-VectorMap(w.g, m));
      if (!step.allFinite()) {
        if (!denseG.empty())
          w.jac = nullptr;
        return EQC_ERR_SINGULAR;
      }
      VectorMap(w.dx, n) = step;
    }
    if (!denseG.empty())
      w.jac = nullptr;

    // Every weight is positive here: a zero row of G makes G G^T singular.
    // Damping: halve while the scaled residual does not strictly decrease, so
    // a poor start cannot throw x far off the manifold.
    const double current = scaledResidual(m, w.g, w.weight);
    double lambda = 1.0;
    bool accepted = false;
    int lastFailure = EQC_OK; // status of the last trial g could not handle
    bool anyEvaluated = false;
    for (int halving = 0; halving <= MaxHalvings; ++halving, lambda *= 0.5) {
      for (int j = 0; j < n; ++j)
        w.xTrial[j] = x[j] + lambda * w.dx[j];
      // Most corrections are full steps; fetch G with them to save an
      // evaluation. G at x is not needed any more once dx is known.
      const bool full = halving == 0;
      int trialExcluded = 0;
      int rc = masked ? c.evaluateFinite(w.xTrial, w.gTrial, full ? G : nullptr, trialExcluded)
                      : c.evaluate(w.xTrial, w.gTrial, full ? G : nullptr);
      if (rc != EQC_OK) {
        lastFailure = rc;
        continue;
      }
      anyEvaluated = true;
      if (trialExcluded < excluded || (trialExcluded == excluded && scaledResidual(m, w.gTrial, w.weight) < current)) {
        if (!full) {
          int rcJac = masked ? c.evaluateFinite(w.xTrial, w.gTrial, G, trialExcluded) : c.evaluate(w.xTrial, w.gTrial, G);
          if (rcJac) {
            lastFailure = rcJac;
            break;
          }
        }
        excluded = trialExcluded;
        accepted = true;
        break;
      }
    }
    if (!accepted)
      return anyEvaluated ? EQC_ERR_NEWTON : lastFailure;
    std::copy(w.xTrial, w.xTrial + n, x);
    std::swap(w.g, w.gTrial);
    residual = maxAbs(m, w.g);
  }
}

} // namespace

struct eqc_projector {
  Workspace workspace;
};

extern "C" eqc_projector *eqc_projector_new(void) { return new (std::nothrow) eqc_projector; }

extern "C" void eqc_projector_free(eqc_projector *projector) { delete projector; }

extern "C" int eqc_project(int n, int m, double t, double *x, eqc_constraint_fn g, void *user, double tol,
                           int max_iter, double *residual_norm) {
  return eqc_projector_project(nullptr, n, m, t, x, g, user, tol, max_iter, residual_norm);
}

extern "C" int eqc_projector_project(eqc_projector *projector, int n, int m, double t, double *x,
                                     eqc_constraint_fn g, void *user, double tol, int max_iter,
                                     double *residual_norm) {
  return eqc_projector_project_sparse(projector, n, m, nullptr, t, x, g, user, tol, max_iter, residual_norm);
}

extern "C" int eqc_projector_project_sparse(eqc_projector *projector, int n, int m, const eqc_sparsity *pattern,
                                            double t, double *x, eqc_constraint_fn g, void *user, double tol,
                                            int max_iter, double *residual_norm) {
  double residual = std::numeric_limits<double>::quiet_NaN();
  auto report = [&](int status) {
    if (residual_norm)
      *residual_norm = residual;
    return status;
  };
  if (n < 0 || m < 0 || !g || (n > 0 && !x) || !std::isfinite(tol) ||
      !(tol > 0) || max_iter < 1 || (pattern && !patternValid(n, m, *pattern)))
    return report(EQC_ERR_ARGUMENT);
  for (int j = 0; j < n; ++j)
    if (!std::isfinite(x[j]))
      return report(EQC_ERR_NONFINITE);
  if (m == 0) {
    residual = 0.0;
    return report(EQC_OK);
  }
  try {
    Workspace local;
    Workspace &w = projector && !projector->workspace.inUse ? projector->workspace : local;
    WorkspaceLease lease(w);
    w.layout(n, m, pattern);
    Constraints constraints(n, m, pattern, t, g, user);
    return report(project(n, m, x, constraints, std::max(tol, MinTolerance),
                          max_iter, w, residual));
  } catch (...) {
    // Only allocation can throw here; there is no out-of-memory code in the
    // header.
    return report(EQC_ERR_ARGUMENT);
  }
}
