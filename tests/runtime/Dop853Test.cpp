// Tests of DOP853: exactness on polynomials, error against rtol, step counts
// against dopri5, dense output, the Arenstorf orbit and the failure paths.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using eqc::test::makeOptions;
using eqc::test::Recorder;
using eqc::test::Lambda;
using eqc::test::linearDecay;
using eqc::test::oscillator;

namespace {


/// y' = sum_k (k+1) c_k t^k for k < degree, so y = sum_k c_k t^(k+1) has the
/// given degree; the coefficients make every power matter.
struct Polynomial {
  int degree;
  static constexpr double Coefficients[9] = {1.0, -0.5, 0.25, 1.5, -0.75, 0.3, -0.2, 0.125, 0.1};
  double value(double t) const {
    double sum = 0.0;
    for (int k = degree - 1; k >= 0; --k)
      sum = (sum + Coefficients[k]) * t;
    return sum;
  }
  static int rhs(void *user, double t, const double *, double *dxdt) {
    const auto *self = static_cast<const Polynomial *>(user);
    double sum = 0.0;
    for (int k = self->degree - 1; k >= 0; --k)
      sum = sum * t + (k + 1) * Coefficients[k];
    dxdt[0] = sum;
    return 0;
  }
};

struct Solution {
  int status;
  eqc_stats stats;
  Recorder rec;
  std::vector<double> x;
};

Solution integrate(int n, eqc_rhs_fn f, void *user, std::vector<double> x0, const eqc_options &opt,
                   eqc_step_fn hook = nullptr, void *hookUser = nullptr) {
  Solution run;
  run.rec.n = n;
  run.x = std::move(x0);
  run.status = eqc_integrate_with_hook(n, f, user, run.x.data(), &opt, Recorder::record, &run.rec, hook,
                                       hookUser, &run.stats);
  return run;
}

eqc_options dop853(double tEnd, double rtol, double atol) {
  eqc_options opt = makeOptions(EQC_METHOD_DOP853, 0.0, tEnd);
  opt.rtol = rtol;
  opt.atol = atol;
  return opt;
}

/// Fixed large steps: h_init = h_max = 0.5 with a loose tolerance, so every
/// step is accepted.
eqc_options largeSteps(double tEnd) {
  eqc_options opt = dop853(tEnd, 1e-2, 1e-2);
  opt.h_init = 0.5;
  opt.h_max = 0.5;
  return opt;
}

} // namespace

TEST(Dop853, PolynomialOfDegreeEightIsIntegratedExactly) {
  // y' of degree 7: an order-8 method's local error vanishes.
  Polynomial p{8};
  Solution run = integrate(1, Polynomial::rhs, &p, {0.0}, largeSteps(3.0));
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_EQ(run.stats.steps, 6);
  EXPECT_EQ(run.stats.rejected, 0);
  EXPECT_NEAR(run.x[0], p.value(3.0), 1e-13 * std::fabs(p.value(3.0)));
}

TEST(Dop853, PolynomialOfDegreeNineIsNotExact) {
  // The same steps with y' of degree 8 show an error far above round-off: the
  // exactness above is a property of the order, not of a trivial problem.
  Polynomial p{9};
  Solution run = integrate(1, Polynomial::rhs, &p, {0.0}, largeSteps(3.0));
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_GT(std::fabs(run.x[0] - p.value(3.0)), 1e-10 * std::fabs(p.value(3.0)));
}

TEST(Dop853, DenseOutputIsExactForDegreeSeven) {
  // contd8 has order 7: exact for y' of degree 6, also between the steps.
  Polynomial p{7};
  eqc_options opt = largeSteps(3.0);
  opt.interval = 0.1;
  Solution run = integrate(1, Polynomial::rhs, &p, {0.0}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  ASSERT_EQ(run.rec.times.size(), 31u);
  for (size_t k = 0; k < run.rec.times.size(); ++k) {
    double t = run.rec.times[k];
    EXPECT_NEAR(run.rec.states[k][0], p.value(t), 1e-13 * (1 + std::fabs(p.value(t)))) << "t = " << t;
  }
}

TEST(Dop853, EighthOrderConvergence) {
  // Halving a fixed step (rtol huge: nothing is rejected) divides the error of
  // the oscillator by 2^8 = 256.
  auto errorWithStep = [](double h) {
    eqc_options opt = dop853(10.0, 1e3, 1e3);
    opt.h_init = h;
    opt.h_max = h;
    Solution run = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt);
    EXPECT_EQ(run.status, EQC_OK);
    EXPECT_EQ(run.stats.rejected, 0);
    return std::hypot(run.x[0] - std::cos(10.0), run.x[1] + std::sin(10.0));
  };
  double coarse = errorWithStep(0.5), fine = errorWithStep(0.25);
  double slope = std::log2(coarse / fine);
  EXPECT_NEAR(slope, 8.0, 0.5) << coarse << " " << fine;
}

class Dop853Tolerance : public ::testing::TestWithParam<double> {};

TEST_P(Dop853Tolerance, LinearDecayErrorProportionalToRtol) {
  const double rtol = GetParam();
  Solution run = integrate(1, linearDecay, nullptr, {1.0}, dop853(10.0, rtol, rtol * 1e-3));
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_EQ(run.stats.t_reached, 10.0);
  double exact = std::exp(Lambda * 10.0);
  EXPECT_LT(std::fabs(run.x[0] - exact) / exact, 20 * rtol);
}

TEST_P(Dop853Tolerance, OscillatorErrorAndDenseOutput) {
  const double rtol = GetParam();
  eqc_options opt = dop853(20.0, rtol, rtol);
  opt.interval = 0.1;
  Solution run = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt);
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_LT(std::hypot(run.x[0] - std::cos(20.0), run.x[1] + std::sin(20.0)), 50 * rtol);
  ASSERT_EQ(run.rec.times.size(), 201u);
  for (size_t k = 0; k < run.rec.times.size(); ++k) {
    double t = run.rec.times[k];
    EXPECT_NEAR(t, 0.1 * static_cast<double>(k), 1e-12);
    const std::vector<double> &x = run.rec.states[k];
    EXPECT_NEAR(x[0], std::cos(t), 50 * rtol) << "t = " << t;
    EXPECT_NEAR(x[1], -std::sin(t), 50 * rtol) << "t = " << t;
  }

  // The grid neither changes the steps nor costs more than the three dense
  // stages of the steps that contain grid times.
  opt.interval = 0;
  Solution everyStep = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt);
  EXPECT_EQ(run.stats.steps, everyStep.stats.steps);
  EXPECT_EQ(run.stats.rejected, everyStep.stats.rejected);
  EXPECT_EQ(run.x, everyStep.x);
  // 12 evaluations per accepted step (FSAL), 11 per rejected one, f(t0) and
  // the initial-step heuristic.
  EXPECT_EQ(everyStep.stats.rhs_evals, 12 * everyStep.stats.steps + 11 * everyStep.stats.rejected + 2);
  long extra = run.stats.rhs_evals - everyStep.stats.rhs_evals;
  EXPECT_EQ(extra % 3, 0);
  EXPECT_GT(extra, 0);
  EXPECT_LE(extra, 3 * run.stats.steps);
}

INSTANTIATE_TEST_SUITE_P(Rtol, Dop853Tolerance, ::testing::Values(1e-6, 1e-10, 1e-13));

TEST(Dop853, FewerStepsThanDopri5AtTightTolerance) {
  eqc_options opt = dop853(20.0, 1e-10, 1e-10);
  Solution high = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt);
  opt.method = EQC_METHOD_DOPRI5;
  Solution low = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt);
  ASSERT_EQ(high.status, EQC_OK);
  ASSERT_EQ(low.status, EQC_OK);
  EXPECT_LT(3 * high.stats.steps, low.stats.steps) << high.stats.steps << " vs " << low.stats.steps;
  EXPECT_LT(high.stats.rhs_evals, low.stats.rhs_evals);
}

namespace {

constexpr double Mu = 0.012277471;
constexpr double ArenstorfPeriod = 17.0652165601579625588917206249;
const std::vector<double> ArenstorfStart = {0.994, 0.0, 0.0, -2.00158510637908252240537862224};

/// The restricted three-body problem (HNW I, II.0): a satellite orbit that is
/// periodic with ArenstorfPeriod.
int arenstorf(void *, double, const double *y, double *dydt) {
  const double muPrime = 1.0 - Mu;
  double d1 = std::pow(std::pow(y[0] + Mu, 2) + y[1] * y[1], 1.5);
  double d2 = std::pow(std::pow(y[0] - muPrime, 2) + y[1] * y[1], 1.5);
  dydt[0] = y[2];
  dydt[1] = y[3];
  dydt[2] = y[0] + 2 * y[3] - muPrime * (y[0] + Mu) / d1 - Mu * (y[0] - muPrime) / d2;
  dydt[3] = y[1] - 2 * y[2] - muPrime * y[1] / d1 - Mu * y[1] / d2;
  return 0;
}

double distanceFromStart(const std::vector<double> &y) {
  double m = 0.0;
  for (int i = 0; i < 4; ++i)
    m = std::max(m, std::fabs(y[i] - ArenstorfStart[i]));
  return m;
}

} // namespace

TEST(Dop853, ArenstorfOrbitCloses) {
  eqc_options opt = dop853(ArenstorfPeriod, 1e-10, 1e-10);
  Solution high = integrate(4, arenstorf, nullptr, ArenstorfStart, opt);
  ASSERT_EQ(high.status, EQC_OK);
  // Measured: 8.6e-7 after 176 accepted and 61 rejected steps (2785 f); the
  // close approaches to the moon amplify local errors by about 1e4.
  EXPECT_LT(distanceFromStart(high.x), 1e-6);
  RecordProperty("closing_error", std::to_string(distanceFromStart(high.x)));

  // dopri5 at the same tolerance: 2.4e-6 with 841 steps (5060 f).
  opt.method = EQC_METHOD_DOPRI5;
  Solution low = integrate(4, arenstorf, nullptr, ArenstorfStart, opt);
  ASSERT_EQ(low.status, EQC_OK);
  EXPECT_LT(distanceFromStart(high.x), distanceFromStart(low.x));
  EXPECT_LT(high.stats.rhs_evals, low.stats.rhs_evals);
}

// Failure semantics, as for dopri5 (FailureTest.cpp).

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

int nanLater(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = -x[0];
  dxdt[1] = t >= 0.45 ? NaN : -x[1];
  return 0;
}

int blowUp(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[0] * x[0];
  return 0;
}

/// Pulls the oscillator back onto the unit circle; fails after t = failAfter.
struct CircleHook {
  double failAfter = INFINITY;
  long calls = 0;
  static int call(void *user, double t, double *x) {
    auto *self = static_cast<CircleHook *>(user);
    ++self->calls;
    if (t > self->failAfter)
      return 7;
    double r = std::hypot(x[0], x[1]);
    x[0] /= r;
    x[1] /= r;
    return 0;
  }
};

} // namespace

TEST(Dop853Failure, NonFiniteDerivative) {
  Solution run = integrate(2, nanLater, nullptr, {1.0, 1.0}, makeOptions(EQC_METHOD_DOP853, 0.0, 1.0));
  ASSERT_EQ(run.status, EQC_ERR_NONFINITE);
  EXPECT_EQ(run.stats.failed_component, 1);
  EXPECT_LT(run.stats.t_reached, 0.45);
  EXPECT_GT(run.stats.t_reached, 0.45 - 1e-6);
  EXPECT_GT(run.stats.rejected, 0);
  EXPECT_NEAR(run.x[0], std::exp(-run.stats.t_reached), 1e-5);
  EXPECT_NEAR(run.x[1], std::exp(-run.stats.t_reached), 1e-5);
  EXPECT_EQ(run.rec.times.back(), run.stats.t_reached);
}

TEST(Dop853Failure, FiniteTimeBlowUp) {
  // x' = x^2, x(0) = 1: x = 1 / (1 - t) ends at t = 1.
  Solution run = integrate(1, blowUp, nullptr, {1.0}, makeOptions(EQC_METHOD_DOP853, 0.0, 2.0));
  EXPECT_TRUE(run.status == EQC_ERR_STEP_UNDERFLOW || run.status == EQC_ERR_NONFINITE)
      << eqc_status_message(run.status);
  EXPECT_NEAR(run.stats.t_reached, 1.0, 1e-3);
  EXPECT_TRUE(std::isfinite(run.x[0]));
  EXPECT_GT(run.x[0], 1e3);
  EXPECT_EQ(run.rec.states.back()[0], run.x[0]);
}

TEST(Dop853Failure, MaxSteps) {
  eqc_options opt = makeOptions(EQC_METHOD_DOP853, 0.0, 100.0);
  opt.max_steps = 5;
  Solution run = integrate(1, linearDecay, nullptr, {1.0}, opt);
  ASSERT_EQ(run.status, EQC_ERR_MAX_STEPS);
  EXPECT_EQ(run.stats.steps + run.stats.rejected, 5);
  EXPECT_LT(run.stats.t_reached, 100.0);
  EXPECT_EQ(run.rec.times.back(), run.stats.t_reached);
  EXPECT_EQ(run.rec.states.back()[0], run.x[0]);
  EXPECT_NEAR(run.x[0], std::exp(Lambda * run.stats.t_reached), 1e-6);
}

TEST(Dop853Failure, HookIsAppliedToStepsAndDenseOutput) {
  eqc_options opt = dop853(10.0, 1e-6, 1e-6);
  opt.interval = 0.05;
  CircleHook hook;
  Solution run = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt, CircleHook::call, &hook);
  ASSERT_EQ(run.status, EQC_OK);
  ASSERT_EQ(run.rec.times.size(), 201u);
  for (const std::vector<double> &x : run.rec.states)
    EXPECT_NEAR(std::hypot(x[0], x[1]), 1.0, 1e-15);
  EXPECT_EQ(run.stats.hook_calls, hook.calls);
  EXPECT_GE(run.stats.hook_calls, run.stats.steps);
}

TEST(Dop853Failure, HookFailureKeepsTheStepAndItsOutputs) {
  eqc_options opt = dop853(10.0, 1e-8, 1e-8);
  opt.interval = 0.05;
  CircleHook hook;
  hook.failAfter = 1.0;
  Solution run = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt, CircleHook::call, &hook);
  ASSERT_EQ(run.status, EQC_ERR_RHS);
  EXPECT_EQ(run.stats.rhs_code, 7);
  EXPECT_GT(run.stats.t_reached, 1.0);
  // x is the step's own result at t_reached (the hook failed on it).
  EXPECT_NEAR(run.x[0], std::cos(run.stats.t_reached), 1e-7);
  EXPECT_NEAR(run.x[1], -std::sin(run.stats.t_reached), 1e-7);
  // Every grid time up to t_reached was emitted.
  EXPECT_LE(run.rec.times.back(), run.stats.t_reached);
  EXPECT_GT(run.rec.times.back(), run.stats.t_reached - 0.05);
}

TEST(Dop853Failure, InvalidOptions) {
  double x = 1.0;
  eqc_options opt = dop853(1.0, 0.0, 1e-9); // rtol must be positive
  EXPECT_EQ(eqc_integrate(1, linearDecay, nullptr, &x, &opt, nullptr, nullptr, nullptr), EQC_ERR_ARGUMENT);
  opt = dop853(1.0, 1e-6, 1e-9);
  opt.h_max = -1.0;
  EXPECT_EQ(eqc_integrate(1, linearDecay, nullptr, &x, &opt, nullptr, nullptr, nullptr), EQC_ERR_ARGUMENT);
  int unknown = EQC_METHOD_AUTO + 1;
  std::memcpy(&opt.method, &unknown, sizeof unknown);
  opt.h_max = 0.0;
  EXPECT_EQ(eqc_integrate(1, linearDecay, nullptr, &x, &opt, nullptr, nullptr, nullptr), EQC_ERR_ARGUMENT);
  EXPECT_EQ(x, 1.0);
}
