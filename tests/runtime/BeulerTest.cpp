// Tests of backward Euler: first order, stability on a stiff problem, the
// Jacobian callback against finite differences, and Newton failure.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using eqc::test::makeOptions;
using eqc::test::Recorder;

namespace {

/// y' = -y + sin t, y(0) = 1: y = 1.5 e^-t + (sin t - cos t) / 2.
int forcedDecay(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = -x[0] + std::sin(t);
  return 0;
}

double forcedDecayExact(double t) { return 1.5 * std::exp(-t) + 0.5 * (std::sin(t) - std::cos(t)); }

constexpr double Stiffness = 1000.0;

/// y' = -1000 (y - cos t): every solution is drawn within ~1e-3 of cos t at
/// rate 1000.
int stiff(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = -Stiffness * (x[0] - std::cos(t));
  return 0;
}

int stiffJacobian(void *, double, const double *, double *jac) {
  jac[0] = -Stiffness;
  return 0;
}

constexpr double VdpMu = 2.0;

int vanDerPol(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[1];
  dxdt[1] = VdpMu * (1 - x[0] * x[0]) * x[1] - x[0];
  return 0;
}

int vanDerPolJacobian(void *, double, const double *x, double *jac) {
  jac[0] = 0.0;
  jac[1] = 1.0;
  jac[2] = -2 * VdpMu * x[0] * x[1] - 1.0;
  jac[3] = VdpMu * (1 - x[0] * x[0]);
  return 0;
}

int failingJacobian(void *, double, const double *, double *) { return 3; }

int square(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[0] * x[0];
  return 0;
}

struct Solution {
  int status;
  eqc_stats stats;
  Recorder rec;
  std::vector<double> x;
};

Solution integrate(int n, eqc_rhs_fn f, eqc_jac_fn jac, std::vector<double> x0, const eqc_options &opt) {
  Solution run;
  run.rec.n = n;
  run.x = std::move(x0);
  run.status = eqc_integrate_ex(n, f, nullptr, jac, nullptr, run.x.data(), &opt, Recorder::record, &run.rec,
                                nullptr, nullptr, &run.stats);
  return run;
}

eqc_options fixedStep(eqc_method method, double tEnd, double dt) {
  eqc_options opt = makeOptions(method, 0.0, tEnd);
  opt.dt = dt;
  return opt;
}

} // namespace

TEST(Beuler, FirstOrderConvergence) {
  auto errorWithStep = [](double dt) {
    Solution run = integrate(1, forcedDecay, nullptr, {1.0}, fixedStep(EQC_METHOD_BEULER, 2.0, dt));
    EXPECT_EQ(run.status, EQC_OK);
    return std::fabs(run.x[0] - forcedDecayExact(2.0));
  };
  double coarse = errorWithStep(0.01), fine = errorWithStep(0.005);
  EXPECT_NEAR(std::log2(coarse / fine), 1.0, 0.1) << coarse << " " << fine;
  EXPECT_LT(fine, 1e-2);
}

TEST(Beuler, StiffProblemStaysOnTheSlowManifold) {
  // h * 1000 = 100: far outside explicit Euler's stability interval.
  eqc_options opt = fixedStep(EQC_METHOD_BEULER, 2.0, 0.1);
  Solution implicit = integrate(1, stiff, stiffJacobian, {1.0}, opt);
  ASSERT_EQ(implicit.status, EQC_OK);
  ASSERT_EQ(implicit.rec.times.size(), 21u);
  for (size_t k = 0; k < implicit.rec.times.size(); ++k)
    EXPECT_NEAR(implicit.rec.states[k][0], std::cos(implicit.rec.times[k]), 2e-3)
        << "t = " << implicit.rec.times[k];
  // Linear f with the exact Jacobian: one Jacobian, one factorization (two
  // if the last step's h differs in the last bit), two Newton iterations a
  // step (the second confirms convergence).
  EXPECT_EQ(implicit.stats.jac_evals, 1);
  EXPECT_LE(implicit.stats.lu_decompositions, 2);
  EXPECT_EQ(implicit.stats.newton_iterations, 2 * implicit.stats.steps);

  opt.method = EQC_METHOD_EULER;
  Solution explicitRun = integrate(1, stiff, nullptr, {1.0}, opt);
  // Explicit Euler amplifies deviations by |1 - 100| = 99 a step.
  EXPECT_TRUE(explicitRun.status == EQC_ERR_NONFINITE || std::fabs(explicitRun.x[0]) > 1e20)
      << explicitRun.x[0];
}

TEST(Beuler, JacobianCallbackMatchesFiniteDifferences) {
  eqc_options opt = fixedStep(EQC_METHOD_BEULER, 3.0, 0.01);
  Solution exact = integrate(2, vanDerPol, vanDerPolJacobian, {2.0, 0.0}, opt);
  Solution differences = integrate(2, vanDerPol, nullptr, {2.0, 0.0}, opt);
  ASSERT_EQ(exact.status, EQC_OK);
  ASSERT_EQ(differences.status, EQC_OK);
  ASSERT_EQ(exact.rec.times.size(), differences.rec.times.size());
  for (size_t k = 0; k < exact.rec.times.size(); ++k)
    for (int i = 0; i < 2; ++i)
      EXPECT_NEAR(exact.rec.states[k][i], differences.rec.states[k][i], 1e-10)
          << "t = " << exact.rec.times[k];
  EXPECT_GT(exact.stats.jac_evals, 0);
  EXPECT_EQ(differences.stats.jac_evals, 0);
  // The same Newton decisions: each Jacobian costs n = 2 evaluations of f
  // instead of a callback.
  EXPECT_EQ(differences.stats.lu_decompositions, exact.stats.lu_decompositions);
  EXPECT_EQ(differences.stats.rhs_evals, exact.stats.rhs_evals + 2 * exact.stats.jac_evals);
  // Simplified Newton keeps the Jacobian for many steps.
  EXPECT_LT(exact.stats.jac_evals, exact.stats.steps / 4);
  EXPECT_EQ(exact.stats.steps, 300);
}

TEST(Beuler, NewtonFailureKeepsTheLastStep) {
  // x' = x^2: the step equation z = x + h z^2 has a solution only while
  // 4 h x <= 1. With h = 0.1, x(0) = 1 the sixth step has none.
  std::vector<double> expected = {1.0};
  const double h = 0.1;
  while (1 - 4 * h * expected.back() >= 0)
    expected.push_back((1 - std::sqrt(1 - 4 * h * expected.back())) / (2 * h));
  ASSERT_EQ(expected.size(), 6u); // x_0 .. x_5

  Solution run = integrate(1, square, nullptr, {1.0}, fixedStep(EQC_METHOD_BEULER, 2.0, h));
  ASSERT_EQ(run.status, EQC_ERR_NEWTON);
  EXPECT_EQ(run.stats.steps, 5);
  EXPECT_NEAR(run.stats.t_reached, 0.5, 1e-15);
  // Newton stops at an estimated error of 1e-10 * (1 + |x|); the estimate
  // from the contraction rate is not a bound (measured: 1.3e-9 at x_5, whose
  // step starts near the fold), hence 1e-8.
  EXPECT_NEAR(run.x[0], expected.back(), 1e-8);
  EXPECT_EQ(run.rec.times.back(), run.stats.t_reached);
  EXPECT_EQ(run.rec.states.back()[0], run.x[0]);
  for (size_t k = 0; k < expected.size(); ++k)
    EXPECT_NEAR(run.rec.states[k][0], expected[k], 1e-8) << k;
}

TEST(Beuler, FailingJacobianCallback) {
  Solution run = integrate(1, stiff, failingJacobian, {1.0}, fixedStep(EQC_METHOD_BEULER, 1.0, 0.1));
  ASSERT_EQ(run.status, EQC_ERR_RHS);
  EXPECT_EQ(run.stats.rhs_code, 3);
  EXPECT_EQ(run.stats.jac_evals, 1);
  EXPECT_EQ(run.stats.t_reached, 0.0);
  EXPECT_EQ(run.x[0], 1.0);
}

TEST(Beuler, InvalidStepIsAnArgumentError) {
  double x = 1.0;
  eqc_options opt = fixedStep(EQC_METHOD_BEULER, 1.0, 0.0);
  eqc_stats stats;
  EXPECT_EQ(eqc_integrate_ex(1, stiff, nullptr, stiffJacobian, nullptr, &x, &opt, nullptr, nullptr, nullptr,
                             nullptr, &stats),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(stats.jac_evals, 0);
  EXPECT_EQ(stats.newton_iterations, 0);
  EXPECT_EQ(x, 1.0);
}
