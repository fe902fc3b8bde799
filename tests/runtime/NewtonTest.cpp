// Tests of eqc_solve_block (damped Newton) and eqc_linsolve.
#include "eqc/eqc_runtime.h"

#include "LinearSolve.h"

#include <gtest/gtest.h>
#include <cstdint>
#include <vector>

#include <cmath>

namespace {

/// The model storage a generated block function reads its unknowns from.
struct Env {
  double w[2];
  int evaluations = 0;
};

/// x^2 + y^2 = 4 and y = x + 1.
void circleLine(void *env, double *res, double *jac) {
  auto *e = static_cast<Env *>(env);
  ++e->evaluations;
  double x = e->w[0], y = e->w[1];
  res[0] = x * x + y * y - 4;
  res[1] = y - x - 1;
  if (jac) {
    jac[0] = 2 * x;
    jac[1] = 2 * y;
    jac[2] = -1;
    jac[3] = 1;
  }
}

/// atan(w) + 2 > 0.4 everywhere while its derivative never vanishes: no root,
/// no singularity.
void noRoot(void *env, double *res, double *jac) {
  double w = static_cast<Env *>(env)->w[0];
  res[0] = std::atan(w) + 2;
  if (jac)
    jac[0] = 1 / (1 + w * w);
}

/// Two copies of the same equation.
void dependent(void *env, double *res, double *jac) {
  auto *e = static_cast<Env *>(env);
  res[0] = e->w[0] + e->w[1] - 1;
  res[1] = 2 * e->w[0] + 2 * e->w[1] - 2;
  if (jac) {
    jac[0] = 1;
    jac[1] = 1;
    jac[2] = 2;
    jac[3] = 2;
  }
}

void logOfNegative(void *env, double *res, double *jac) {
  double w = static_cast<Env *>(env)->w[0];
  res[0] = std::log(w);
  if (jac)
    jac[0] = 1 / w;
}

/// A linear block with unknowns of very different magnitude (units of 1e-9 and
/// 1e9).
void badlyScaled(void *env, double *res, double *jac) {
  auto *e = static_cast<Env *>(env);
  res[0] = 1e9 * e->w[0] + 1e-9 * e->w[1] - 2;
  res[1] = 1e9 * e->w[0] - 1e-9 * e->w[1];
  if (jac) {
    jac[0] = 1e9;
    jac[1] = 1e-9;
    jac[2] = 1e9;
    jac[3] = -1e-9;
  }
}

/// An op-amp of gain 1e6 saturating at +-15 V in a loop (MSL's IdealizedOpAmpLimited as an
/// integrator, `smooth(0, if ...)`): g(v) = v - sat(1e6 (k - v)), k = w[1], with the one root
/// v = 1e6 k / (1 + 1e6) inside a linear region 3e-5 wide. Newton's full steps jump across it
/// between the saturated sides (slope 1 there).
void saturatedLoop(void *env, double *res, double *jac) {
  auto *e = static_cast<Env *>(env);
  const double v = e->w[0], u = 1e6 * (e->w[1] - v);
  res[0] = v - (u > 15 ? 15 : u < -15 ? -15 : u);
  if (jac)
    jac[0] = u > 15 || u < -15 ? 1 : 1 + 1e6;
}

/// w^3 - 3w + 2.5: positive at its local minimum (w = 1, value 0.5), one real root far to the
/// left, cbrt(-0.5) + cbrt(-2) by Cardano's formula (a solution branch that ended at a fold).
void foldedCubic(void *env, double *res, double *jac) {
  const double w = static_cast<Env *>(env)->w[0];
  res[0] = w * w * w - 3 * w + 2.5;
  if (jac)
    jac[0] = 3 * w * w - 3;
}

/// w + 1 for w >= 0, w - 1 below: the sign changes at 0 but there is no root.
void jumpWithoutRoot(void *env, double *res, double *jac) {
  const double w = static_cast<Env *>(env)->w[0];
  res[0] = w + (w < 0 ? -1 : 1);
  if (jac)
    jac[0] = 1;
}

} // namespace

TEST(Newton, CircleLineConvergesToNearRoot) {
  Env env{{1.0, 1.0}};
  double *unknowns[] = {&env.w[0], &env.w[1]};
  ASSERT_EQ(eqc_solve_block(2, unknowns, circleLine, &env, 1e-10, 50), EQC_OK);
  const double x = (std::sqrt(7.0) - 1) / 2;
  EXPECT_NEAR(env.w[0], x, 1e-12);
  EXPECT_NEAR(env.w[1], x + 1, 1e-12);
  EXPECT_LT(env.evaluations, 20);

  // From the other side, the other intersection.
  env = Env{{-2.0, -1.0}};
  ASSERT_EQ(eqc_solve_block(2, unknowns, circleLine, &env, 1e-10, 50), EQC_OK);
  EXPECT_NEAR(env.w[0], (-std::sqrt(7.0) - 1) / 2, 1e-12);
  EXPECT_NEAR(env.w[1], (-std::sqrt(7.0) + 1) / 2, 1e-12);
}

TEST(Newton, LinearBlockIsExactAfterOneStep) {
  Env env{{0.0, 0.0}};
  double *unknowns[] = {&env.w[0], &env.w[1]};
  ASSERT_EQ(eqc_solve_block(2, unknowns, badlyScaled, &env, 1e-12, 5), EQC_OK);
  EXPECT_NEAR(env.w[0], 1e-9, 1e-21);
  EXPECT_NEAR(env.w[1], 1e9, 1e-3);
}

TEST(Newton, NoRootFails) {
  Env env{{0.0, 0.0}};
  double *unknowns[] = {&env.w[0]};
  EXPECT_EQ(eqc_solve_block(1, unknowns, noRoot, &env, 1e-10, 50),
            EQC_ERR_NEWTON);
  EXPECT_TRUE(std::isfinite(env.w[0]));
  // Too few iterations for a solvable block fail the same way.
  Env circle{{10.0, -3.0}};
  double *circleUnknowns[] = {&circle.w[0], &circle.w[1]};
  EXPECT_EQ(eqc_solve_block(2, circleUnknowns, circleLine, &circle, 1e-10, 2),
            EQC_ERR_NEWTON);
}

/// Two copies of one equation that contradict each other.
void contradicting(void *env, double *res, double *jac) {
  auto *e = static_cast<Env *>(env);
  res[0] = e->w[0] + e->w[1] - 1;
  res[1] = 2 * e->w[0] + 2 * e->w[1] - 3;
  if (jac) {
    jac[0] = 1;
    jac[1] = 1;
    jac[2] = 2;
    jac[3] = 2;
  }
}

/// a^3 + b^3 = 2 twice: singular everywhere, consistent, nonlinear.
void dependentCubes(void *env, double *res, double *jac) {
  auto *e = static_cast<Env *>(env);
  const double a = e->w[0], b = e->w[1];
  res[0] = a * a * a + b * b * b - 2;
  res[1] = 2 * (a * a * a + b * b * b) - 4;
  if (jac) {
    jac[0] = 3 * a * a;
    jac[1] = 3 * b * b;
    jac[2] = 6 * a * a;
    jac[3] = 6 * b * b;
  }
}

// A singular Jacobian takes the minimum-norm step: a consistent block (a closed valve's two
// pressures) is solved at the solution nearest the start; one whose equations contradict each
// other still fails, though its least-squares steps vanish.
TEST(Newton, SingularJacobian) {
  Env env{{0.0, 0.0}};
  double *unknowns[] = {&env.w[0], &env.w[1]};
  ASSERT_EQ(eqc_solve_block(2, unknowns, dependent, &env, 1e-10, 20), EQC_OK);
  EXPECT_NEAR(env.w[0], 0.5, 1e-12);
  EXPECT_NEAR(env.w[1], 0.5, 1e-12);

  Env cubes{{0.5, 1.5}};
  double *cubeUnknowns[] = {&cubes.w[0], &cubes.w[1]};
  ASSERT_EQ(eqc_solve_block(2, cubeUnknowns, dependentCubes, &cubes, 1e-12, 50), EQC_OK);
  EXPECT_NEAR(std::pow(cubes.w[0], 3) + std::pow(cubes.w[1], 3), 2.0, 1e-10);

  Env contradiction{{0.0, 0.0}};
  double *contradictionUnknowns[] = {&contradiction.w[0], &contradiction.w[1]};
  EXPECT_NE(eqc_solve_block(2, contradictionUnknowns, contradicting, &contradiction, 1e-10, 20), EQC_OK);
}

TEST(Newton, NonFiniteInitialResidual) {
  Env env{{-1.0, 0.0}};
  double *unknowns[] = {&env.w[0]};
  EXPECT_EQ(eqc_solve_block(1, unknowns, logOfNegative, &env, 1e-10, 20),
            EQC_ERR_NONFINITE);
  // A guess inside the domain converges; damping keeps the iterates out of w <=
  // 0.
  env.w[0] = 20.0;
  EXPECT_EQ(eqc_solve_block(1, unknowns, logOfNegative, &env, 1e-12, 50),
            EQC_OK);
  EXPECT_NEAR(env.w[0], 1.0, 1e-12);
}

TEST(Newton, InvalidArguments) {
  Env env{{0.0, 0.0}};
  double *unknowns[] = {&env.w[0], nullptr};
  EXPECT_EQ(eqc_solve_block(2, unknowns, circleLine, &env, 1e-10, 20),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_solve_block(1, unknowns, circleLine, &env, 0.0, 20),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_solve_block(1, unknowns, circleLine, &env, 1e-10, 0),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_solve_block(1, unknowns, nullptr, &env, 1e-10, 20),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_solve_block(0, nullptr, circleLine, &env, 1e-10, 20), EQC_OK);
}

TEST(LinSolve, ThreeByThreeTwoRightHandSides) {
  // Row-major A and B; X = [[1, 2], [-1, 0], [3, 1]].
  double a[9] = {2, 1, -1, -3, -1, 2, -2, 1, 2};
  double x[6] = {1, 2, -1, 0, 3, 1};
  double b[6];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 2; ++k) {
      b[i * 2 + k] = 0;
      for (int j = 0; j < 3; ++j)
        b[i * 2 + k] += a[i * 3 + j] * x[j * 2 + k];
    }
  ASSERT_EQ(eqc_linsolve(3, a, b, 2), EQC_OK);
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(b[i], x[i], 1e-14) << i;
}

TEST(LinSolve, SingularMatrices) {
  double a[9] = {1, 2, 3, 4, 5, 6, 5, 7, 9}; // row 3 = row 1 + row 2
  double b[3] = {1, 2, 3};
  EXPECT_EQ(eqc_linsolve(3, a, b, 1), EQC_ERR_SINGULAR);
  double zero[4] = {0, 0, 0, 0};
  double b2[2] = {1, 1};
  EXPECT_EQ(eqc_linsolve(2, zero, b2, 1), EQC_ERR_SINGULAR);
  double nan[1] = {NAN};
  double b1[1] = {1};
  EXPECT_EQ(eqc_linsolve(1, nan, b1, 1), EQC_ERR_SINGULAR);
}

// Systems up to 64 unknowns are solved in place without allocation, larger ones by Eigen's LU;
// both meet the same residual bound and the same singularity test on either side of the boundary.
TEST(LinSolve, SmallAndLargeSystemsAgree) {
  uint64_t seed = 12345;
  auto uniform = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(seed >> 11) / 9007199254740992.0 * 2 - 1;
  };
  for (int n : {1, 2, 3, 7, 8, 9, 16, 32, 63, 64, 65, 70}) {
    std::vector<double> a(static_cast<size_t>(n * n)), b(static_cast<size_t>(2 * n));
    for (double &v : a)
      v = uniform();
    for (int i = 0; i < n; ++i)
      a[static_cast<size_t>(i * n + i)] += n; // diagonally dominant: well conditioned
    for (double &v : b)
      v = uniform();
    std::vector<double> factors(a), x(b);
    ASSERT_EQ(eqc_linsolve(n, factors.data(), x.data(), 2), EQC_OK) << n;
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < n; ++i) {
        double residual = -b[static_cast<size_t>(i * 2 + r)];
        for (int j = 0; j < n; ++j)
          residual += a[static_cast<size_t>(i * n + j)] * x[static_cast<size_t>(j * 2 + r)];
        EXPECT_LT(std::fabs(residual), 1e-13 * n) << "n = " << n << ", row " << i;
      }
    // Two equal rows: singular, whatever the size.
    std::vector<double> singular(a);
    for (int j = 0; j < n && n > 1; ++j)
      singular[static_cast<size_t>(n + j)] = singular[static_cast<size_t>(j)];
    std::vector<double> rhs(static_cast<size_t>(n), 1.0);
    if (n > 1) {
      EXPECT_EQ(eqc_linsolve(n, singular.data(), rhs.data(), 1), EQC_ERR_SINGULAR) << n;
    }
  }
}

TEST(LinSolve, BadScalingIsNotSingularity) {
  double a[4] = {1e-20, 0, 0, 1e20};
  double b[2] = {1e-20, 2e20};
  ASSERT_EQ(eqc_linsolve(2, a, b, 1), EQC_OK);
  EXPECT_DOUBLE_EQ(b[0], 1.0);
  EXPECT_DOUBLE_EQ(b[1], 2.0);
}

TEST(LinSolve, Arguments) {
  double a[1] = {2}, b[1] = {4};
  EXPECT_EQ(eqc_linsolve(-1, a, b, 1), EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_linsolve(1, nullptr, b, 1), EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_linsolve(1, a, b, -1), EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_linsolve(0, nullptr, nullptr, 1), EQC_OK);
  ASSERT_EQ(eqc_linsolve(1, a, b, 1), EQC_OK);
  EXPECT_EQ(b[0], 2.0);
}

// A simulation's factor cache (eqc_sim makes it current while it calls the model): a matrix seen
// again is not factored again, and the solutions are bit for bit those of a fresh factorization,
// with several matrices interleaved, more of them than the cache holds (entries replaced), with
// one and several right-hand sides; a singular matrix stays singular and is not kept.
TEST(LinSolve, FactorCacheGivesTheSameNumbersAsFactoring) {
  uint64_t seed = 777;
  auto uniform = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(seed >> 11) / 9007199254740992.0 * 2 - 1;
  };
  const int sizes[] = {3, 16, 32, 64};
  std::vector<std::vector<double>> matrices;
  for (int k = 0; k < 40; ++k) { // more than the cache's 32 entries
    const int n = sizes[k % 4];
    std::vector<double> a(static_cast<size_t>(n * n));
    for (double &v : a)
      v = uniform();
    matrices.push_back(a);
  }
  eqc::rt::FactorCache cache;
  eqc::rt::FactorCacheScope scope(cache);
  for (int round = 0; round < 3; ++round)
    for (size_t k = 0; k < matrices.size(); ++k) {
      const int n = sizes[k % 4], nrhs = 1 + static_cast<int>(k % 3);
      std::vector<double> b(static_cast<size_t>(n * nrhs));
      for (double &v : b)
        v = uniform();
      std::vector<double> fresh(matrices[k]), expected(b);
      ASSERT_EQ(eqc::rt::solveSmall(n, fresh.data(), expected.data(), nrhs), EQC_OK);
      std::vector<double> a(matrices[k]), x(b);
      ASSERT_EQ(eqc_linsolve(n, a.data(), x.data(), nrhs), EQC_OK);
      for (size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(x[i], expected[i]) << "matrix " << k << ", round " << round << ", entry " << i;
    }
  for (int round = 0; round < 2; ++round) {
    double singular[9] = {1, 2, 3, 4, 5, 6, 5, 7, 9};
    double b[3] = {1, 2, 3};
    EXPECT_EQ(eqc_linsolve(3, singular, b, 1), EQC_ERR_SINGULAR) << round;
  }
}

// eqc_linsolve_min_norm: a regular system gives eqc_linsolve's solution; a singular consistent
// one (two stuck friction contacts on one body: a = 0 twice, only s1 + s2 = F determined) the
// minimum-norm solution, here s1 = s2 = F / 2 (the pseudo-inverse's, checked against it by hand);
// a singular inconsistent one stays EQC_ERR_SINGULAR; also above the in-place size (n = 80).
TEST(LinSolve, MinimumNormSolutionOfConsistentSingularSystems) {
  // Unknowns (a, s1, s2): a = 0, a = 0, m a + s1 + s2 = F with m = 2, F = 3.
  std::vector<double> a{1, 0, 0, 1, 0, 0, 2, 1, 1}, b{0, 0, 3};
  ASSERT_EQ(eqc_linsolve_min_norm(3, a.data(), b.data(), 1), EQC_OK);
  EXPECT_NEAR(b[0], 0, 1e-15);
  EXPECT_NEAR(b[1], 1.5, 1e-14);
  EXPECT_NEAR(b[2], 1.5, 1e-14);
  std::vector<double> inconsistent{1, 0, 0, 1, 0, 0, 2, 1, 1}, c{0, 1, 3}; // a = 0 and a = 1
  EXPECT_EQ(eqc_linsolve_min_norm(3, inconsistent.data(), c.data(), 1), EQC_ERR_SINGULAR);
  std::vector<double> regular{4, 1, 0, 1, 3, 1, 0, 1, 2}, d{1, 2, 3}, r2(regular), d2(d);
  ASSERT_EQ(eqc_linsolve_min_norm(3, regular.data(), d.data(), 1), EQC_OK);
  ASSERT_EQ(eqc_linsolve(3, r2.data(), d2.data(), 1), EQC_OK);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(d[i], d2[i]);
  // n = 80: rows 0 and 1 both x0 = 1 (consistent), the rest the identity on x2..x79 plus x1 free
  // in no row but row 79 replaced by x1 + x79 = 2: min-norm splits it, x1 = x79 = 1.
  const int n = 80;
  std::vector<double> big(static_cast<size_t>(n * n), 0.0), rhs(n, 0.0);
  big[0] = 1;
  big[n] = 1;
  rhs[0] = rhs[1] = 1;
  for (int i = 2; i < n - 1; ++i) {
    big[static_cast<size_t>(i * n + i)] = 1;
    rhs[static_cast<size_t>(i)] = i;
  }
  big[static_cast<size_t>((n - 1) * n + 1)] = 1;
  big[static_cast<size_t>((n - 1) * n + n - 1)] = 1;
  rhs[n - 1] = 2;
  ASSERT_EQ(eqc_linsolve_min_norm(n, big.data(), rhs.data(), 1), EQC_OK);
  EXPECT_NEAR(rhs[0], 1, 1e-12);
  EXPECT_NEAR(rhs[1], 1, 1e-12);
  EXPECT_NEAR(rhs[n - 1], 1, 1e-12);
  EXPECT_NEAR(rhs[40], 40, 1e-12);
}

// A scalar block whose Newton iteration cycles across a kink is solved in the bracket its
// iterates found (regula falsi, Illinois), to Newton's accuracy.
TEST(Newton, ScalarBlockAcrossASteepKinkIsSolvedInItsBracket) {
  for (double k : {0.3, -4.0, 14.0}) {
    for (double start : {15.0, -15.0, 0.0}) {
      Env env{{start, k}};
      double *unknowns[] = {&env.w[0]};
      ASSERT_EQ(eqc_solve_block(1, unknowns, saturatedLoop, &env, 1e-10, 50), EQC_OK)
          << k << " from " << start;
      EXPECT_NEAR(env.w[0], 1e6 * k / (1 + 1e6), 1e-9 * (1 + std::fabs(k))) << k << " from " << start;
    }
  }
}

// Where the branch Newton starts on has ended (a fold: it stalls at the residual's positive
// minimum), a search of doubling steps finds the sign change and the root left.
TEST(Newton, ScalarBlockPastAFoldFindsTheRootLeft) {
  for (double start : {1.2, 0.999, 3.0}) {
    Env env{{start, 0.0}};
    double *unknowns[] = {&env.w[0]};
    ASSERT_EQ(eqc_solve_block(1, unknowns, foldedCubic, &env, 1e-10, 50), EQC_OK) << start;
    EXPECT_NEAR(env.w[0], std::cbrt(-0.5) + std::cbrt(-2.0), 1e-9) << start;
  }
}

// A bracket that closes on a jump is no root: the block fails as before.
TEST(Newton, ScalarBlockWithAJumpAndNoRootFails) {
  Env env{{3.0, 0.0}};
  double *unknowns[] = {&env.w[0]};
  EXPECT_EQ(eqc_solve_block(1, unknowns, jumpWithoutRoot, &env, 1e-10, 50), EQC_ERR_NEWTON);
  EXPECT_TRUE(std::isfinite(env.w[0]));
}

// eqc_linsolve_nearest: of the solutions of a singular consistent system, the one nearest x0.
// Two stuck contacts on one body (a = 0 twice, s1 + s2 = F = 3, m = 2) that carried s = (0.2,
// 2.9) before: the nearest split moves both by the same amount, (0.2, 2.9) - 0.05 (1, 1) =
// (0.15, 2.85), where the minimum-norm one would be (1.5, 1.5) (the friction limits of the
// contacts may hold for the one and not for the other). A regular system gives eqc_linsolve's X
// bit for bit, and a NaN x0 falls back to the minimum-norm solution.
TEST(LinSolve, NearestSolutionOfConsistentSingularSystems) {
  std::vector<double> a{1, 0, 0, 1, 0, 0, 2, 1, 1}, b{0, 0, 3};
  const double before[] = {0.0, 0.2, 2.9};
  ASSERT_EQ(eqc_linsolve_nearest(3, a.data(), b.data(), 1, before), EQC_OK);
  EXPECT_NEAR(b[0], 0, 1e-15);
  EXPECT_NEAR(b[1], 0.15, 1e-14);
  EXPECT_NEAR(b[2], 2.85, 1e-14);
  std::vector<double> regular{4, 1, 0, 1, 3, 1, 0, 1, 2}, d{1, 2, 3}, r2(regular), d2(d);
  ASSERT_EQ(eqc_linsolve_nearest(3, regular.data(), d.data(), 1, before), EQC_OK);
  ASSERT_EQ(eqc_linsolve(3, r2.data(), d2.data(), 1), EQC_OK);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(d[i], d2[i]);
  std::vector<double> again{1, 0, 0, 1, 0, 0, 2, 1, 1}, c{0, 0, 3};
  const double unknown[] = {NAN, 0.0, 0.0};
  ASSERT_EQ(eqc_linsolve_nearest(3, again.data(), c.data(), 1, unknown), EQC_OK);
  EXPECT_NEAR(c[1], 1.5, 1e-14);
  EXPECT_NEAR(c[2], 1.5, 1e-14);
}

// The nearest solution may be zero up to rounding while x0 is not (three stuck contacts whose
// load is removed: s1 + s2 + s3 = 0 from s = (0.1, 0.1, 0.1)): x = x0 - pinv(A) A x0 carries the
// rounding of x0, so the residual is judged against x0's size too, not against x's alone (about
// 1e-17, which made a consistent system read as inconsistent).
TEST(LinSolve, NearestSolutionThatVanishesIsStillConsistent) {
  std::vector<double> a{1, 1, 1, 1, 1, 1, 2, 2, 2}, b{0, 0, 0};
  const double before[] = {0.1, 0.1, 0.1};
  ASSERT_EQ(eqc_linsolve_nearest(3, a.data(), b.data(), 1, before), EQC_OK);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(b[i], 0, 1e-15);
}
