// Tests of radau5: accuracy against analytic and published reference solutions
// (Test Set for IVP Solvers, Mazzia & Magherini, Bari), step and Jacobian
// statistics, dense output, and the failure paths.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

using eqc::test::makeOptions;
using eqc::test::Recorder;
using eqc::test::rober;
using eqc::test::roberJacobian;
using eqc::test::RoberReference;
using eqc::test::vanDerPol;
using eqc::test::vanDerPolJacobian;
using eqc::test::VdpReference;

namespace {

/// y' = -y + sin t, y(0) = 1: y = 1.5 e^-t + (sin t - cos t) / 2.
int forcedDecay(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = -x[0] + std::sin(t);
  return 0;
}

double forcedDecayExact(double t) { return 1.5 * std::exp(-t) + 0.5 * (std::sin(t) - std::cos(t)); }


/// A linear stiff system with eigenvalues -1, -1e3, -1e6 and a forcing term.
int linearStiff(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = -x[0] + x[1];
  dxdt[1] = -1e3 * x[1] + x[2] + std::cos(t);
  dxdt[2] = -1e6 * x[2];
  return 0;
}

int linearStiffJacobian(void *, double, const double *, double *jac) {
  const double j[9] = {-1, 1, 0, 0, -1e3, 1, 0, 0, -1e6};
  std::copy(j, j + 9, jac);
  return 0;
}

int failingJacobian(void *, double, const double *, double *) { return 3; }

/// y' = y^2, y(0) = 1 blows up at t = 1.
int square(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[0] * x[0];
  return 0;
}

/// f is NaN for t > 0.5.
int nanAfterHalf(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = t > 0.5 ? NAN : -x[0];
  return 0;
}

int failingHook(void *user, double t, double *) {
  return t > *static_cast<double *>(user) ? 7 : 0;
}

struct Solution {
  int status;
  eqc_stats stats;
  Recorder rec;
  std::vector<double> x;
};

Solution integrate(int n, eqc_rhs_fn f, eqc_jac_fn jac, std::vector<double> x0, const eqc_options &opt,
                   eqc_step_fn hook = nullptr, void *hookUser = nullptr) {
  Solution run;
  run.rec.n = n;
  run.x = std::move(x0);
  run.status = eqc_integrate_ex(n, f, nullptr, jac, nullptr, run.x.data(), &opt, Recorder::record, &run.rec, hook,
                                hookUser, &run.stats);
  return run;
}

eqc_options radau(double tEnd, double rtol, double atol) {
  eqc_options opt = makeOptions(EQC_METHOD_RADAU5, 0.0, tEnd);
  opt.rtol = rtol;
  opt.atol = atol;
  return opt;
}

void report(const char *name, const Solution &run) {
  std::printf("[radau5] %s: steps %ld rejected %ld rhs %ld jac %ld lu %ld newton %ld\n", name, run.stats.steps,
              run.stats.rejected, run.stats.rhs_evals, run.stats.jac_evals, run.stats.lu_decompositions,
              run.stats.newton_iterations);
}

} // namespace

class Radau5Tolerance : public ::testing::TestWithParam<double> {};

TEST_P(Radau5Tolerance, ErrorProportionalToRtol) {
  const double rtol = GetParam();
  Solution run = integrate(1, forcedDecay, nullptr, {1.0}, radau(10.0, rtol, rtol));
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_EQ(run.stats.t_reached, 10.0);
  double err = std::fabs(run.x[0] - forcedDecayExact(10.0));
  std::printf("[radau5] rtol %g: error %.3e, steps %ld\n", rtol, err, run.stats.steps);
  EXPECT_LT(err, 50 * rtol);
}

INSTANTIATE_TEST_SUITE_P(Radau5, Radau5Tolerance, ::testing::Values(1e-6, 1e-9));

TEST(Radau5, ErrorFallsWithRtol) {
  double errors[2];
  const double rtols[2] = {1e-6, 1e-9};
  for (int k = 0; k < 2; ++k) {
    Solution run = integrate(1, forcedDecay, nullptr, {1.0}, radau(10.0, rtols[k], rtols[k]));
    ASSERT_EQ(run.status, EQC_OK);
    errors[k] = std::fabs(run.x[0] - forcedDecayExact(10.0));
  }
  // 1000 times tighter rtol: the error falls by at least a factor of 100.
  EXPECT_LT(errors[1], errors[0] / 100);
}

TEST(Radau5, DenseOutputOnGrid) {
  eqc_options opt = radau(10.0, 1e-6, 1e-6);
  opt.interval = 0.1;
  Solution run = integrate(1, forcedDecay, nullptr, {1.0}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  ASSERT_EQ(run.rec.times.size(), 101u);
  double worst = 0.0;
  for (size_t k = 0; k < run.rec.times.size(); ++k) {
    EXPECT_NEAR(run.rec.times[k], 0.1 * static_cast<double>(k), 1e-12);
    worst = std::max(worst, std::fabs(run.rec.states[k][0] - forcedDecayExact(run.rec.times[k])));
  }
  std::printf("[radau5] dense output: worst error %.3e over %zu outputs, %ld steps\n", worst,
              run.rec.times.size(), run.stats.steps);
  // Most outputs fall inside steps, so this measures the collocation polynomial.
  EXPECT_LT(run.stats.steps, 60);
  EXPECT_LT(worst, 1e-5);
}

TEST(Radau5, OutputOriginKeepsTheGrid) {
  eqc_options opt = makeOptions(EQC_METHOD_RADAU5, 0.3, 1.0);
  opt.interval = 0.25;
  opt.output_origin = 0.0;
  Solution run = integrate(1, forcedDecay, nullptr, {forcedDecayExact(0.3)}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  const std::vector<double> expected = {0.3, 0.5, 0.75, 1.0};
  ASSERT_EQ(run.rec.times.size(), expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    EXPECT_DOUBLE_EQ(run.rec.times[k], expected[k]);
    EXPECT_NEAR(run.rec.states[k][0], forcedDecayExact(expected[k]), 1e-5);
  }
}

class Radau5Rober : public ::testing::TestWithParam<std::pair<double, double>> {};

TEST_P(Radau5Rober, MatchesTestSetReference) {
  // atol = 1e-4 rtol for every component (the header's atol is scalar): 1e-10
  // at rtol 1e-6. At rtol 1e-10 atol must shrink with it: y1 ~ 2e-8 and y2 ~
  // 8e-14 at the end, and RADAU5's transformed atol' = 0.1 rtol^(2/3) atol/rtol
  // would be 2e-8 with atol = 1e-10. h_max 0 means the whole interval.
  const auto [rtol, relativeTolerance] = GetParam();
  for (eqc_jac_fn jac : {eqc_jac_fn(roberJacobian), eqc_jac_fn(nullptr)}) {
    Solution run = integrate(3, rober, jac, {1.0, 0.0, 0.0}, radau(1e11, rtol, 1e-4 * rtol));
    report(jac ? "rober (exact J)" : "rober (FD J)", run);
    ASSERT_EQ(run.status, EQC_OK);
    EXPECT_EQ(run.stats.t_reached, 1e11);
    EXPECT_LT(run.stats.steps, 2000);
    for (int i = 0; i < 3; ++i) {
      const double rel = std::fabs(run.x[i] - RoberReference[i]) / RoberReference[i];
      std::printf("[radau5]   y%d = %.16e  relative error %.2e\n", i + 1, run.x[i], rel);
      EXPECT_LT(rel, relativeTolerance) << "component " << i;
    }
    // At most one Jacobian and one pair of factorizations per attempt.
    EXPECT_EQ(run.stats.lu_decompositions % 2, 0);
    EXPECT_LE(run.stats.lu_decompositions, 2 * (run.stats.steps + run.stats.rejected));
    if (jac) {
      EXPECT_LE(run.stats.jac_evals, run.stats.steps + run.stats.rejected);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Radau5, Radau5Rober,
                         ::testing::Values(std::make_pair(1e-6, 1e-4), std::make_pair(1e-10, 1e-7)));

TEST(Radau5, VanDerPolStiff) {
  for (eqc_jac_fn jac : {eqc_jac_fn(vanDerPolJacobian), eqc_jac_fn(nullptr)}) {
    Solution run = integrate(2, vanDerPol, jac, {2.0, 0.0}, radau(2.0, 1e-6, 1e-6));
    report(jac ? "vdpol (exact J)" : "vdpol (FD J)", run);
    ASSERT_EQ(run.status, EQC_OK);
    for (int i = 0; i < 2; ++i) {
      const double rel = std::fabs(run.x[i] - VdpReference[i]) / std::fabs(VdpReference[i]);
      std::printf("[radau5]   y%d = %.16e  relative error %.2e\n", i + 1, run.x[i], rel);
      EXPECT_LT(rel, 1e-4) << "component " << i;
    }
    EXPECT_LT(run.stats.steps, 1000);
  }
}

TEST(Radau5, ExactAndFiniteDifferenceJacobiansAgree) {
  const eqc_options opt = radau(5.0, 1e-8, 1e-10);
  Solution exact = integrate(3, linearStiff, linearStiffJacobian, {1.0, 1.0, 1.0}, opt);
  Solution fd = integrate(3, linearStiff, nullptr, {1.0, 1.0, 1.0}, opt);
  report("linear (exact J)", exact);
  report("linear (FD J)", fd);
  ASSERT_EQ(exact.status, EQC_OK);
  ASSERT_EQ(fd.status, EQC_OK);
  EXPECT_GT(exact.stats.jac_evals, 0);
  EXPECT_EQ(fd.stats.jac_evals, 0);
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(exact.x[i], fd.x[i], 1e-8 * (1 + std::fabs(exact.x[i])));
  // A linear problem has a constant Jacobian: evaluated once.
  EXPECT_EQ(exact.stats.jac_evals, 1);
  // x1 decays from its own start, x2 follows cos(t)/1000 closely.
  const double x1 = exact.x[1];
  EXPECT_NEAR(x1, (1e3 * std::cos(5.0) + std::sin(5.0)) / (1e6 + 1), 1e-8);
  EXPECT_EQ(exact.stats.lu_decompositions % 2, 0);
  EXPECT_GT(exact.stats.newton_iterations, 0);
}

TEST(Radau5, HMaxAndMaxSteps) {
  eqc_options opt = radau(10.0, 1e-6, 1e-6);
  opt.h_max = 0.1;
  Solution run = integrate(1, forcedDecay, nullptr, {1.0}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_GE(run.stats.steps, 100);
  for (size_t k = 1; k < run.rec.times.size(); ++k)
    EXPECT_LE(run.rec.times[k] - run.rec.times[k - 1], 0.1 * (1 + 1e-12));

  opt.h_max = 0;
  opt.max_steps = 5;
  Solution limited = integrate(1, forcedDecay, nullptr, {1.0}, opt);
  EXPECT_EQ(limited.status, EQC_ERR_MAX_STEPS);
  EXPECT_EQ(limited.stats.steps + limited.stats.rejected, 5);
  EXPECT_EQ(limited.rec.times.back(), limited.stats.t_reached);
  EXPECT_EQ(limited.x[0], limited.rec.states.back()[0]);
}

TEST(Radau5Failure, NonFiniteDerivative) {
  Solution run = integrate(1, nanAfterHalf, nullptr, {1.0}, radau(1.0, 1e-6, 1e-6));
  EXPECT_EQ(run.status, EQC_ERR_NONFINITE);
  EXPECT_EQ(run.stats.failed_component, 0);
  EXPECT_LE(run.stats.t_reached, 0.5);
  EXPECT_GT(run.stats.t_reached, 0.49);
  EXPECT_TRUE(std::isfinite(run.x[0]));
}

TEST(Radau5Failure, BlowUpUnderflowsTheStep) {
  Solution run = integrate(1, square, nullptr, {1.0}, radau(2.0, 1e-6, 1e-6));
  // The blow-up at t = 1 is located to about rtol; accepted steps shrink until
  // they no longer advance t.
  EXPECT_EQ(run.status, EQC_ERR_STEP_UNDERFLOW);
  EXPECT_NEAR(run.stats.t_reached, 1.0, 1e-5);
  EXPECT_GT(run.x[0], 1e10);
}

int veryStiff(void *, double, const double *x, double *dxdt) {
  dxdt[0] = -1e20 * x[0];
  return 0;
}

int zeroJacobian(void *, double, const double *, double *jac) {
  jac[0] = 0.0;
  return 0;
}

TEST(Radau5Failure, NewtonFailsWithAWrongJacobian) {
  // With J = 0 the simplified Newton iteration is a fixed-point iteration that
  // contracts only for h < 1e-20: halving the step never gets there.
  eqc_options opt = radau(1.0, 1e-6, 1e-6);
  opt.h_init = 1e-3; // the automatic first step would already be below the minimum
  Solution run = integrate(1, veryStiff, zeroJacobian, {1.0}, opt);
  EXPECT_EQ(run.status, EQC_ERR_NEWTON);
  EXPECT_EQ(run.stats.steps, 0);
  EXPECT_GT(run.stats.rejected, 10);
  EXPECT_EQ(run.stats.t_reached, 0.0);
  EXPECT_EQ(run.x[0], 1.0);
}

TEST(Radau5Failure, JacobianCallbackFails) {
  Solution run = integrate(3, rober, failingJacobian, {1.0, 0.0, 0.0}, radau(1.0, 1e-6, 1e-10));
  EXPECT_EQ(run.status, EQC_ERR_RHS);
  EXPECT_EQ(run.stats.rhs_code, 3);
  EXPECT_EQ(run.stats.t_reached, 0.0);
  EXPECT_EQ(run.x[0], 1.0);
}

TEST(Radau5Failure, HookStops) {
  double stopAfter = 0.3;
  eqc_options opt = radau(1.0, 1e-6, 1e-6);
  opt.interval = 0.1;
  Solution run = integrate(1, forcedDecay, nullptr, {1.0}, opt, failingHook, &stopAfter);
  EXPECT_EQ(run.status, EQC_ERR_RHS);
  EXPECT_EQ(run.stats.rhs_code, 7);
  EXPECT_GT(run.stats.t_reached, 0.3);
  EXPECT_NEAR(run.x[0], forcedDecayExact(run.stats.t_reached), 1e-5);
  // The grid times the last step covers are still reported.
  EXPECT_GE(run.rec.times.back(), 0.3);
  EXPECT_LE(run.rec.times.back(), run.stats.t_reached);
}

TEST(Radau5Failure, BadOptions) {
  double x = 1.0;
  eqc_stats stats;
  eqc_options opt = radau(1.0, 1e-6, 1e-6);
  opt.rtol = 0;
  EXPECT_EQ(eqc_integrate(1, forcedDecay, nullptr, &x, &opt, nullptr, nullptr, &stats), EQC_ERR_ARGUMENT);
  opt = radau(1.0, 1e-6, -1.0);
  EXPECT_EQ(eqc_integrate(1, forcedDecay, nullptr, &x, &opt, nullptr, nullptr, &stats), EQC_ERR_ARGUMENT);
  opt = radau(1.0, 1e-6, 1e-6);
  opt.h_max = -1;
  EXPECT_EQ(eqc_integrate(1, forcedDecay, nullptr, &x, &opt, nullptr, nullptr, &stats), EQC_ERR_ARGUMENT);
  opt = radau(1.0, 1e-6, 1e-6);
  opt.h_init = NAN;
  EXPECT_EQ(eqc_integrate(1, forcedDecay, nullptr, &x, &opt, nullptr, nullptr, &stats), EQC_ERR_ARGUMENT);
  EXPECT_EQ(x, 1.0);
}
