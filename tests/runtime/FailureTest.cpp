// Tests of the integrator's failure paths: each status code, with the last
// valid state reported.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using eqc::test::makeOptions;
using eqc::test::Recorder;

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

/// Two decoupled decays; the second derivative turns NaN from t = 0.45 on.
int nanLater(void *, double t, const double *x, double *dxdt) {
  dxdt[0] = -x[0];
  dxdt[1] = t >= 0.45 ? NaN : -x[1];
  return 0;
}

int nanAlways(void *, double, const double *, double *dxdt) {
  dxdt[0] = NaN;
  return 0;
}

int blowUp(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[0] * x[0];
  return 0;
}

/// Fails with a model-specific code once t passes 0.3.
int failsLater(void *, double t, const double *x, double *dxdt) {
  if (t > 0.3)
    return 1007;
  dxdt[0] = -x[0];
  return 0;
}

int decay(void *, double, const double *x, double *dxdt) {
  dxdt[0] = -x[0];
  return 0;
}

int noState(void *, double, const double *, double *) { return 0; }

struct StopAfter {
  int remaining;
  static int callback(void *user, double, const double *) {
    auto *self = static_cast<StopAfter *>(user);
    return --self->remaining <= 0 ? 1 : 0;
  }
};

} // namespace

TEST(Failure, NonFiniteDerivativeInDopri5) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
  double x[2] = {1.0, 1.0};
  eqc_stats stats;
  ASSERT_EQ(
      eqc_integrate(2, nanLater, nullptr, x, &opt, nullptr, nullptr, &stats),
      EQC_ERR_NONFINITE);
  EXPECT_EQ(stats.failed_component, 1);
  EXPECT_LT(stats.t_reached, 0.45);
  EXPECT_GT(stats.t_reached, 0.45 - 1e-6);
  EXPECT_GT(stats.rejected, 0);
  // x is the accepted state at t_reached.
  EXPECT_NEAR(x[0], std::exp(-stats.t_reached), 1e-5);
  EXPECT_NEAR(x[1], std::exp(-stats.t_reached), 1e-5);
}

TEST(Failure, NonFiniteStateInFixedStep) {
  eqc_options opt = makeOptions(EQC_METHOD_RK4, 0.0, 1.0);
  opt.dt = 0.1;
  double x[2] = {1.0, 1.0};
  eqc_stats stats;
  ASSERT_EQ(
      eqc_integrate(2, nanLater, nullptr, x, &opt, nullptr, nullptr, &stats),
      EQC_ERR_NONFINITE);
  EXPECT_EQ(stats.failed_component, 1);
  // The step from 0.4 evaluates f at 0.45.
  EXPECT_NEAR(stats.t_reached, 0.4, 1e-15);
  EXPECT_EQ(stats.steps, 4);
  EXPECT_TRUE(std::isfinite(x[1]));
}

TEST(Failure, NonFiniteAtStart) {
  for (eqc_method method : {EQC_METHOD_EULER, EQC_METHOD_DOPRI5}) {
    eqc_options opt = makeOptions(method, 0.0, 1.0);
    double x = 1.0;
    eqc_stats stats;
    EXPECT_EQ(eqc_integrate(1, nanAlways, nullptr, &x, &opt, nullptr, nullptr,
                            &stats),
              EQC_ERR_NONFINITE);
    EXPECT_EQ(stats.failed_component, 0);
    EXPECT_EQ(stats.t_reached, 0.0);
    EXPECT_EQ(x, 1.0);
  }
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
  double x[2] = {1.0, NaN};
  eqc_stats stats;
  EXPECT_EQ(eqc_integrate(2, decay, nullptr, x, &opt, nullptr, nullptr, &stats),
            EQC_ERR_NONFINITE);
  EXPECT_EQ(stats.failed_component, 1);
}

TEST(Failure, FiniteTimeBlowUp) {
  // x' = x^2, x(0) = 1 has the solution 1 / (1 - t), which ends at t = 1.
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 2.0);
  double x = 1.0;
  eqc_stats stats;
  int status =
      eqc_integrate(1, blowUp, nullptr, &x, &opt, nullptr, nullptr, &stats);
  EXPECT_TRUE(status == EQC_ERR_STEP_UNDERFLOW || status == EQC_ERR_NONFINITE)
      << eqc_status_message(status);
  // The numerical solution's pole is displaced by the (rtol-sized) error, so it
  // may lie on either side of t = 1.
  EXPECT_NEAR(stats.t_reached, 1.0, 1e-3);
  EXPECT_TRUE(std::isfinite(x));
  EXPECT_GT(x, 1e3);
}

TEST(Failure, RhsErrorCode) {
  for (eqc_method method : {EQC_METHOD_HEUN, EQC_METHOD_DOPRI5}) {
    eqc_options opt = makeOptions(method, 0.0, 1.0);
    opt.dt = 0.1;
    double x = 1.0;
    eqc_stats stats;
    ASSERT_EQ(eqc_integrate(1, failsLater, nullptr, &x, &opt, nullptr, nullptr,
                            &stats),
              EQC_ERR_RHS);
    EXPECT_EQ(stats.rhs_code, 1007);
    EXPECT_LE(stats.t_reached, 0.3);
    EXPECT_NEAR(x, std::exp(-stats.t_reached), 1e-2);
  }
}

TEST(Failure, OutputCallbackStops) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
  double x = 1.0;
  eqc_stats stats;
  StopAfter stop{1};
  ASSERT_EQ(eqc_integrate(1, decay, nullptr, &x, &opt, StopAfter::callback,
                          &stop, &stats),
            EQC_ERR_STOPPED);
  EXPECT_EQ(stats.outputs, 1);
  EXPECT_EQ(stats.t_reached, 0.0);
  EXPECT_EQ(stats.steps, 0);

  opt = makeOptions(EQC_METHOD_EULER, 0.0, 1.0);
  opt.dt = 0.1;
  x = 1.0;
  stop.remaining = 3; // t = 0, 0.1, then stop at 0.2
  ASSERT_EQ(eqc_integrate(1, decay, nullptr, &x, &opt, StopAfter::callback,
                          &stop, &stats),
            EQC_ERR_STOPPED);
  EXPECT_EQ(stats.outputs, 3);
  EXPECT_NEAR(stats.t_reached, 0.2, 1e-15);
  EXPECT_NEAR(x, 0.81, 1e-15);
}

TEST(Failure, MaxSteps) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 100.0);
  opt.max_steps = 5;
  double x = 1.0;
  eqc_stats stats;
  ASSERT_EQ(
      eqc_integrate(1, decay, nullptr, &x, &opt, nullptr, nullptr, &stats),
      EQC_ERR_MAX_STEPS);
  EXPECT_EQ(stats.steps + stats.rejected, 5);
  EXPECT_LT(stats.t_reached, 100.0);

  opt = makeOptions(EQC_METHOD_EULER, 0.0, 1.0);
  opt.dt = 0.01;
  opt.max_steps = 7;
  x = 1.0;
  ASSERT_EQ(
      eqc_integrate(1, decay, nullptr, &x, &opt, nullptr, nullptr, &stats),
      EQC_ERR_MAX_STEPS);
  EXPECT_EQ(stats.steps, 7);
  EXPECT_NEAR(stats.t_reached, 0.07, 1e-15);
}

TEST(Failure, InvalidArguments) {
  auto check = [](void (*mutate)(eqc_options &), eqc_method method) {
    eqc_options opt = makeOptions(method, 0.0, 1.0);
    mutate(opt);
    double x = 1.0;
    eqc_stats stats;
    return eqc_integrate(1, decay, nullptr, &x, &opt, nullptr, nullptr, &stats);
  };
  const eqc_method dopri = EQC_METHOD_DOPRI5, euler = EQC_METHOD_EULER;
  EXPECT_EQ(check([](eqc_options &o) { o.t_end = o.t_start; }, dopri),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.t_end = -1; }, euler),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.t_end = NaN; }, dopri),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.t_start = -INFINITY; }, dopri),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.dt = 0; }, euler), EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.dt = NaN; }, euler), EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.rtol = 0; }, dopri), EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.atol = -1; }, dopri),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.interval = -0.1; }, dopri),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.interval = NaN; }, euler),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.h_init = -1; }, dopri),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.h_max = INFINITY; }, dopri),
            EQC_ERR_ARGUMENT);
  EXPECT_EQ(check([](eqc_options &o) { o.max_steps = -1; }, dopri),
            EQC_ERR_ARGUMENT);
  // What a C caller can store in the enum field (a C++ cast to eqc_method would
  // be undefined).
  EXPECT_EQ(check(
                [](eqc_options &o) {
                  const int bogus = 17;
                  std::memcpy(&o.method, &bogus, sizeof bogus);
                },
                dopri),
            EQC_ERR_ARGUMENT);
  // Tolerances do not matter to fixed-step methods, nor dt to dopri5.
  EXPECT_EQ(check([](eqc_options &o) { o.rtol = 0; }, euler), EQC_OK);
  EXPECT_EQ(check([](eqc_options &o) { o.dt = 0; }, dopri), EQC_OK);

  eqc_options opt = makeOptions(dopri, 0.0, 1.0);
  double x = 1.0;
  eqc_stats stats;
  EXPECT_EQ(
      eqc_integrate(-1, decay, nullptr, &x, &opt, nullptr, nullptr, &stats),
      EQC_ERR_ARGUMENT);
  EXPECT_EQ(
      eqc_integrate(1, nullptr, nullptr, &x, &opt, nullptr, nullptr, &stats),
      EQC_ERR_ARGUMENT);
  EXPECT_EQ(
      eqc_integrate(1, decay, nullptr, nullptr, &opt, nullptr, nullptr, &stats),
      EQC_ERR_ARGUMENT);
  EXPECT_EQ(
      eqc_integrate(1, decay, nullptr, &x, nullptr, nullptr, nullptr, &stats),
      EQC_ERR_ARGUMENT);
  // Statistics are optional, and an empty state is a valid (if dull) model.
  EXPECT_EQ(
      eqc_integrate(1, decay, nullptr, &x, &opt, nullptr, nullptr, nullptr),
      EQC_OK);
  EXPECT_EQ(eqc_integrate(0, noState, nullptr, nullptr, &opt, nullptr, nullptr,
                          &stats),
            EQC_OK);
  EXPECT_EQ(stats.t_reached, 1.0);
}

TEST(Status, EveryCodeHasItsOwnMessage) {
  const char *unknown = eqc_status_message(99);
  EXPECT_STREQ(unknown, "unknown status");
  EXPECT_STREQ(eqc_status_message(-1), "unknown status");
  for (int code = EQC_OK; code <= EQC_ERR_STOPPED; ++code) {
    EXPECT_STRNE(eqc_status_message(code), unknown) << code;
    for (int other = EQC_OK; other < code; ++other)
      EXPECT_STRNE(eqc_status_message(code), eqc_status_message(other));
  }
}

namespace {

/// x' = 10 (1 - x) from x = 0: x = 1 - exp(-10 t) approaches 1 from below, but trial stages of
/// long steps overshoot it. Past x = 1 the "model" cannot be evaluated (a square root of 1 - x, a
/// block without solution) and says so with EQC_RHS_RETRY, as eqc's generated code does.
struct Domain {
  int failures = 0;
  int code = EQC_RHS_RETRY | 1007;
  static int rhs(void *user, double, const double *x, double *dxdt) {
    auto *self = static_cast<Domain *>(user);
    if (x[0] > 1) {
      ++self->failures;
      return self->code;
    }
    dxdt[0] = 10 * (1 - x[0]);
    return 0;
  }
};

} // namespace

class RetryFailedEvaluation : public ::testing::TestWithParam<eqc_method> {};

TEST_P(RetryFailedEvaluation, RejectsTheTrialStepAndReachesTheEnd) {
  eqc_options opt = makeOptions(GetParam(), 0.0, 5.0);
  opt.rtol = 1e-4;
  opt.atol = 1e-8;
  double x = 0;
  Domain domain;
  eqc_stats stats;
  ASSERT_EQ(eqc_integrate(1, Domain::rhs, &domain, &x, &opt, nullptr, nullptr, &stats), EQC_OK);
  EXPECT_GT(domain.failures, 0) << "no trial point left the domain: the test exercises nothing";
  EXPECT_GE(stats.rejected, domain.failures > 0 ? 1 : 0);
  EXPECT_NEAR(x, 1 - std::exp(-50.0), 1e-6);
}

TEST_P(RetryFailedEvaluation, WithoutTheRetryBitTheFailureStops) {
  eqc_options opt = makeOptions(GetParam(), 0.0, 5.0);
  opt.rtol = 1e-4;
  opt.atol = 1e-8;
  double x = 0;
  Domain domain;
  domain.code = 1007;
  eqc_stats stats;
  EXPECT_EQ(eqc_integrate(1, Domain::rhs, &domain, &x, &opt, nullptr, nullptr, &stats), EQC_ERR_RHS);
  EXPECT_EQ(stats.rhs_code, 1007);
}

INSTANTIATE_TEST_SUITE_P(VariableStep, RetryFailedEvaluation,
                         ::testing::Values(EQC_METHOD_DOPRI5, EQC_METHOD_DOP853, EQC_METHOD_RADAU5, EQC_METHOD_AUTO));

TEST(Failure, RetriedFailureEverywhereStopsAtTheSmallestStepWithItsCode) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
  double x = 1;
  eqc_stats stats;
  // From t = 0.3 on the model cannot be evaluated anywhere: repeated rejection, then EQC_ERR_RHS.
  auto always = [](void *, double t, const double *y, double *dxdt) -> int {
    if (t > 0.3)
      return EQC_RHS_RETRY | 1007;
    dxdt[0] = -y[0];
    return 0;
  };
  EXPECT_EQ(eqc_integrate(1, always, nullptr, &x, &opt, nullptr, nullptr, &stats), EQC_ERR_RHS);
  EXPECT_EQ(stats.rhs_code, EQC_RHS_RETRY | 1007);
  EXPECT_NEAR(stats.t_reached, 0.3, 1e-9);
  EXPECT_GT(stats.rejected, 10);
}
