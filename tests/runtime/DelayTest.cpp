// delay() behind the embedding interface (eqc_model.h, eqc_delay_context): a hand-written table
// of x' = -x(t - tau), x = 1 up to the start (MLS 3.5, 3.7.2: delay(x, tau) is x at the start
// time until then), whose exact solution by the method of steps is x(1) = 0, x(2) = -1/2,
// x(3) = -1/6 for tau = 1; copies and serialized simulations continue with their own histories.
#include "Delays.h"
#include "eqc/eqc_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

// p = {tau, context}: the context's address in p[1] (0 bits: the current value).
int ddeRhs(double t, const double *x, double *dx, double *, const double *p) {
  eqc_delay_context *context = nullptr;
  std::memcpy(&context, &p[1], sizeof context);
  const double delayed = context ? context->value(context, 0, t, x[0], p[0], p[0]) : x[0];
  dx[0] = -delayed;
  return 0;
}
int ddeDelays(double, const double *x, const double *, const double *, const double *, double *values) {
  values[0] = x[0];
  return 0;
}
const char *const ddeStates[] = {"x"};
const char *const ddeParams[] = {"tau"};
const double ddeDefaults[] = {1.0};
const double ddeStart[] = {1.0};

eqc_model ddeModel() {
  eqc_model m{};
  m.abi_version = EQC_MODEL_ABI_VERSION;
  m.name = "Dde";
  m.n_states = 1;
  m.n_params = 1;
  m.state_names = ddeStates;
  m.param_names = ddeParams;
  m.param_defaults = ddeDefaults;
  m.state_start = ddeStart;
  m.rhs = ddeRhs;
  m.n_p = 2;
  m.n_delays = 1;
  m.delay_context = 1;
  m.delays = ddeDelays;
  return m;
}

// x(t) on [1, 2] by the method of steps: -(2 (t - 1) - (t^2 - 1) / 2).
double exactOnSecondInterval(double t) { return -(2 * (t - 1) - (t * t - 1) / 2); }

struct Sim {
  eqc_sim *sim;
  explicit Sim(eqc_sim *s) : sim(s) {}
  ~Sim() { eqc_sim_free(sim); }
};

eqc_options tight() {
  eqc_options o;
  eqc_options_default(&o);
  o.method = EQC_METHOD_DOPRI5;
  o.rtol = o.atol = 1e-10;
  return o;
}

} // namespace

TEST(DelayRuntime, MethodOfStepsSolution) {
  const eqc_model m = ddeModel();
  Sim s(eqc_sim_new(&m));
  ASSERT_NE(s.sim, nullptr);
  eqc_options o = tight();
  ASSERT_EQ(eqc_sim_set_options(s.sim, &o), EQC_OK);
  ASSERT_EQ(eqc_sim_run(s.sim, 1.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  EXPECT_NEAR(eqc_sim_states(s.sim)[0], 0.0, 1e-8); // x = 1 - t on [0, 1]
  ASSERT_EQ(eqc_sim_run(s.sim, 1.5, nullptr, nullptr), EQC_OK);
  EXPECT_NEAR(eqc_sim_states(s.sim)[0], exactOnSecondInterval(1.5), 1e-8);
  ASSERT_EQ(eqc_sim_run(s.sim, 2.0, nullptr, nullptr), EQC_OK);
  EXPECT_NEAR(eqc_sim_states(s.sim)[0], -0.5, 1e-8);
  ASSERT_EQ(eqc_sim_run(s.sim, 3.0, nullptr, nullptr), EQC_OK);
  EXPECT_NEAR(eqc_sim_states(s.sim)[0], -1.0 / 6.0, 1e-7);
}

TEST(DelayRuntime, CopiesAndSerializedSimulationsKeepTheirOwnHistories) {
  const eqc_model m = ddeModel();
  Sim s(eqc_sim_new(&m));
  eqc_options o = tight();
  eqc_sim_set_options(s.sim, &o);
  ASSERT_EQ(eqc_sim_run(s.sim, 1.7, nullptr, nullptr), EQC_OK);
  Sim copy(eqc_sim_copy(s.sim));
  ASSERT_NE(copy.sim, nullptr);
  std::vector<unsigned char> bytes(eqc_sim_serialized_size(s.sim));
  ASSERT_EQ(eqc_sim_serialize(s.sim, bytes.data(), bytes.size()), EQC_OK);
  Sim restored(eqc_sim_deserialize(&m, bytes.data(), bytes.size()));
  ASSERT_NE(restored.sim, nullptr);
  // The original runs on first: the others must not read its history (which moves on).
  ASSERT_EQ(eqc_sim_run(s.sim, 3.0, nullptr, nullptr), EQC_OK);
  ASSERT_EQ(eqc_sim_run(copy.sim, 3.0, nullptr, nullptr), EQC_OK);
  ASSERT_EQ(eqc_sim_run(restored.sim, 3.0, nullptr, nullptr), EQC_OK);
  EXPECT_EQ(eqc_sim_states(copy.sim)[0], eqc_sim_states(s.sim)[0]);
  EXPECT_EQ(eqc_sim_states(restored.sim)[0], eqc_sim_states(s.sim)[0]);
  EXPECT_NEAR(eqc_sim_states(s.sim)[0], -1.0 / 6.0, 1e-7);
  // Cut bytes are refused, not read past.
  EXPECT_EQ(eqc_sim_deserialize(&m, bytes.data(), bytes.size() - 4), nullptr);
}

TEST(DelayRuntime, PerStateToleranceSurvivesSerialization) {
  const eqc_model m = ddeModel();
  Sim s(eqc_sim_new(&m));
  const double atol[] = {1e-9};
  ASSERT_EQ(eqc_sim_set_atol(s.sim, atol), EQC_OK);
  std::vector<unsigned char> bytes(eqc_sim_serialized_size(s.sim));
  ASSERT_EQ(eqc_sim_serialize(s.sim, bytes.data(), bytes.size()), EQC_OK);
  Sim restored(eqc_sim_deserialize(&m, bytes.data(), bytes.size()));
  EXPECT_NE(restored.sim, nullptr);
}

TEST(DelayRuntime, TableWithDelaysButNoContextEntryIsRefused) {
  eqc_model m = ddeModel();
  m.n_p = 1; // the context has no entry of p
  EXPECT_EQ(eqc_sim_new(&m), nullptr);
  m = ddeModel();
  m.delay_context = 0; // not the last entry
  EXPECT_EQ(eqc_sim_new(&m), nullptr);
  m = ddeModel();
  m.delays = nullptr; // nothing records the histories
  EXPECT_EQ(eqc_sim_new(&m), nullptr);
}

// A signal that jumps at an event has two points at the event's time; a delay reads the right
// limit from the jump's time on. An event located at te + delay may read back te less rounding
// (an ulp or a few below): that is the jump's time too, so the right limit — read as the left
// one, MSL's Digital.TransportDelay saw the jump at te + delay "un-happen" and the event repeat
// without effect (FullAdder stopped at t = 6).
TEST(DelayRuntime, AJumpReadsItsRightLimitFromItsTimeLessRounding) {
  using H = eqc::rt::DelayHistories;
  const std::vector<H::Point> h{{5.0, 2.0, 0.0}, {6.0, 2.0, 0.0}, {6.0, 5.0, 0.0}, {7.0, 5.0, 0.0}};
  const double te = 6.0, delay = 0.001, t = te + delay;
  EXPECT_EQ(H::interpolate(h, std::nextafter(te, 0.0), t, 5.0), 5.0);
  EXPECT_EQ(H::interpolate(h, te - 8 * std::numeric_limits<double>::epsilon() * te, t, 5.0), 5.0);
  EXPECT_EQ(H::interpolate(h, te, t, 5.0), 5.0);
  EXPECT_EQ(H::interpolate(h, std::nextafter(te, 7.0), t, 5.0), 5.0);
  // Before the jump by more than rounding: the left value.
  EXPECT_EQ(H::interpolate(h, te - 1e-9, t, 5.0), 2.0);
  EXPECT_EQ(H::interpolate(h, 5.5, t, 5.0), 2.0);
}
