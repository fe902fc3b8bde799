// Tests of the fixed-step integrators: step formulas, convergence orders, step
// and output grids.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using eqc::test::makeOptions;
using eqc::test::Recorder;

namespace {

int growth(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[0];
  return 0;
}

/// y' = -y + sin t; with y(0) = 1 the solution is (sin t - cos t)/2 + 1.5 e^-t.
int forcedDecay(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = -x[0] + std::sin(t);
  return 0;
}

double forcedDecayExact(double t) {
  return 0.5 * (std::sin(t) - std::cos(t)) + 1.5 * std::exp(-t);
}

double oneStep(eqc_method method, double h) {
  eqc_options opt = makeOptions(method, 0.0, h);
  opt.dt = h;
  double x = 1.0;
  eqc_stats stats;
  EXPECT_EQ(
      eqc_integrate(1, growth, nullptr, &x, &opt, nullptr, nullptr, &stats),
      EQC_OK);
  EXPECT_EQ(stats.steps, 1);
  return x;
}

/// Least-squares slope of log(error) against log(dt) over dt = 0.1, 0.05,
/// 0.025, 0.0125 on [0, 5].
double observedOrder(eqc_method method) {
  double sumX = 0, sumY = 0, sumXX = 0, sumXY = 0;
  const int count = 4;
  double dt = 0.1;
  for (int i = 0; i < count; ++i, dt *= 0.5) {
    // At t = 2 the leading error terms of rk4 nearly cancel; t = 5 is in the
    // asymptotic regime.
    eqc_options opt = makeOptions(method, 0.0, 5.0);
    opt.dt = dt;
    double x = 1.0;
    eqc_stats stats;
    EXPECT_EQ(eqc_integrate(1, forcedDecay, nullptr, &x, &opt, nullptr, nullptr,
                            &stats),
              EQC_OK);
    EXPECT_EQ(stats.t_reached, 5.0);
    double logDt = std::log(dt),
           logErr = std::log(std::fabs(x - forcedDecayExact(5.0)));
    sumX += logDt;
    sumY += logErr;
    sumXX += logDt * logDt;
    sumXY += logDt * logErr;
  }
  return (count * sumXY - sumX * sumY) / (count * sumXX - sumX * sumX);
}

} // namespace

TEST(FixedStep, OneStepMatchesTaylorPolynomialOfExp) {
  const double h = 0.1;
  EXPECT_NEAR(oneStep(EQC_METHOD_EULER, h), 1 + h, 1e-15);
  EXPECT_NEAR(oneStep(EQC_METHOD_HEUN, h), 1 + h + h * h / 2, 1e-15);
  EXPECT_NEAR(oneStep(EQC_METHOD_RK4, h),
              1 + h + h * h / 2 + h * h * h / 6 + h * h * h * h / 24, 1e-15);
}

TEST(FixedStep, ConvergenceOrders) {
  EXPECT_NEAR(observedOrder(EQC_METHOD_EULER), 1.0, 0.15);
  EXPECT_NEAR(observedOrder(EQC_METHOD_HEUN), 2.0, 0.15);
  EXPECT_NEAR(observedOrder(EQC_METHOD_RK4), 4.0, 0.15);
}

TEST(FixedStep, LastStepShortenedToHitEnd) {
  eqc_options opt = makeOptions(EQC_METHOD_RK4, 0.0, 1.0);
  opt.dt = 0.3;
  Recorder rec;
  rec.n = 1;
  double x = 1.0;
  eqc_stats stats;
  ASSERT_EQ(eqc_integrate(1, growth, nullptr, &x, &opt, Recorder::record, &rec,
                          &stats),
            EQC_OK);
  EXPECT_EQ(stats.steps, 4);
  EXPECT_EQ(stats.rhs_evals, 16);
  EXPECT_NEAR(stats.h_last, 0.1, 1e-15);
  EXPECT_EQ(stats.t_reached, 1.0);
  ASSERT_EQ(rec.times.size(), 5u);
  EXPECT_EQ(rec.times.back(), 1.0);
  EXPECT_NEAR(x, std::exp(1.0), 1e-3);
}

TEST(FixedStep, NoSliverStepFromRounding) {
  // 1.0 / 0.1 is not exactly 10 in binary; and a remainder of 1e-12 is below
  // 1e-9*dt.
  for (double tEnd : {1.0, 1.0 + 1e-12, 1.0 - 1e-12}) {
    eqc_options opt = makeOptions(EQC_METHOD_EULER, 0.0, tEnd);
    opt.dt = 0.1;
    Recorder rec;
    rec.n = 1;
    double x = 1.0;
    eqc_stats stats;
    ASSERT_EQ(eqc_integrate(1, growth, nullptr, &x, &opt, Recorder::record,
                            &rec, &stats),
              EQC_OK);
    EXPECT_EQ(stats.steps, 10) << "t_end = " << tEnd;
    EXPECT_EQ(rec.times.size(), 11u);
    EXPECT_EQ(rec.times.back(), tEnd);
    EXPECT_EQ(stats.t_reached, tEnd);
  }
}

TEST(FixedStep, OutputStrideAndEnd) {
  eqc_options opt = makeOptions(EQC_METHOD_HEUN, 0.0, 1.05);
  opt.dt = 0.1;
  opt.interval = 0.3; // every 3 steps
  Recorder rec;
  rec.n = 1;
  double x = 1.0;
  eqc_stats stats;
  ASSERT_EQ(eqc_integrate(1, growth, nullptr, &x, &opt, Recorder::record, &rec,
                          &stats),
            EQC_OK);
  EXPECT_EQ(stats.steps, 11);
  const double expected[] = {0.0, 0.3, 0.6, 0.9, 1.05};
  ASSERT_EQ(rec.times.size(), 5u);
  EXPECT_EQ(stats.outputs, 5);
  for (size_t i = 0; i < 5; ++i)
    EXPECT_NEAR(rec.times[i], expected[i], 1e-14);

  // The end time coincides with a stride output: reported once.
  opt.t_end = 1.2;
  rec = Recorder();
  rec.n = 1;
  x = 1.0;
  ASSERT_EQ(eqc_integrate(1, growth, nullptr, &x, &opt, Recorder::record, &rec,
                          &stats),
            EQC_OK);
  EXPECT_EQ(rec.times.size(), 5u);
}

TEST(FixedStep, IntervalZeroOutputsEveryStep) {
  eqc_options opt = makeOptions(EQC_METHOD_EULER, 0.0, 0.5);
  opt.dt = 0.1;
  Recorder rec;
  rec.n = 1;
  double x = 1.0;
  eqc_stats stats;
  ASSERT_EQ(eqc_integrate(1, growth, nullptr, &x, &opt, Recorder::record, &rec,
                          &stats),
            EQC_OK);
  EXPECT_EQ(rec.times.size(), 6u);
  EXPECT_NEAR(rec.states.back()[0], std::pow(1.1, 5), 1e-14);
}

// dt = span / N gives exactly N steps, also where span / dt rounds a little above N: for span 1
// that first happens at N = 30000006 (checked in exact arithmetic), which took N + 1 steps.
TEST(FixedStep, StepCountOfSpanOverNIsN) {
  const long n = 30000006;
  eqc_options opt = eqc::test::makeOptions(EQC_METHOD_EULER, 0.0, 1.0);
  opt.dt = 1.0 / static_cast<double>(n);
  opt.max_steps = 2 * n;
  double x = 1.0;
  eqc_stats stats;
  ASSERT_EQ(eqc_integrate(1, eqc::test::linearDecay, nullptr, &x, &opt, nullptr, nullptr, &stats), EQC_OK);
  EXPECT_EQ(stats.steps, n);
  EXPECT_EQ(stats.t_reached, 1.0);
}
