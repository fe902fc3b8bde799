// Tests of auto (dopri5 with stiffness detection, then radau5): no switch and
// identical results on a non-stiff problem; an early switch and the published
// references (Test Set for IVP Solvers, Mazzia & Magherini, Bari) on ROBER and
// VDPOL; outputs and hook calls across the switch.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

using eqc::test::makeOptions;
using eqc::test::Recorder;
using eqc::test::oscillator;
using eqc::test::rober;
using eqc::test::roberJacobian;
using eqc::test::RoberReference;
using eqc::test::vanDerPol;
using eqc::test::vanDerPolJacobian;
using eqc::test::VdpReference;

namespace {



/// Counts hook calls and checks that they come in increasing time.
struct HookLog {
  long calls = 0;
  double lastTime = -INFINITY;
  bool ordered = true;
  static int hook(void *user, double t, double *) {
    auto *self = static_cast<HookLog *>(user);
    ++self->calls;
    self->ordered = self->ordered && t > self->lastTime;
    self->lastTime = t;
    return 0;
  }
};

struct AutoRun {
  int status;
  eqc_stats stats;
  Recorder rec;
  std::vector<double> x;
};

AutoRun integrate(int n, eqc_rhs_fn f, eqc_jac_fn jac, std::vector<double> x0, const eqc_options &opt,
                  HookLog *hook = nullptr) {
  AutoRun run;
  run.rec.n = n;
  run.x = std::move(x0);
  run.status = eqc_integrate_ex(n, f, nullptr, jac, nullptr, run.x.data(), &opt, Recorder::record, &run.rec,
                                hook ? HookLog::hook : nullptr, hook, &run.stats);
  return run;
}

double relativeError(double value, double reference) {
  return std::fabs(value - reference) / std::fabs(reference);
}

/// Accepted dopri5 steps before the switch, from the outputs of an interval-0 run.
long stepsBeforeSwitch(const AutoRun &run) {
  long count = 0;
  for (double t : run.rec.times)
    count += t > 0.0 && t <= run.stats.switch_time;
  return count;
}

/// Outputs strictly increasing from t_start to t_end.
void expectStrictlyIncreasing(const Recorder &rec, double tStart, double tEnd) {
  ASSERT_FALSE(rec.times.empty());
  EXPECT_EQ(rec.times.front(), tStart);
  EXPECT_EQ(rec.times.back(), tEnd);
  for (size_t i = 1; i < rec.times.size(); ++i)
    EXPECT_LT(rec.times[i - 1], rec.times[i]) << "output " << i;
}

TEST(Auto, NonStiffMatchesDopri5Bitwise) {
  for (double interval : {0.0, 0.25}) {
    eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 20.0);
    opt.interval = interval;
    AutoRun reference = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt);
    opt.method = EQC_METHOD_AUTO;
    AutoRun autoRun = integrate(2, oscillator, nullptr, {1.0, 0.0}, opt);
    ASSERT_EQ(reference.status, EQC_OK);
    ASSERT_EQ(autoRun.status, EQC_OK);
    EXPECT_EQ(autoRun.stats.method_used, EQC_METHOD_DOPRI5);
    EXPECT_TRUE(std::isnan(autoRun.stats.switch_time));
    EXPECT_EQ(reference.stats.method_used, EQC_METHOD_DOPRI5);
    EXPECT_TRUE(std::isnan(reference.stats.switch_time));
    EXPECT_EQ(autoRun.stats.steps, reference.stats.steps);
    EXPECT_EQ(autoRun.stats.rejected, reference.stats.rejected);
    EXPECT_EQ(autoRun.stats.rhs_evals, reference.stats.rhs_evals);
    EXPECT_EQ(autoRun.x, reference.x); // bitwise: the detector only observes
    EXPECT_EQ(autoRun.rec.times, reference.rec.times);
    EXPECT_EQ(autoRun.rec.states, reference.rec.states);
  }
}

TEST(Auto, RoberSwitchesEarlyAndMeetsReference) {
  for (eqc_jac_fn jac : {roberJacobian, static_cast<eqc_jac_fn>(nullptr)}) {
    eqc_options opt = makeOptions(EQC_METHOD_AUTO, 0.0, 1e11);
    opt.rtol = 1e-6;
    opt.atol = 1e-10;
    HookLog hook;
    AutoRun run = integrate(3, rober, jac, {1.0, 0.0, 0.0}, opt, &hook);
    ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
    std::printf("[ auto     ] ROBER (jac %s): switch at t = %.6g after %ld dopri5 steps, steps %ld, rejected "
                "%ld, rhs %ld, "
                "jac %ld\n",
                jac ? "callback" : "differences", run.stats.switch_time, stepsBeforeSwitch(run),
                run.stats.steps, run.stats.rejected, run.stats.rhs_evals, run.stats.jac_evals);
    EXPECT_EQ(run.stats.method_used, EQC_METHOD_RADAU5);
    EXPECT_GT(run.stats.switch_time, 0.0);
    EXPECT_LT(run.stats.switch_time, 1.0);
    EXPECT_LT(run.stats.steps, 2000);
    EXPECT_EQ(run.stats.t_reached, 1e11);
    EXPECT_GT(run.stats.lu_decompositions, 0);
    EXPECT_EQ(run.stats.jac_evals > 0, jac != nullptr);
    // measured 2.7e-4 on y1 and y2: absolute errors of 5.6e-12 and 2.2e-17, far inside atol = 1e-10
    // (y1 ~ 2e-8 is resolved to about atol / y1 = 5e-3 relative).
    for (int i = 0; i < 3; ++i)
      EXPECT_LT(relativeError(run.x[i], RoberReference[i]), i < 2 ? 1e-3 : 1e-8) << "component " << i;
    // interval 0: t_start and every accepted step of both phases, once each.
    expectStrictlyIncreasing(run.rec, 0.0, 1e11);
    EXPECT_EQ(run.stats.outputs, run.stats.steps + 1);
    EXPECT_EQ(hook.calls, run.stats.steps);
    EXPECT_EQ(run.stats.hook_calls, run.stats.steps);
    EXPECT_TRUE(hook.ordered);
  }
}

TEST(Auto, VanDerPolSwitchesAndMeetsReference) {
  eqc_options opt = makeOptions(EQC_METHOD_AUTO, 0.0, 2.0);
  opt.rtol = 1e-6;
  opt.atol = 1e-6;
  AutoRun run = integrate(2, vanDerPol, vanDerPolJacobian, {2.0, 0.0}, opt);
  ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
  std::printf(
      "[ auto     ] VDPOL: switch at t = %.6g after %ld dopri5 steps, steps %ld, rejected %ld, rhs %ld, "
      "jac %ld\n",
      run.stats.switch_time, stepsBeforeSwitch(run), run.stats.steps, run.stats.rejected, run.stats.rhs_evals,
      run.stats.jac_evals);
  EXPECT_EQ(run.stats.method_used, EQC_METHOD_RADAU5);
  EXPECT_GT(run.stats.switch_time, 0.0);
  EXPECT_LT(run.stats.switch_time, 2.0);
  for (int i = 0; i < 2; ++i)
    EXPECT_LT(relativeError(run.x[i], VdpReference[i]), 1e-4) << "component " << i;
  expectStrictlyIncreasing(run.rec, 0.0, 2.0);
}

TEST(Auto, OutputGridContinuesAcrossSwitch) {
  eqc_options opt = makeOptions(EQC_METHOD_AUTO, 0.0, 2.0);
  opt.rtol = 1e-6;
  opt.atol = 1e-6;
  opt.interval = 0.01;
  AutoRun run = integrate(2, vanDerPol, vanDerPolJacobian, {2.0, 0.0}, opt);
  ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
  ASSERT_EQ(run.stats.method_used, EQC_METHOD_RADAU5);
  // Exactly t_start, every k * interval and t_end: none missing, none twice,
  // and the switch time itself only if it were a grid time.
  ASSERT_EQ(run.rec.times.size(), 201u);
  for (size_t k = 0; k < run.rec.times.size(); ++k)
    EXPECT_NEAR(run.rec.times[k], 0.01 * static_cast<double>(k), 1e-12) << "output " << k;
  expectStrictlyIncreasing(run.rec, 0.0, 2.0);
  EXPECT_EQ(run.stats.outputs, 201);
  for (int i = 0; i < 2; ++i)
    EXPECT_LT(relativeError(run.x[i], VdpReference[i]), 1e-4) << "component " << i;
}

TEST(Auto, StepLimitCountsBothPhases) {
  eqc_options opt = makeOptions(EQC_METHOD_AUTO, 0.0, 1e11);
  opt.rtol = 1e-6;
  opt.atol = 1e-10;
  AutoRun full = integrate(3, rober, roberJacobian, {1.0, 0.0, 0.0}, opt);
  ASSERT_EQ(full.status, EQC_OK);
  opt.max_steps = full.stats.steps + full.stats.rejected - 1;
  AutoRun limited = integrate(3, rober, roberJacobian, {1.0, 0.0, 0.0}, opt);
  EXPECT_EQ(limited.status, EQC_ERR_MAX_STEPS);
  EXPECT_EQ(limited.stats.steps + limited.stats.rejected, opt.max_steps);
  EXPECT_EQ(limited.stats.method_used, EQC_METHOD_RADAU5);
}

TEST(Auto, InvalidOptionsRejected) {
  eqc_options opt = makeOptions(EQC_METHOD_AUTO, 0.0, 1.0);
  opt.rtol = 0.0;
  double x[2] = {1.0, 0.0};
  eqc_stats stats;
  EXPECT_EQ(eqc_integrate(2, oscillator, nullptr, x, &opt, nullptr, nullptr, &stats), EQC_ERR_ARGUMENT);
  EXPECT_EQ(stats.method_used, -1);
  EXPECT_TRUE(std::isnan(stats.switch_time));
}

} // namespace
