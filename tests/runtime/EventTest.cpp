// Tests of state events (eqc_integrate_events): the root finder on its own, the bouncing ball's
// analytic bounce times with every method, left and right limit rows, simultaneous crossings,
// condition-only events, a stiff problem through radau5 and auto, chattering at a Zeno point,
// termination and failures, the output grid across events, a projection hook, and the
// bit-identical path without events.
#include "Events.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

using eqc::test::makeOptions;
using eqc::test::oscillator;
using eqc::test::Recorder;

namespace {

constexpr double Pi = 3.14159265358979323846;

// ---------------------------------------------------------------------------
// The root finder on analytic indicators.

/// Runs locateCrossing on [tl, tr] for indicators z(k, t).
eqc::rt::CrossingResult locate(int nz, const int *conditions, double (*z)(int, double), double tl, double tr,
                               std::vector<double> &zr, int &status, const unsigned char *flags = nullptr) {
  std::vector<double> zl(nz), zMid(nz);
  zr.assign(nz, 0.0);
  for (int k = 0; k < nz; ++k) {
    zl[k] = z(k, tl);
    zr[k] = z(k, tr);
  }
  auto indicators = [&](double t, double *out) {
    for (int k = 0; k < nz; ++k)
      out[k] = z(k, t);
    return EQC_OK;
  };
  eqc::rt::CrossingResult result;
  status = eqc::rt::locateCrossing(nz, {conditions, nullptr, flags}, tl, zl.data(), tr, zr.data(), indicators,
                                   zMid.data(), result);
  return result;
}

double mixedIndicators(int k, double t) {
  switch (k) {
  case 0:
    return t - 0.3;                 // rises through 0 at 0.3: condition 0 changes there
  case 1:
    return std::cos(5.0 * t);       // falls at pi/10 and rises at 3 pi/10: back by t = 1
  default:
    return std::pow(t - 0.7, 3.0);  // a flat root at 0.7, later than 0.3
  }
}

TEST(EventRootFinder, FindsTheEarliestChangeToAFewUlps) {
  const int conditions[3] = {0, 1, 0};
  std::vector<double> zr;
  int status;
  auto result = locate(3, conditions, mixedIndicators, 0.0, 1.0, zr, status);
  ASSERT_EQ(status, EQC_OK);
  std::printf("[ events   ] root finder: t - 0.3 among three indicators: %d iterations, error %.2g\n",
              result.iterations, result.time - 0.3);
  EXPECT_GT(result.time, 0.3);
  EXPECT_LE(result.time - 0.3, 4 * DBL_EPSILON);
  EXPECT_GT(zr[0], 0.0);  // changed at the returned time
  EXPECT_LT(zr[2], 0.0);  // the flat root is later
  EXPECT_LE(result.iterations, 6); // measured 2
}

TEST(EventRootFinder, ConvergesOnAFlatRoot) {
  const int conditions[1] = {0};
  std::vector<double> zr;
  int status;
  auto cubic = [](int, double t) { return std::pow(t - 0.7, 3.0); };
  auto result = locate(1, conditions, cubic, 0.0, 1.0, zr, status);
  ASSERT_EQ(status, EQC_OK);
  std::printf("[ events   ] root finder: (t - 0.7)^3: %d iterations, error %.2g\n", result.iterations,
              result.time - 0.7);
  EXPECT_GT(result.time, 0.7);
  EXPECT_LE(result.time - 0.7, 4 * DBL_EPSILON);
  // Regula falsi converges linearly on a triple root; the bisection safeguard keeps it within the
  // iteration cap (measured 147).
  EXPECT_LE(result.iterations, 170);
}

TEST(EventRootFinder, SimultaneousRootsChangeTogether) {
  const int conditions[2] = {0, 0};
  std::vector<double> zr;
  int status;
  auto twins = [](int k, double t) { return k == 0 ? t - 0.5 : 2.0 * t - 1.0; };
  auto result = locate(2, conditions, twins, 0.0, 1.0, zr, status);
  ASSERT_EQ(status, EQC_OK);
  EXPECT_LE(result.time - 0.5, 4 * DBL_EPSILON);
  EXPECT_GT(zr[0], 0.0);
  EXPECT_GT(zr[1], 0.0);
}

TEST(EventRootFinder, BisectsWhenTheLeftEndDisagreesWithItsCondition) {
  // As right after a bounce: z slightly below 0 at tl although the condition says z > 0; it
  // rises, then falls through 0 at 0.6.
  const int conditions[1] = {1};
  std::vector<double> zr;
  int status;
  auto arch = [](int, double t) { return -(t - 0.001) * (t - 0.6); };
  auto result = locate(1, conditions, arch, 0.0, 1.0, zr, status);
  ASSERT_EQ(status, EQC_OK);
  EXPECT_GE(result.time, 0.6);
  EXPECT_LE(result.time - 0.6, 4 * DBL_EPSILON);
}

// An indicator held on its boundary (kIndicatorOnBoundary: a friction element slipping at its
// limit while another one holds the load, sa - tau0_max = 0 exactly) keeps its condition while
// it is exactly zero: the change is where it leaves zero on the other side, at 0.5. Without the
// flag, z = 0 already disagrees with the condition at the left end, and the change is there.
TEST(EventRootFinder, AnIndicatorHeldOnItsBoundaryChangesWhereItLeavesZero) {
  const int conditions[1] = {1};
  const unsigned char onBoundary[1] = {eqc::rt::kIndicatorOnBoundary};
  auto leaves = [](int, double t) { return t < 0.5 ? 0.0 : 0.5 - t; };
  std::vector<double> zr;
  int status;
  auto held = locate(1, conditions, leaves, 0.0, 1.0, zr, status, onBoundary);
  ASSERT_EQ(status, EQC_OK);
  EXPECT_GE(held.time, 0.5);
  EXPECT_LE(held.time - 0.5, 4 * DBL_EPSILON);
  auto strict = locate(1, conditions, leaves, 0.0, 1.0, zr, status);
  ASSERT_EQ(status, EQC_OK);
  EXPECT_LT(strict.time, 1e-12);
}

// While an event of other indicators is located, a relaxed one (kIndicatorRelaxed: its changes are
// taken at step ends) counts as unchanged: the event is where the other one changes (0.7), not
// where the relaxed one did (0.2), which would make it a located event of the relaxed indicator.
TEST(EventRootFinder, RelaxedIndicatorsDoNotPlaceTheEventsOfOthers) {
  const int conditions[2] = {0, 0};
  const unsigned char relaxed[2] = {eqc::rt::kIndicatorRelaxed, 0};
  auto two = [](int k, double t) { return k == 0 ? t - 0.2 : t - 0.7; };
  std::vector<double> zl(2), zr(2), zMid(2);
  for (int k = 0; k < 2; ++k) {
    zl[k] = two(k, 0.0);
    zr[k] = two(k, 1.0);
  }
  auto indicators = [&](double t, double *out) {
    for (int k = 0; k < 2; ++k)
      out[k] = two(k, t);
    return EQC_OK;
  };
  eqc::rt::HeldConditions held{conditions, nullptr, relaxed};
  held.skipRelaxed = true;
  eqc::rt::CrossingResult result;
  ASSERT_EQ(eqc::rt::locateCrossing(2, held, 0.0, zl.data(), 1.0, zr.data(), indicators, zMid.data(), result),
            EQC_OK);
  EXPECT_GE(result.time, 0.7);
  EXPECT_LE(result.time - 0.7, 4 * DBL_EPSILON);
}

TEST(EventRootFinder, StepFunctionAndIterationCap) {
  const int conditions[1] = {1};
  std::vector<double> zr;
  int status;
  auto step = [](int, double t) { return t < 0.4 ? 1.0 : -1.0; };
  auto result = locate(1, conditions, step, 0.0, 1.0, zr, status);
  ASSERT_EQ(status, EQC_OK);
  EXPECT_GE(result.time, 0.4);
  EXPECT_LE(result.time - 0.4, 4 * DBL_EPSILON);
  EXPECT_LE(result.iterations, eqc::rt::MaxRootIterations);
}

TEST(EventRootFinder, ReportsAFailingIndicator) {
  const int conditions[1] = {0};
  std::vector<double> zl = {-1.0}, zr = {1.0}, zMid(1);
  auto failing = [](double, double *) { return EQC_ERR_RHS; };
  eqc::rt::CrossingResult result;
  const int status = eqc::rt::locateCrossing(1, {conditions, nullptr, nullptr}, 0.0, zl.data(), 1.0,
                                             zr.data(), failing, zMid.data(), result);
  EXPECT_EQ(status, EQC_ERR_RHS);
}

// ---------------------------------------------------------------------------
// The bouncing ball: h' = v, v' = -g, z = h with the condition "h > 0", bounce v := -e v.

constexpr double Gravity = 9.81;
constexpr double DropHeight = 1.0;

int fallingBall(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[1];
  dxdt[1] = -Gravity;
  return 0;
}

struct Ball {
  double restitution = 0.8;
  std::vector<double> bounceTimes, speedsBefore;
  long zcCalls = 0;
  int terminateAt = -1; ///< bounce index at which to return EQC_EVENT_TERMINATE
  int failWith = 0;     ///< a non-zero code to return from the first bounce
  bool throwInHandle = false;

  static int height(void *user, double, const double *x, double *z) {
    ++static_cast<Ball *>(user)->zcCalls;
    z[0] = x[0];
    return 0;
  }
  static int bounce(void *user, double t, double *x, const int *crossed, int *conditions) {
    auto *self = static_cast<Ball *>(user);
    if (self->throwInHandle)
      throw std::runtime_error("handler failure");
    if (self->failWith)
      return self->failWith;
    if (!crossed[0])
      return 99;
    self->bounceTimes.push_back(t);
    self->speedsBefore.push_back(x[1]);
    x[1] = -self->restitution * x[1];
    conditions[0] = 1; // h > 0 holds again right after the bounce
    return static_cast<int>(self->bounceTimes.size()) - 1 == self->terminateAt ? EQC_EVENT_TERMINATE : 0;
  }
};

/// The first `count` bounce times: t1 = sqrt(2 h0 / g), and after bounce k (speed e^k v1, v1 = g t1) a
/// flight of 2 e^k v1 / g.
std::vector<double> analyticBounces(double e, int count) {
  std::vector<double> times;
  const double t1 = std::sqrt(2.0 * DropHeight / Gravity), v1 = Gravity * t1;
  double t = t1, speed = v1;
  for (int k = 0; k < count; ++k) {
    times.push_back(t);
    speed *= e;
    t += 2.0 * speed / Gravity;
  }
  return times;
}

struct EventRun {
  int status = -1;
  eqc_stats stats{};
  Recorder rec;
  std::vector<double> x;
};

EventRun runEvents(int n, eqc_rhs_fn f, std::vector<double> x0, const eqc_options &opt, eqc_events *events,
                   eqc_step_fn hook = nullptr, void *hookUser = nullptr, const eqc_jacobian *jac = nullptr) {
  EventRun run;
  run.rec.n = n;
  run.x = std::move(x0);
  run.status = eqc_integrate_events(n, f, nullptr, jac, run.x.data(), &opt, Recorder::record, &run.rec, hook,
                                    hookUser, events, &run.stats);
  return run;
}

eqc_events ballEvents(Ball &ball, int *conditions) {
  eqc_events events{};
  events.nz = 1;
  events.zc = Ball::height;
  events.handle = Ball::bounce;
  events.user = &ball;
  events.conditions = conditions;
  return events;
}

struct BallCase {
  const char *name;
  eqc_method method;
  double dt;         ///< fixed-step methods
  double tolerance;  ///< on each of the first 10 bounce times, absolute
};

class BouncingBall : public testing::TestWithParam<BallCase> {};

TEST_P(BouncingBall, FirstTenBounceTimes) {
  const BallCase &c = GetParam();
  eqc_options opt = makeOptions(c.method, 0.0, 4.0);
  opt.rtol = 1e-10;
  opt.atol = 1e-10;
  opt.dt = c.dt;
  Ball ball;
  int conditions[1] = {1};
  eqc_events events = ballEvents(ball, conditions);
  EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
  ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
  const std::vector<double> expected = analyticBounces(0.8, 10);
  ASSERT_GE(ball.bounceTimes.size(), expected.size());
  double worst = 0.0;
  for (size_t k = 0; k < expected.size(); ++k) {
    worst = std::max(worst, std::fabs(ball.bounceTimes[k] - expected[k]));
    EXPECT_NEAR(ball.bounceTimes[k], expected[k], c.tolerance) << "bounce " << k + 1;
  }
  const long handled = run.stats.events;
  std::printf("[ events   ] ball %-7s: %ld bounces, worst error of the first 10 %.2g, steps %ld, rhs %ld, "
              "zc per event beyond one per step %.1f\n",
              c.name, handled, worst, run.stats.steps, run.stats.rhs_evals,
              static_cast<double>(ball.zcCalls - run.stats.steps) / static_cast<double>(handled));
  EXPECT_EQ(run.stats.events, static_cast<long>(ball.bounceTimes.size()));
  EXPECT_EQ(run.stats.t_event, ball.bounceTimes.back());
  // Root location costs no f on dopri5's dense output: 6 per attempted step, and f(t0) and the
  // first-step heuristic's one per segment. rk4 pays one f per event (at the end of the cut step)
  // for its Hermite interpolant: 4 per step otherwise.
  if (c.method == EQC_METHOD_DOPRI5) {
    EXPECT_EQ(run.stats.rhs_evals, 6 * (run.stats.steps + run.stats.rejected) + 2 * (handled + 1));
  }
  if (c.method == EQC_METHOD_RK4) {
    EXPECT_EQ(run.stats.rhs_evals, 4 * run.stats.steps + handled);
  }
  EXPECT_EQ(run.stats.event_indicator, 0);
  EXPECT_EQ(run.stats.t_reached, 4.0);
}

// The ball's height is a quadratic in t: dopri5, dop853, radau5, rk4 and heun integrate it
// exactly and their dense outputs (the Hermite cubic for rk4 and heun) reproduce it, so only
// rounding remains (measured 3.6e-15 to 7.1e-15; dop853's dense-output coefficients 1.2e-13).
// Euler and backward Euler are first order in the height (measured 5.0e-3 with dt = 1e-4 by the
// 10th bounce: the error of each flight adds up).
INSTANTIATE_TEST_SUITE_P(Methods, BouncingBall,
                         testing::Values(BallCase{"dopri5", EQC_METHOD_DOPRI5, 0, 1e-13},
                                         BallCase{"dop853", EQC_METHOD_DOP853, 0, 1e-12},
                                         BallCase{"radau5", EQC_METHOD_RADAU5, 0, 1e-10},
                                         BallCase{"auto", EQC_METHOD_AUTO, 0, 1e-13},
                                         BallCase{"rk4", EQC_METHOD_RK4, 1e-3, 1e-13},
                                         BallCase{"heun", EQC_METHOD_HEUN, 1e-3, 1e-13},
                                         BallCase{"euler", EQC_METHOD_EULER, 1e-4, 1e-2},
                                         BallCase{"beuler", EQC_METHOD_BEULER, 1e-4, 1e-2}),
                         [](const testing::TestParamInfo<BallCase> &info) { return info.param.name; });

TEST(Events, LeftAndRightLimitRows) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 2.0);
  opt.interval = 0.1;
  Ball ball;
  int conditions[1] = {1};
  eqc_events events = ballEvents(ball, conditions);
  EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
  ASSERT_EQ(run.status, EQC_OK);
  ASSERT_EQ(ball.bounceTimes.size(), 3u); // at 0.45, 1.17 and 1.75
  size_t found = 0;
  for (size_t i = 0; i + 1 < run.rec.times.size(); ++i) {
    if (run.rec.times[i] != run.rec.times[i + 1])
      continue;
    ASSERT_LT(found, ball.bounceTimes.size());
    EXPECT_EQ(run.rec.times[i], ball.bounceTimes[found]);
    EXPECT_LT(run.rec.states[i][1], 0.0);     // left limit: falling
    EXPECT_GT(run.rec.states[i + 1][1], 0.0); // right limit: rising
    EXPECT_EQ(run.rec.states[i + 1][1], -0.8 * run.rec.states[i][1]);
    EXPECT_EQ(run.rec.states[i][1], ball.speedsBefore[found]);
    EXPECT_NEAR(run.rec.states[i][0], 0.0, 1e-14);
    ++found;
  }
  EXPECT_EQ(found, ball.bounceTimes.size());
}

TEST(Events, OutputGridContinuesAcrossEvents) {
  struct GridCase {
    eqc_method method;
    double interval, dt;
  };
  for (GridCase c : {GridCase{EQC_METHOD_DOPRI5, 0.05, 0}, GridCase{EQC_METHOD_DOP853, 0.05, 0},
                     GridCase{EQC_METHOD_RADAU5, 0.05, 0}, GridCase{EQC_METHOD_AUTO, 0.05, 0},
                     GridCase{EQC_METHOD_RK4, 0.05, 1e-3}}) {
    eqc_options opt = makeOptions(c.method, 0.0, 4.0);
    opt.interval = c.interval;
    if (c.dt > 0)
      opt.dt = c.dt;
    Ball ball;
    int conditions[1] = {1};
    eqc_events events = ballEvents(ball, conditions);
    EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
    ASSERT_EQ(run.status, EQC_OK);
    ASSERT_GT(ball.bounceTimes.size(), 5u);
    // Expected: every grid time once (variable step: k * interval; fixed step: every 50th step end,
    // k * 50 * dt), and every event time twice, in order.
    std::vector<double> expected;
    size_t nextEvent = 0;
    for (long k = 0; k <= 80; ++k) {
      const double tGrid =
          c.dt > 0 ? static_cast<double>(50 * k) * c.dt : static_cast<double>(k) * c.interval;
      for (; nextEvent < ball.bounceTimes.size() && ball.bounceTimes[nextEvent] <= tGrid; ++nextEvent) {
        expected.push_back(ball.bounceTimes[nextEvent]);
        expected.push_back(ball.bounceTimes[nextEvent]);
      }
      if (expected.empty() || expected.back() != tGrid)
        expected.push_back(tGrid);
    }
    EXPECT_EQ(run.rec.times, expected) << "method " << c.method;
  }
}

// ---------------------------------------------------------------------------
// Several indicators at one time; condition-only events.

struct Twins {
  std::vector<std::vector<int>> crossed;
  std::vector<double> times;
  static int zc(void *, double, const double *x, double *z) {
    z[0] = x[0] - 1.0;
    z[1] = 2.0 * x[0] - 2.0;
    return 0;
  }
  static int handle(void *user, double t, double *, const int *crossed, int *conditions) {
    auto *self = static_cast<Twins *>(user);
    self->crossed.push_back({crossed[0], crossed[1]});
    self->times.push_back(t);
    conditions[0] = conditions[1] = 1;
    return 0;
  }
};

int unitSpeed(void *, double, const double *, double *dxdt) {
  dxdt[0] = 1.0;
  return 0;
}

TEST(Events, SimultaneousIndicatorsGiveOneEvent) {
  for (eqc_method method : {EQC_METHOD_DOPRI5, EQC_METHOD_RADAU5, EQC_METHOD_RK4}) {
    eqc_options opt = makeOptions(method, 0.0, 2.0);
    Twins twins;
    int conditions[2] = {0, 0};
    eqc_events events{};
    events.nz = 2;
    events.zc = Twins::zc;
    events.handle = Twins::handle;
    events.user = &twins;
    events.conditions = conditions;
    EventRun run = runEvents(1, unitSpeed, {0.0}, opt, &events);
    ASSERT_EQ(run.status, EQC_OK);
    ASSERT_EQ(twins.times.size(), 1u) << "method " << method;
    EXPECT_EQ(twins.crossed[0], (std::vector<int>{1, 1}));
    EXPECT_NEAR(twins.times[0], 1.0, 1e-14);
    EXPECT_EQ(run.stats.events, 1);
    EXPECT_EQ(run.stats.event_indicator, 0);
    EXPECT_NEAR(run.x[0], 2.0, 1e-13);
  }
}

/// z = sin(t) or z = x0 of the oscillator started at (0, 1) (x0 = sin t); the handler only toggles
/// the condition, as a relation changing back and forth does.
struct Toggle {
  bool onState = false;
  std::vector<double> times;
  static int zc(void *user, double t, const double *x, double *z) {
    z[0] = static_cast<Toggle *>(user)->onState ? x[0] : std::sin(t);
    return 0;
  }
  static int handle(void *user, double t, double *, const int *, int *conditions) {
    static_cast<Toggle *>(user)->times.push_back(t);
    conditions[0] = !conditions[0];
    return 0;
  }
};

double worstToggleError(const Toggle &toggle) {
  double worst = 0.0;
  for (size_t k = 0; k < toggle.times.size(); ++k)
    worst = std::max(worst, std::fabs(toggle.times[k] - static_cast<double>(k + 1) * Pi));
  return worst;
}

TEST(Events, ConditionOnlyEventsAtMultiplesOfPi) {
  for (eqc_method method : {EQC_METHOD_DOPRI5, EQC_METHOD_DOP853, EQC_METHOD_RADAU5, EQC_METHOD_RK4}) {
    eqc_options opt = makeOptions(method, 0.0, 20.0);
    Toggle toggle;
    int conditions[1] = {1}; // sin t > 0 right after 0
    eqc_events events{1, Toggle::zc, Toggle::handle, &toggle, conditions, 0, 0.0};
    EventRun run = runEvents(2, oscillator, {0.0, 1.0}, opt, &events);
    ASSERT_EQ(run.status, EQC_OK);
    ASSERT_EQ(toggle.times.size(), 6u);
    const double worst = worstToggleError(toggle);
    std::printf("[ events   ] sin t toggled, method %d: worst event time error %.2g\n", method, worst);
    EXPECT_LT(worst, 1e-14) << "method " << method; // measured 7.1e-15: 2 ulps at 6 pi
    EXPECT_EQ(conditions[0], 1); // toggled six times
  }
}

// A relation a <= b holds where its indicator b - a is 0 (eqc_events.at_zero): an indicator that
// rests at 0 with its condition 1 changes nothing; without at_zero, z = 0 means "fails", and the
// first step's end is an event.
TEST(Events, ConditionsThatHoldAtZeroRestThere) {
  struct Count {
    int events = 0;
    static int zc(void *, double, const double *x, double *z) {
      z[0] = x[0];
      return 0;
    }
    static int handle(void *user, double t, double *, const int *, int *conditions) {
      ++static_cast<Count *>(user)->events;
      conditions[0] = 0;
      return 0;
    }
  };
  eqc_rhs_fn resting = [](void *, double, const double *, double *dx) {
    dx[0] = 0.0;
    return 0;
  };
  for (bool atZero : {true, false}) {
    eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
    Count count;
    int conditions[1] = {1};
    const unsigned char holds[1] = {1};
    eqc_events events{1, Count::zc, Count::handle, &count, conditions, 0, 0.0, atZero ? holds : nullptr};
    EventRun run = runEvents(1, resting, {0.0}, opt, &events);
    ASSERT_EQ(run.status, EQC_OK);
    EXPECT_EQ(count.events, atZero ? 0 : 1) << "at_zero " << atZero;
  }
}

TEST(Events, EventsOnTheStatesDenseOutput) {
  // x0 = sin t from the oscillator: the event times carry the integration error and that of the
  // dense output; 6 events in [0, 20].
  struct Case {
    eqc_method method;
    double rtol, dt, tolerance;
  };
  // Measured 8.2e-13 (dopri5), 2.9e-13 (dop853), 6.6e-12 (radau5), 1.6e-9 (rk4, dt 1e-2).
  for (Case c : {Case{EQC_METHOD_DOPRI5, 1e-12, 0, 1e-11}, Case{EQC_METHOD_DOP853, 1e-13, 0, 1e-11},
                 Case{EQC_METHOD_RADAU5, 1e-12, 0, 1e-10}, Case{EQC_METHOD_RK4, 0, 1e-2, 1e-8}}) {
    eqc_options opt = makeOptions(c.method, 0.0, 20.0);
    if (c.rtol > 0) {
      opt.rtol = c.rtol;
      opt.atol = c.rtol;
    }
    if (c.dt > 0)
      opt.dt = c.dt;
    Toggle toggle;
    toggle.onState = true;
    int conditions[1] = {1};
    eqc_events events{1, Toggle::zc, Toggle::handle, &toggle, conditions, 0, 0.0};
    EventRun run = runEvents(2, oscillator, {0.0, 1.0}, opt, &events);
    ASSERT_EQ(run.status, EQC_OK);
    ASSERT_EQ(toggle.times.size(), 6u);
    const double worst = worstToggleError(toggle);
    std::printf("[ events   ] sin t on the state, method %d: worst event time error %.2g\n", c.method, worst);
    EXPECT_LT(worst, c.tolerance) << "method " << c.method;
  }
}

// ---------------------------------------------------------------------------
// A stiff problem: x2' = -x2, x1' = -1e4 (x1 - x2); when x1 falls through 0.5, x2 := 1. After
// each reset x1 = A e^-s + (0.5 - A) e^(-1e4 s), A = 1e4 / (1e4 - 1): a stiff transient, then the
// next crossing at s = ln(2 A) (the fast term is e^-6931 there), so t_k = k ln(2 A).

constexpr double StiffRate = 1e4;

int stiffRelaxation(void *, double, const double *x, double *dxdt) {
  dxdt[0] = -StiffRate * (x[0] - x[1]);
  dxdt[1] = -x[1];
  return 0;
}

int stiffRelaxationJacobian(void *, double, const double *, double *jac) {
  jac[0] = -StiffRate, jac[1] = StiffRate;
  jac[2] = 0.0, jac[3] = -1.0;
  return 0;
}

struct Reset {
  std::vector<double> times;
  static int zc(void *, double, const double *x, double *z) {
    z[0] = x[0] - 0.5;
    return 0;
  }
  static int handle(void *user, double t, double *x, const int *, int *conditions) {
    static_cast<Reset *>(user)->times.push_back(t);
    x[1] = 1.0;
    conditions[0] = 1;
    return 0;
  }
};

TEST(Events, StiffResetsThroughRadau5AndAuto) {
  const double period = std::log(2.0 * StiffRate / (StiffRate - 1.0));
  for (eqc_method method : {EQC_METHOD_RADAU5, EQC_METHOD_AUTO}) {
    eqc_options opt = makeOptions(method, 0.0, 3.6);
    opt.rtol = 1e-10;
    opt.atol = 1e-12;
    Reset reset;
    int conditions[1] = {1};
    eqc_events events{1, Reset::zc, Reset::handle, &reset, conditions, 0, 0.0};
    eqc_jacobian jac{};
    jac.dense = stiffRelaxationJacobian;
    EventRun run = runEvents(2, stiffRelaxation, {1.0, 1.0}, opt, &events, nullptr, nullptr, &jac);
    ASSERT_EQ(run.status, EQC_OK) << eqc_status_message(run.status);
    ASSERT_EQ(reset.times.size(), 5u);
    double worst = 0.0;
    for (size_t k = 0; k < reset.times.size(); ++k)
      worst = std::max(worst, std::fabs(reset.times[k] - static_cast<double>(k + 1) * period));
    std::printf("[ events   ] stiff resets, method %d: worst event time error %.2g, steps %ld, rejected %ld, "
                "rhs %ld, switch at %.3g\n",
                method, worst, run.stats.steps, run.stats.rejected, run.stats.rhs_evals,
                run.stats.switch_time);
    // radau5's dense output is of order 3 (measured 2.9e-9 radau5, 1.5e-9 auto; 1.9e-7 at rtol 1e-8).
    EXPECT_LT(worst, 1e-8) << "method " << method;
    EXPECT_EQ(run.stats.method_used, EQC_METHOD_RADAU5);
    EXPECT_LT(run.stats.steps, 1000);
    if (method == EQC_METHOD_AUTO) {
      EXPECT_GT(run.stats.switch_time, 0.0);
      EXPECT_LT(run.stats.switch_time, period); // stiff within the first segment, radau5 after
    }
  }
}

// ---------------------------------------------------------------------------
// Chattering: with e = 0.5 the bounces accumulate at T* = t1 (1 + e) / (1 - e) = 3 t1.

TEST(Events, ZenoBallChatters) {
  for (eqc_method method : {EQC_METHOD_DOPRI5, EQC_METHOD_RADAU5, EQC_METHOD_RK4}) {
    eqc_options opt = makeOptions(method, 0.0, 3.0);
    Ball ball;
    ball.restitution = 0.5;
    int conditions[1] = {1};
    eqc_events events = ballEvents(ball, conditions);
    EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
    const double zeno = 3.0 * std::sqrt(2.0 * DropHeight / Gravity);
    std::printf("[ events   ] Zeno ball, method %d: status %d at t = %.17g (T* - t = %.2g) after %ld events, "
                "%ld steps\n",
                method, run.status, run.stats.t_event, zeno - run.stats.t_event, run.stats.events,
                run.stats.steps);
    ASSERT_EQ(run.status, EQC_ERR_CHATTERING) << "method " << method;
    EXPECT_NEAR(run.stats.t_event, zeno, 1e-9); // measured 6.7e-15 (dopri5) to 2.1e-11 (radau5)
    EXPECT_EQ(run.stats.t_reached, run.stats.t_event);
    EXPECT_EQ(run.stats.event_indicator, 0);
    EXPECT_LT(run.stats.steps, 20000);
    EXPECT_GT(run.stats.events, 100);
    EXPECT_EQ(run.rec.times.back(), run.stats.t_event); // the last row is the unhandled left limit
  }
}

TEST(Events, ChatteringLimitsAreConfigurable) {
  // 3 events within 1 s are too many: the ball's 3rd and 4th bounces are 0.45 s apart.
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 4.0);
  Ball ball;
  int conditions[1] = {1};
  eqc_events events = ballEvents(ball, conditions);
  events.chatter_events = 2;
  events.chatter_window = 1.0;
  EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
  ASSERT_EQ(run.status, EQC_ERR_CHATTERING);
  const std::vector<double> expected = analyticBounces(0.8, 10);
  size_t k = 0;
  while (expected[k + 2] - expected[k] > 1.0)
    ++k;
  EXPECT_EQ(run.stats.events, static_cast<long>(k + 2));
  EXPECT_NEAR(run.stats.t_event, expected[k + 2], 1e-12);
}

// ---------------------------------------------------------------------------
// Termination and failures.

TEST(Events, TerminateEndsSuccessfullyAtTheEvent) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 4.0);
  Ball ball;
  ball.terminateAt = 1;
  int conditions[1] = {1};
  eqc_events events = ballEvents(ball, conditions);
  EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
  ASSERT_EQ(run.status, EQC_OK);
  const std::vector<double> expected = analyticBounces(0.8, 2);
  EXPECT_NEAR(run.stats.t_reached, expected[1], 1e-13);
  EXPECT_EQ(run.stats.t_event, run.stats.t_reached);
  EXPECT_EQ(run.stats.events, 2);
  EXPECT_GT(run.x[1], 0.0); // the right limit, as the handler left it
  EXPECT_EQ(run.rec.times.back(), run.stats.t_reached);
  EXPECT_EQ(run.rec.states.back(), run.x);
}

TEST(Events, FailingHandlerIsAnRhsError) {
  for (bool throws : {false, true}) {
    eqc_options opt = makeOptions(EQC_METHOD_RK4, 0.0, 4.0);
    Ball ball;
    ball.failWith = 42;
    ball.throwInHandle = throws;
    int conditions[1] = {1};
    eqc_events events = ballEvents(ball, conditions);
    EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
    ASSERT_EQ(run.status, EQC_ERR_RHS);
    EXPECT_EQ(run.stats.rhs_code, throws ? -1 : 42);
    EXPECT_NEAR(run.stats.t_reached, analyticBounces(0.8, 1)[0], 1e-12);
    EXPECT_EQ(run.stats.t_event, run.stats.t_reached);
    EXPECT_LT(run.x[1], 0.0); // the left limit
  }
}

struct BadIndicator {
  int mode = 0; ///< 0: fail with 7 after t = 0.2; 1: NaN after t = 0.2; 2: throw after t = 0.2
  static int zc(void *user, double t, const double *x, double *z) {
    const int mode = static_cast<BadIndicator *>(user)->mode;
    z[0] = x[0];
    if (t <= 0.2)
      return 0;
    if (mode == 0)
      return 7;
    if (mode == 2)
      throw std::runtime_error("indicator failure");
    z[0] = NAN;
    return 0;
  }
  static int handle(void *, double, double *, const int *, int *) { return 0; }
};

TEST(Events, FailingOrNonFiniteIndicators) {
  for (int mode : {0, 1, 2}) {
    eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
    opt.h_max = 0.05;
    BadIndicator bad{mode};
    int conditions[1] = {1};
    eqc_events events{1, BadIndicator::zc, BadIndicator::handle, &bad, conditions, 0, 0.0};
    EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
    if (mode == 1) {
      EXPECT_EQ(run.status, EQC_ERR_NONFINITE);
      EXPECT_EQ(run.stats.event_indicator, 0);
      EXPECT_EQ(run.stats.failed_component, -1);
    } else {
      EXPECT_EQ(run.status, EQC_ERR_RHS);
      EXPECT_EQ(run.stats.rhs_code, mode == 0 ? 7 : -1);
    }
    EXPECT_GT(run.stats.t_reached, 0.2);
    EXPECT_LE(run.stats.t_reached, 0.25 + 1e-12);
  }
}

TEST(Events, NonFiniteStateFromTheHandler) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
  int conditions[1] = {1};
  auto handle = [](void *, double, double *x, const int *, int *) {
    x[1] = INFINITY;
    return 0;
  };
  Ball ball;
  eqc_events events = ballEvents(ball, conditions);
  events.handle = handle;
  EventRun run = runEvents(2, fallingBall, {DropHeight, 0.0}, opt, &events);
  EXPECT_EQ(run.status, EQC_ERR_NONFINITE);
  EXPECT_EQ(run.stats.failed_component, 1);
  EXPECT_LT(run.x[1], 0.0); // the left limit again
}

TEST(Events, InvalidEventDescriptions) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 1.0);
  Ball ball;
  int conditions[1] = {1};
  const eqc_events valid = ballEvents(ball, conditions);
  eqc_events events = valid;
  events.nz = -1;
  EXPECT_EQ(runEvents(2, fallingBall, {1.0, 0.0}, opt, &events).status, EQC_ERR_ARGUMENT);
  events = valid;
  events.zc = nullptr;
  EXPECT_EQ(runEvents(2, fallingBall, {1.0, 0.0}, opt, &events).status, EQC_ERR_ARGUMENT);
  events = valid;
  events.handle = nullptr;
  EXPECT_EQ(runEvents(2, fallingBall, {1.0, 0.0}, opt, &events).status, EQC_ERR_ARGUMENT);
  events = valid;
  events.conditions = nullptr;
  EXPECT_EQ(runEvents(2, fallingBall, {1.0, 0.0}, opt, &events).status, EQC_ERR_ARGUMENT);
  events = valid;
  events.chatter_window = -1.0;
  EXPECT_EQ(runEvents(2, fallingBall, {1.0, 0.0}, opt, &events).status, EQC_ERR_ARGUMENT);
  events = valid;
  events.chatter_events = -1;
  EXPECT_EQ(runEvents(2, fallingBall, {1.0, 0.0}, opt, &events).status, EQC_ERR_ARGUMENT);
  EXPECT_NE(std::string(eqc_status_message(EQC_ERR_CHATTERING)).find("chattering"), std::string::npos);
}

// ---------------------------------------------------------------------------
// A projection hook: motion on the unit circle, p' = v, v' = -p, projected after each step; when
// p_y falls through 0 the velocity is reversed, so the point swings on the upper half circle and
// the events are at k pi.

int oscillator4(void *, double, const double *x, double *dxdt) {
  dxdt[0] = x[2], dxdt[1] = x[3];
  dxdt[2] = -x[0], dxdt[3] = -x[1];
  return 0;
}

struct Circle {
  std::vector<double> eventTimes, radiusAtEvent, hookTimes;
  static int hook(void *user, double t, double *x) {
    static_cast<Circle *>(user)->hookTimes.push_back(t);
    const double r = std::hypot(x[0], x[1]);
    x[0] /= r, x[1] /= r;
    const double radial = x[0] * x[2] + x[1] * x[3];
    x[2] -= radial * x[0], x[3] -= radial * x[1];
    return 0;
  }
  static int zc(void *, double, const double *x, double *z) {
    z[0] = x[1];
    return 0;
  }
  static int handle(void *user, double t, double *x, const int *, int *conditions) {
    auto *self = static_cast<Circle *>(user);
    self->eventTimes.push_back(t);
    self->radiusAtEvent.push_back(std::hypot(x[0], x[1]));
    x[2] = -x[2], x[3] = -x[3];
    conditions[0] = 1;
    return 0;
  }
};

TEST(Events, ProjectionHookSeesTheLeftLimitAsAnOutput) {
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 10.0);
  opt.rtol = 1e-10;
  opt.atol = 1e-10;
  Circle circle;
  int conditions[1] = {1};
  eqc_events events{1, Circle::zc, Circle::handle, &circle, conditions, 0, 0.0};
  EventRun run = runEvents(4, oscillator4, {1.0, 0.0, 0.0, 1.0}, opt, &events, Circle::hook, &circle);
  ASSERT_EQ(run.status, EQC_OK);
  ASSERT_EQ(circle.eventTimes.size(), 3u);
  for (size_t k = 0; k < circle.eventTimes.size(); ++k) {
    // The phase error of the integration (measured 1.1e-9 at 3 pi); the projection fixes the radius only.
    EXPECT_NEAR(circle.eventTimes[k], static_cast<double>(k + 1) * Pi, 1e-8);
    EXPECT_NEAR(circle.radiusAtEvent[k], 1.0, 4 * DBL_EPSILON); // projected before the handler
    EXPECT_NE(std::find(circle.hookTimes.begin(), circle.hookTimes.end(), circle.eventTimes[k]),
              circle.hookTimes.end());
  }
  // interval 0: the hook sees every accepted step but the 3 cut at an event, and the 3 left limits.
  EXPECT_EQ(run.stats.hook_calls, run.stats.steps);
  EXPECT_EQ(static_cast<long>(circle.hookTimes.size()), run.stats.hook_calls);
}

// ---------------------------------------------------------------------------
// Without events: exactly eqc_integrate_jac.

void expectSameStats(const eqc_stats &a, const eqc_stats &b) {
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.rejected, b.rejected);
  EXPECT_EQ(a.rhs_evals, b.rhs_evals);
  EXPECT_EQ(a.outputs, b.outputs);
  EXPECT_EQ(std::memcmp(&a.t_reached, &b.t_reached, sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(&a.h_last, &b.h_last, sizeof(double)), 0);
  EXPECT_EQ(a.failed_component, b.failed_component);
  EXPECT_EQ(a.rhs_code, b.rhs_code);
  EXPECT_EQ(a.hook_calls, b.hook_calls);
  EXPECT_EQ(a.jac_evals, b.jac_evals);
  EXPECT_EQ(a.lu_decompositions, b.lu_decompositions);
  EXPECT_EQ(a.newton_iterations, b.newton_iterations);
  EXPECT_EQ(a.method_used, b.method_used);
  EXPECT_EQ(std::memcmp(&a.switch_time, &b.switch_time, sizeof(double)), 0);
  EXPECT_EQ(a.linear_solver, b.linear_solver);
  EXPECT_EQ(a.events, 0);
  EXPECT_EQ(b.events, 0);
  EXPECT_TRUE(std::isnan(a.t_event) && std::isnan(b.t_event));
  EXPECT_EQ(a.event_indicator, -1);
  EXPECT_EQ(b.event_indicator, -1);
}

TEST(Events, WithoutEventsBitIdenticalToIntegrateJac) {
  for (eqc_method method : {EQC_METHOD_EULER, EQC_METHOD_RK4, EQC_METHOD_BEULER, EQC_METHOD_DOPRI5,
                            EQC_METHOD_DOP853, EQC_METHOD_RADAU5, EQC_METHOD_AUTO}) {
    eqc_options opt = makeOptions(method, 0.0, 10.0);
    opt.interval = 0.3;
    Recorder plainRec{2, {}, {}};
    std::vector<double> plainX = {1.0, 0.0};
    eqc_stats plain;
    const int plainStatus = eqc_integrate_jac(2, oscillator, nullptr, nullptr, plainX.data(), &opt,
                                              Recorder::record, &plainRec, nullptr, nullptr, &plain);
    ASSERT_EQ(plainStatus, EQC_OK);
    int conditions[1] = {0};
    eqc_events none{0, nullptr, nullptr, nullptr, conditions, 0, 0.0};
    for (eqc_events *events : {static_cast<eqc_events *>(nullptr), &none}) {
      EventRun run = runEvents(2, oscillator, {1.0, 0.0}, opt, events);
      ASSERT_EQ(run.status, plainStatus);
      EXPECT_EQ(run.x, plainX) << "method " << method;
      EXPECT_EQ(run.rec.times, plainRec.times);
      EXPECT_EQ(run.rec.states, plainRec.states);
      expectSameStats(run.stats, plain);
    }
  }
}

} // namespace

namespace {

/// x' = -1 while the condition x > 0 holds, +1 otherwise: from x = 0.1 the solution reaches 0 at
/// t = 0.1 (in fewer than EQC_RELAXED_QUIET_STEPS steps) and then slides along it (Filippov),
/// every event flipping the condition back.
int slidingCondition = 1;
struct Slide {
  int events = 0;
  static int zc(void *, double, const double *x, double *z) {
    z[0] = x[0];
    return 0;
  }
  static int handle(void *user, double, double *, const int *, int *conditions) {
    ++static_cast<Slide *>(user)->events;
    conditions[0] = !conditions[0];
    slidingCondition = conditions[0];
    return 0;
  }
};

} // namespace

/// eqc::rt::integrateEvents with `relaxed` flags (as eqc_sim passes them).
EventRun runRelaxed(eqc_rhs_fn f, double x0, const eqc_options &opt, eqc_events *events, unsigned char *relaxed) {
  EventRun run;
  run.rec.n = 1;
  run.x = {x0};
  run.status = eqc::rt::integrateEvents(1, f, nullptr, nullptr, run.x.data(), &opt, Recorder::record, &run.rec,
                                        nullptr, nullptr, false, events, &run.stats, relaxed);
  return run;
}

// integrateEvents' `relaxed`: an indicator whose changes are taken at step ends. A sliding
// motion, which located events stop (every event a few ulps after the last: EQC_ERR_CHATTERING),
// runs through with |x| within a step of 0; a relaxed indicator that then stays put is located
// again.
TEST(Events, RelaxedIndicatorRunsThroughASlidingMotion) {
  eqc_rhs_fn slide = [](void *, double, const double *, double *dx) {
    dx[0] = slidingCondition ? -1.0 : 1.0;
    return 0;
  };
  for (bool relax : {false, true}) {
    eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 3.0);
    opt.h_max = 0.01;
    Slide s;
    int conditions[1] = {1};
    slidingCondition = 1;
    unsigned char relaxed[1] = {static_cast<unsigned char>(relax ? eqc::rt::kIndicatorRelaxed : 0)};
    eqc_events events{1, Slide::zc, Slide::handle, &s, conditions, 0, 0.0, nullptr};
    EventRun run = runRelaxed(slide, 0.1, opt, &events, relaxed);
    if (!relax) {
      EXPECT_EQ(run.status, EQC_ERR_CHATTERING);
      EXPECT_NEAR(run.stats.t_reached, 0.1, 1e-9);
      continue;
    }
    ASSERT_EQ(run.status, EQC_OK);
    EXPECT_NEAR(run.x[0], 0.0, 0.0101);
    EXPECT_GT(s.events, 100); // about one per step of the 2.9 s of sliding
    EXPECT_EQ(relaxed[0], eqc::rt::kIndicatorRelaxed); // it never stayed put
  }
  // x' = -1 throughout from x = 0.2: one change at t = 0.2, taken at the end of the step that shows
  // it; then the indicator stays put and is located again after kRelaxedQuietSteps steps.
  eqc_rhs_fn down = [](void *, double, const double *, double *dx) {
    dx[0] = -1.0;
    return 0;
  };
  eqc_options opt = makeOptions(EQC_METHOD_DOPRI5, 0.0, 3.0);
  opt.h_max = 0.01;
  Slide s;
  int conditions[1] = {1};
  unsigned char relaxed[1] = {eqc::rt::kIndicatorRelaxed};
  eqc_events events{1, Slide::zc, Slide::handle, &s, conditions, 0, 0.0, nullptr};
  EventRun run = runRelaxed(down, 0.2, opt, &events, relaxed);
  ASSERT_EQ(run.status, EQC_OK);
  EXPECT_EQ(s.events, 1);
  EXPECT_GE(run.stats.t_event, 0.2);
  EXPECT_LE(run.stats.t_event, 0.2 + 0.0101);
  EXPECT_EQ(relaxed[0], 0);
  EXPECT_NEAR(run.x[0], -2.8, 1e-12);
}
