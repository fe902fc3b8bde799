// Tests of the Dormand-Prince integrator: accuracy against analytic solutions,
// dense output, step-size statistics and the output grid.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using eqc::test::makeOptions;
using eqc::test::Recorder;
using eqc::test::Lambda;
using eqc::test::linearDecay;
using eqc::test::oscillator;

namespace {


/// The nilpotent chain: errors grow polynomially in t, so it separates accurate
/// methods.
int chain(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = 2 * std::cos(t);
  for (int i = 1; i < 6; ++i)
    dxdt[i] = std::sin(t) - x[i - 1];
  return 0;
}

void chainExact(double t, double *x) {
  double s = std::sin(t), c = std::cos(t);
  x[0] = 2 * s;
  x[1] = c;
  x[2] = -s - c;
  x[3] = s - 2 * c;
  x[4] = 2 * s;
  x[5] = c;
}

struct Solution {
  int status;
  eqc_stats stats;
  Recorder rec;
  std::vector<double> x;
};

Solution integrate(int n, eqc_rhs_fn f, std::vector<double> x0,
                   const eqc_options &opt) {
  Solution run;
  run.rec.n = n;
  run.x = std::move(x0);
  run.status = eqc_integrate(n, f, nullptr, run.x.data(), &opt,
                             Recorder::record, &run.rec, &run.stats);
  return run;
}

eqc_options dopri(double tEnd, double rtol, double atol) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, tEnd);
  opt.rtol = rtol;
  opt.atol = atol;
  return opt;
}

} // namespace

class Dopri5Tolerance : public ::testing::TestWithParam<double> {};

TEST_P(Dopri5Tolerance, LinearDecayErrorProportionalToRtol) {
  const double rtol = GetParam();
  Solution run =
      integrate(1, linearDecay, {1.0}, dopri(10.0, rtol, rtol * 1e-3));
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_EQ(run.stats.t_reached, 10.0);
  double exact = std::exp(Lambda * 10.0);
  // Global error of a locally controlled method: a modest multiple of the
  // tolerance.
  EXPECT_LT(std::fabs(run.x[0] - exact) / exact, 20 * rtol);
}

TEST_P(Dopri5Tolerance, OscillatorErrorAndDenseOutput) {
  const double rtol = GetParam();
  eqc_options opt = dopri(20.0, rtol, rtol);
  opt.interval = 0.1;
  Solution run = integrate(2, oscillator, {1.0, 0.0}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_LT(std::hypot(run.x[0] - std::cos(20.0), run.x[1] + std::sin(20.0)),
            50 * rtol);

  // t_start, the 199 grid points strictly inside (0, 20), and t_end.
  ASSERT_EQ(run.rec.times.size(), 201u);
  EXPECT_EQ(run.stats.outputs, 201);
  // Dense output must not shorten steps to hit the grid: the steps are those
  // without a grid.
  opt.interval = 0;
  Solution everyStep = integrate(2, oscillator, {1.0, 0.0}, opt);
  EXPECT_EQ(run.stats.steps, everyStep.stats.steps);
  EXPECT_EQ(run.stats.rejected, everyStep.stats.rejected);
  EXPECT_EQ(run.x, everyStep.x);
  for (size_t k = 0; k < run.rec.times.size(); ++k) {
    double t = run.rec.times[k];
    EXPECT_NEAR(t, 0.1 * static_cast<double>(k), 1e-12);
    const std::vector<double> &x = run.rec.states[k];
    EXPECT_NEAR(x[0], std::cos(t), 50 * rtol) << "t = " << t;
    EXPECT_NEAR(x[1], -std::sin(t), 50 * rtol) << "t = " << t;
  }
}

INSTANTIATE_TEST_SUITE_P(Rtol, Dopri5Tolerance, ::testing::Values(1e-6, 1e-10));

TEST(Dopri5, StepCountGrowsWithTighterTolerance) {
  Solution loose =
      integrate(2, oscillator, {1.0, 0.0}, dopri(20.0, 1e-6, 1e-6));
  Solution tight =
      integrate(2, oscillator, {1.0, 0.0}, dopri(20.0, 1e-10, 1e-10));
  ASSERT_EQ(loose.status, EQC_OK);
  ASSERT_EQ(tight.status, EQC_OK);
  // Steps scale like tol^(-1/5): a factor 1e4 in tolerance gives about 6.3
  // times the steps.
  EXPECT_GT(tight.stats.steps, 4 * loose.stats.steps);
  EXPECT_LT(tight.stats.steps, 10 * loose.stats.steps);
}

TEST(Dopri5, StatisticsAndEveryStepOutput) {
  Solution run = integrate(2, oscillator, {1.0, 0.0}, dopri(5.0, 1e-8, 1e-8));
  ASSERT_EQ(run.status, EQC_OK);
  // FSAL: six evaluations per attempted step, plus f(t0) and the one inside the
  // initial-step heuristic.
  EXPECT_EQ(run.stats.rhs_evals,
            6 * (run.stats.steps + run.stats.rejected) + 2);
  EXPECT_EQ(static_cast<long>(run.rec.times.size()), run.stats.steps + 1);
  EXPECT_EQ(run.rec.times.front(), 0.0);
  EXPECT_EQ(run.rec.times.back(), 5.0);
  for (size_t k = 1; k < run.rec.times.size(); ++k)
    EXPECT_LT(run.rec.times[k - 1], run.rec.times[k]);
  EXPECT_EQ(run.stats.failed_component, -1);
  EXPECT_EQ(run.stats.rhs_code, 0);
}

TEST(Dopri5, GridPointOnEndIsNotRepeated) {
  eqc_options opt = dopri(1.0, 1e-6, 1e-6);
  opt.interval = 0.1; // 10 * 0.1 differs from 1.0 by rounding only
  Solution run = integrate(1, linearDecay, {1.0}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  ASSERT_EQ(run.rec.times.size(), 11u);
  EXPECT_EQ(run.rec.times.back(), 1.0);
}

TEST(Dopri5, MaxStepAndInitialStepRespected) {
  eqc_options opt = dopri(1.0, 1e-3, 1e-3);
  opt.h_max = 0.01;
  Solution run = integrate(1, linearDecay, {1.0}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_GE(run.stats.steps, 100);

  opt = dopri(1.0, 1e-3, 1e-3);
  opt.h_init = 1e-5;
  opt.interval = 0.5;
  Solution first = integrate(1, linearDecay, {1.0}, opt);
  ASSERT_EQ(first.status, EQC_OK);
  // No hinit evaluation with a given first step.
  EXPECT_EQ(first.stats.rhs_evals,
            6 * (first.stats.steps + first.stats.rejected) + 1);
  // Growth is limited to a factor 10 per step: at least 4 steps to get from
  // 1e-5 to 0.1.
  EXPECT_GE(first.stats.steps, 5);
}

TEST(Dopri5, LinearChainMatchesAnalyticSolution) {
  std::vector<double> x0 = {0, 1, -1, -2, 0, 1};
  Solution run = integrate(6, chain, x0, dopri(20.0, 1e-10, 1e-12));
  ASSERT_EQ(run.status, EQC_OK);
  double exact[6];
  chainExact(20.0, exact);
  for (int i = 0; i < 6; ++i)
    EXPECT_NEAR(run.x[i], exact[i], 1e-7) << "x" << i + 1;
}

TEST(FixedStep, HeunDriftsOnLinearChain) {
  eqc_options opt = makeOptions(EQC_METHOD_HEUN, 0.0, 20.0);
  opt.dt = 0.2;
  Solution run = integrate(6, chain, {0, 1, -1, -2, 0, 1}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_EQ(run.stats.steps, 100);
  double exact[6];
  chainExact(20.0, exact);
  double error1 = std::fabs(run.x[0] - exact[0]);
  double error6 = std::fabs(run.x[5] - exact[5]);
  // Errors are integrated down the chain and grow with each stage (about 6e-3
  // in x1, the trapezoid rule's h^2/12 |2 sin 20|, against tens in x6).
  EXPECT_GT(error6, 1e-3);
  EXPECT_GT(std::fabs(run.x[4] - exact[4]), 1e-3);
  EXPECT_LT(error1, 1e-2);
  EXPECT_LT(100 * error1, error6);
}
