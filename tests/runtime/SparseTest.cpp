// Tests of the sparse Jacobian path of the implicit methods (eqc_integrate_jac):
// the 1-D heat equation by the method of lines against its exact semi-discrete
// solution, dense and sparse linear algebra and the three Jacobian sources
// (values callback, grouped finite differences, dense callback) against each
// other, the automatic choice, a state size whose dense Jacobian would not fit
// in memory, and the argument checks. Also per-component absolute tolerances.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using eqc::test::makeOptions;

namespace {

/// u_t = u_xx on (0, 1), u = 0 at both ends, N interior points x_i = i/(N+1):
/// u_i' = (u_{i-1} - 2 u_i + u_{i+1}) / dx^2.
struct Heat {
  int n;
  double scale; ///< 1 / dx^2
  std::vector<int> colStart, rowIndex;
  eqc_sparsity pattern{};
  long sparseCalls = 0;

  explicit Heat(int n) : n(n), scale(static_cast<double>(n + 1) * (n + 1)) {
    colStart.push_back(0);
    for (int j = 0; j < n; ++j) {
      for (int i = std::max(0, j - 1); i <= std::min(n - 1, j + 1); ++i)
        rowIndex.push_back(i);
      colStart.push_back(static_cast<int>(rowIndex.size()));
    }
    pattern = {static_cast<int>(rowIndex.size()), colStart.data(), rowIndex.data()};
  }

  /// u(x, 0) = sin(pi x), the discrete Laplacian's first eigenvector: the
  /// semi-discrete solution is exp(lambda t) sin(pi x_i) with
  /// lambda = -4 (N+1)^2 sin^2(pi / (2 (N+1))).
  std::vector<double> initial() const {
    std::vector<double> u(n);
    for (int i = 0; i < n; ++i)
      u[i] = std::sin(M_PI * (i + 1) / (n + 1));
    return u;
  }
  double lambda() const {
    double s = std::sin(M_PI / (2.0 * (n + 1)));
    return -4.0 * scale * s * s;
  }

  static int rhs(void *user, double, const double *u, double *du) {
    auto *h = static_cast<Heat *>(user);
    for (int i = 0; i < h->n; ++i) {
      double left = i > 0 ? u[i - 1] : 0.0, right = i + 1 < h->n ? u[i + 1] : 0.0;
      du[i] = h->scale * (left - 2.0 * u[i] + right);
    }
    return 0;
  }
  static int sparseJacobian(void *user, double, const double *, double *values) {
    auto *h = static_cast<Heat *>(user);
    ++h->sparseCalls;
    for (int j = 0; j < h->n; ++j)
      for (int k = h->colStart[j]; k < h->colStart[j + 1]; ++k)
        values[k] = h->rowIndex[k] == j ? -2.0 * h->scale : h->scale;
    return 0;
  }
  static int denseJacobian(void *user, double, const double *, double *jac) {
    auto *h = static_cast<Heat *>(user);
    std::fill(jac, jac + static_cast<size_t>(h->n) * h->n, 0.0);
    for (int i = 0; i < h->n; ++i) {
      jac[static_cast<size_t>(i) * h->n + i] = -2.0 * h->scale;
      if (i > 0)
        jac[static_cast<size_t>(i) * h->n + i - 1] = h->scale;
      if (i + 1 < h->n)
        jac[static_cast<size_t>(i) * h->n + i + 1] = h->scale;
    }
    return 0;
  }
};

struct Result {
  int status;
  std::vector<double> u;
  eqc_stats stats;
};

Result solve(Heat &heat, eqc_method method, const eqc_jacobian *jac, double tEnd, double rtol = 1e-8) {
  eqc_options opt = makeOptions(method, 0.0, tEnd);
  opt.rtol = rtol;
  opt.atol = 1e-12;
  opt.dt = tEnd / 200;
  Result r{0, heat.initial(), {}};
  r.status = eqc_integrate_jac(heat.n, Heat::rhs, &heat, jac, r.u.data(), &opt, nullptr, nullptr, nullptr, nullptr,
                               &r.stats);
  return r;
}

double maxErrorAgainstExact(const Heat &heat, const std::vector<double> &u, double t) {
  std::vector<double> exact = heat.initial();
  double decay = std::exp(heat.lambda() * t), err = 0.0;
  for (int i = 0; i < heat.n; ++i)
    err = std::max(err, std::fabs(u[i] - decay * exact[i]));
  return err;
}

eqc_jacobian sparseValues(Heat &heat, eqc_linear_solver solver = EQC_LINEAR_AUTO) {
  eqc_jacobian jac{};
  jac.sparse = Heat::sparseJacobian;
  jac.user = &heat;
  jac.pattern = &heat.pattern;
  jac.solver = solver;
  return jac;
}

TEST(Sparse, Radau5OnTheHeatEquationMatchesTheExactSemiDiscreteSolution) {
  Heat heat(400);
  eqc_jacobian jac = sparseValues(heat);
  Result r = solve(heat, EQC_METHOD_RADAU5, &jac, 0.1);
  ASSERT_EQ(r.status, EQC_OK);
  EXPECT_EQ(r.stats.linear_solver, EQC_LINEAR_SPARSE); // n = 400, 0.75% non-zero: automatic choice
  EXPECT_GT(r.stats.jac_evals, 0);
  EXPECT_EQ(r.stats.jac_evals, heat.sparseCalls);
  // exp(lambda t) = exp(-0.987) ~ 0.37: the error is relative to O(1) values.
  EXPECT_LT(maxErrorAgainstExact(heat, r.u, 0.1), 1e-7);
}

TEST(Sparse, DenseAndSparseSolversAndAllJacobianSourcesAgree) {
  Heat heat(120);
  eqc_jacobian values = sparseValues(heat, EQC_LINEAR_SPARSE);
  eqc_jacobian grouped{};
  grouped.pattern = &heat.pattern; // no values callback: grouped finite differences
  eqc_jacobian dense{};
  dense.dense = Heat::denseJacobian;
  dense.user = &heat;
  eqc_jacobian scattered = sparseValues(heat, EQC_LINEAR_DENSE);
  for (eqc_method method : {EQC_METHOD_RADAU5, EQC_METHOD_BEULER}) {
    Result a = solve(heat, method, &values, 0.05);
    Result b = solve(heat, method, &grouped, 0.05);
    Result c = solve(heat, method, &dense, 0.05);
    Result d = solve(heat, method, &scattered, 0.05);
    ASSERT_EQ(a.status, EQC_OK);
    ASSERT_EQ(b.status, EQC_OK);
    ASSERT_EQ(c.status, EQC_OK);
    ASSERT_EQ(d.status, EQC_OK);
    EXPECT_EQ(a.stats.linear_solver, EQC_LINEAR_SPARSE);
    EXPECT_EQ(b.stats.linear_solver, EQC_LINEAR_SPARSE);
    EXPECT_EQ(c.stats.linear_solver, EQC_LINEAR_DENSE);
    EXPECT_EQ(d.stats.linear_solver, EQC_LINEAR_DENSE);
    // The same method with the same J (to rounding; the FD one to ~1e-8
    // relative) takes the same steps: the results agree far below the error.
    for (int i = 0; i < heat.n; ++i) {
      EXPECT_NEAR(a.u[i], c.u[i], 1e-12) << i;
      EXPECT_NEAR(a.u[i], d.u[i], 1e-12) << i;
      EXPECT_NEAR(a.u[i], b.u[i], 1e-9) << i;
    }
    // A tridiagonal pattern needs 3 column groups: 3 rhs calls per Jacobian,
    // not n.
    EXPECT_EQ(b.stats.jac_evals, 0);
    // (This linear problem keeps its first J throughout.)
    EXPECT_EQ(a.stats.jac_evals, 1);
    EXPECT_EQ(b.stats.rhs_evals - a.stats.rhs_evals, 3);
    Result fdDense = solve(heat, method, nullptr, 0.05);
    ASSERT_EQ(fdDense.status, EQC_OK);
    EXPECT_EQ(fdDense.stats.rhs_evals - a.stats.rhs_evals, heat.n);
  }
}

TEST(Sparse, AutomaticChoiceIsDenseForSmallOrDenseMatrices) {
  Heat small(20); // below the size threshold
  eqc_jacobian jac = sparseValues(small);
  Result r = solve(small, EQC_METHOD_RADAU5, &jac, 0.01);
  ASSERT_EQ(r.status, EQC_OK);
  EXPECT_EQ(r.stats.linear_solver, EQC_LINEAR_DENSE);
  Result explicitMethod = solve(small, EQC_METHOD_DOPRI5, &jac, 0.001);
  ASSERT_EQ(explicitMethod.status, EQC_OK);
  EXPECT_EQ(explicitMethod.stats.linear_solver, EQC_LINEAR_AUTO); // no implicit method ran
}

// A dense Jacobian of 10^5 states would take 80 GB (and radau5 needs two more
// matrices, one complex): finishing shows that nothing of size n^2 is
// allocated. auto runs dopri5 into the stiffness, then radau5 with the sparse
// LU.
TEST(Sparse, AutoRunsAHundredThousandStateHeatEquation) {
  Heat heat(100000);
  eqc_jacobian jac = sparseValues(heat);
  Result r = solve(heat, EQC_METHOD_AUTO, &jac, 1e-3, 1e-5);
  ASSERT_EQ(r.status, EQC_OK) << eqc_status_message(r.status);
  EXPECT_EQ(r.stats.method_used, EQC_METHOD_RADAU5);
  EXPECT_EQ(r.stats.linear_solver, EQC_LINEAR_SPARSE);
  // lambda ~ -9.87, so the solution is ~0.99 sin(pi x); the exact decay is
  // met to the tolerance's order.
  EXPECT_LT(maxErrorAgainstExact(heat, r.u, 1e-3), 1e-4);
}

TEST(Sparse, InvalidDescriptionsAreRejected) {
  Heat heat(70);
  std::vector<double> u = heat.initial();
  eqc_options opt = makeOptions(EQC_METHOD_RADAU5, 0.0, 0.01);
  auto status = [&](const eqc_jacobian &jac) {
    return eqc_integrate_jac(heat.n, Heat::rhs, &heat, &jac, u.data(), &opt, nullptr, nullptr, nullptr, nullptr,
                             nullptr);
  };
  eqc_jacobian noPattern{};
  noPattern.solver = EQC_LINEAR_SPARSE;
  EXPECT_EQ(status(noPattern), EQC_ERR_ARGUMENT);
  eqc_jacobian valuesWithoutPattern{};
  valuesWithoutPattern.sparse = Heat::sparseJacobian;
  EXPECT_EQ(status(valuesWithoutPattern), EQC_ERR_ARGUMENT);

  std::vector<int> rows = heat.rowIndex;
  std::swap(rows[0], rows[1]); // column 0 no longer strictly increasing
  eqc_sparsity unsorted{heat.pattern.nnz, heat.colStart.data(), rows.data()};
  eqc_jacobian bad = sparseValues(heat);
  bad.pattern = &unsorted;
  EXPECT_EQ(status(bad), EQC_ERR_ARGUMENT);
  rows = heat.rowIndex;
  rows.back() = heat.n; // out of range
  eqc_sparsity outOfRange{heat.pattern.nnz, heat.colStart.data(), rows.data()};
  bad.pattern = &outOfRange;
  EXPECT_EQ(status(bad), EQC_ERR_ARGUMENT);
  eqc_sparsity wrongCount{heat.pattern.nnz + 1, heat.colStart.data(), heat.rowIndex.data()};
  bad.pattern = &wrongCount;
  EXPECT_EQ(status(bad), EQC_ERR_ARGUMENT);
  eqc_jacobian unknownSolver = sparseValues(heat);
  int seven = 7;
  std::memcpy(&unknownSolver.solver, &seven, sizeof seven);
  EXPECT_EQ(status(unknownSolver), EQC_ERR_ARGUMENT);
}

TEST(Sparse, FailingValuesCallbackStopsWithItsCode) {
  Heat heat(100);
  eqc_jacobian jac{};
  jac.sparse = [](void *, double, const double *, double *) { return 9; };
  jac.pattern = &heat.pattern;
  Result r = solve(heat, EQC_METHOD_RADAU5, &jac, 0.01);
  EXPECT_EQ(r.status, EQC_ERR_RHS);
  EXPECT_EQ(r.stats.rhs_code, 9);
  EXPECT_EQ(r.stats.t_reached, 0.0);
}

// A pattern that leaves out a diagonal entry still works: c I - J gets the
// diagonal, J's missing entries are zeros. f = -x on even, 0 on odd
// components: only even diagonal entries are in the pattern.
TEST(Sparse, PatternWithoutSomeDiagonalEntries) {
  const int n = 100;
  std::vector<int> colStart{0}, rows;
  for (int j = 0; j < n; ++j) {
    if (j % 2 == 0)
      rows.push_back(j);
    colStart.push_back(static_cast<int>(rows.size()));
  }
  eqc_sparsity pattern{static_cast<int>(rows.size()), colStart.data(), rows.data()};
  eqc_jacobian jac{};
  jac.pattern = &pattern;
  std::vector<double> x(n, 1.0);
  eqc_options opt = makeOptions(EQC_METHOD_RADAU5, 0.0, 2.0);
  opt.rtol = 1e-9;
  opt.atol = 1e-12;
  eqc_stats stats;
  auto f = [](void *, double, const double *y, double *dy) {
    for (int i = 0; i < n; ++i)
      dy[i] = i % 2 == 0 ? -y[i] : 0.0;
    return 0;
  };
  ASSERT_EQ(eqc_integrate_jac(n, f, nullptr, &jac, x.data(), &opt, nullptr, nullptr, nullptr, nullptr, &stats), EQC_OK);
  EXPECT_EQ(stats.linear_solver, EQC_LINEAR_SPARSE);
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(x[i], i % 2 == 0 ? std::exp(-2.0) : 1.0, 1e-8) << i;
}

// Per-component atol: a vector of equal entries is the scalar atol, bit for
// bit; a tighter entry on one component makes dopri5 resolve it better; bad
// entries are rejected.
TEST(Tolerances, PerComponentAbsoluteTolerance) {
  // x' = -x, y' = -1000 y + 1e-6 sin t (y stays ~1e-9): with atol 1e-6 the
  // small component is not controlled at all; with atol_y = 1e-15 it is.
  auto f = [](void *, double t, const double *x, double *dx) {
    dx[0] = -x[0];
    dx[1] = -50.0 * x[1] + 1e-6 * std::sin(t);
    return 0;
  };
  auto run = [&](const double *vector, double *out, eqc_stats &stats) {
    eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 3.0);
    opt.rtol = 1e-6;
    opt.atol = 1e-6;
    opt.atol_vector = vector;
    out[0] = 1.0;
    out[1] = 0.0;
    return eqc_integrate(2, f, nullptr, out, &opt, nullptr, nullptr, &stats);
  };
  double scalar[2], equal[2], tight[2];
  eqc_stats s1, s2, s3;
  const double same[2] = {1e-6, 1e-6}, fine[2] = {1e-6, 1e-15};
  ASSERT_EQ(run(nullptr, scalar, s1), EQC_OK);
  ASSERT_EQ(run(same, equal, s2), EQC_OK);
  ASSERT_EQ(run(fine, tight, s3), EQC_OK);
  EXPECT_EQ(scalar[0], equal[0]);
  EXPECT_EQ(scalar[1], equal[1]);
  EXPECT_EQ(s1.steps, s2.steps);
  // y(3) from the exact solution of the linear forced equation.
  const double a = 50.0, t = 3.0;
  const double yExact = 1e-6 * ((a * std::sin(t) - std::cos(t)) + std::exp(-a * t)) / (a * a + 1);
  EXPECT_LT(std::fabs(tight[1] - yExact), 1e-5 * std::fabs(yExact));
  EXPECT_GT(s3.steps, s1.steps);
  const double negative[2] = {1e-6, -1.0};
  EXPECT_EQ(run(negative, tight, s3), EQC_ERR_ARGUMENT);
}

} // namespace

namespace {

struct Preparation {
  Heat *heat;
  int calls = 0;
  int result = 0;
  static int prepare(void *user, eqc_jacobian *jac) {
    auto *self = static_cast<Preparation *>(user);
    ++self->calls;
    if (self->result)
      return self->result;
    jac->pattern = &self->heat->pattern;
    jac->sparse = [](void *u, double t, const double *x, double *values) {
      return Heat::sparseJacobian(static_cast<Preparation *>(u)->heat, t, x, values);
    };
    return 0;
  }
};

// prepare runs once, when the implicit method first needs J: never for dopri5,
// at the switch for auto; its failure stops the run with its code.
TEST(Sparse, PrepareCompletesTheDescriptionWhenFirstNeeded) {
  Heat heat(300);
  Preparation prep{&heat};
  eqc_jacobian jac{};
  jac.user = &prep;
  jac.prepare = Preparation::prepare;
  Result explicitRun = solve(heat, EQC_METHOD_DOPRI5, &jac, 1e-5);
  ASSERT_EQ(explicitRun.status, EQC_OK);
  EXPECT_EQ(prep.calls, 0);
  Result autoRun = solve(heat, EQC_METHOD_AUTO, &jac, 0.05);
  ASSERT_EQ(autoRun.status, EQC_OK);
  EXPECT_EQ(autoRun.stats.method_used, EQC_METHOD_RADAU5);
  EXPECT_EQ(prep.calls, 1);
  EXPECT_EQ(autoRun.stats.linear_solver, EQC_LINEAR_SPARSE);
  EXPECT_GT(autoRun.stats.jac_evals, 0);
  EXPECT_LT(maxErrorAgainstExact(heat, autoRun.u, 0.05), 1e-5);

  prep.result = 4;
  Result failed = solve(heat, EQC_METHOD_RADAU5, &jac, 0.05);
  EXPECT_EQ(failed.status, EQC_ERR_RHS);
  EXPECT_EQ(failed.stats.rhs_code, 4);
}

} // namespace
