// Tests of the embedding interface (eqc_model.h): simulations of hand-written
// model tables — parameters and states by name, runs that continue each other,
// two simulations of two models interleaved in one process, projection onto
// invariants, the sparse Jacobian of a table, and failure messages.
#include "TestSupport.h"
#include "eqc/eqc_model.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cmath>
#include <string>
#include <vector>

namespace {

// x'' = -k x with the energy as an algebraic variable: x = cos(sqrt(k) t).
int oscillatorRhs(double, const double *x, double *dx, double *a, const double *p) {
  dx[0] = x[1];
  dx[1] = -p[0] * x[0];
  a[0] = 0.5 * (x[1] * x[1] + p[0] * x[0] * x[0]);
  return 0;
}
const char *const oscillatorStates[] = {"x", "v"};
const char *const oscillatorAlgebraics[] = {"E"};
const char *const oscillatorParams[] = {"k"};
const double oscillatorDefaults[] = {4.0};
const double oscillatorStart[] = {1.0, 0.0};
const eqc_model oscillatorModel = {EQC_MODEL_ABI_VERSION, "Oscillator", 2, 1, 1, 0, oscillatorStates,
                                   oscillatorAlgebraics, oscillatorParams, oscillatorDefaults, oscillatorStart,
                                   nullptr, oscillatorRhs, nullptr, nullptr, nullptr, nullptr, nullptr,
                                   nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0.0, 0, 0, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0, -1, nullptr, nullptr, nullptr};

// y' = -r y: y = exp(-r t).
int decayRhs(double, const double *x, double *dx, double *, const double *p) {
  dx[0] = -p[0] * x[0];
  return 0;
}
const char *const decayStates[] = {"y"};
const char *const decayParams[] = {"r"};
const double decayDefaults[] = {0.5};
const double decayStart[] = {2.0};
const eqc_model decayModel = {EQC_MODEL_ABI_VERSION, "Decay", 1, 0, 1, 0, decayStates, nullptr, decayParams,
                              decayDefaults, decayStart, nullptr, decayRhs, nullptr, nullptr, nullptr, nullptr,
                              nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0.0, 0, 0, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0, -1, nullptr, nullptr, nullptr};

// The pendulum as an ODE with invariants (index reduced by hand): lambda from
// the twice-differentiated length constraint.
int pendulumRhs(double, const double *x, double *dx, double *a, const double *p) {
  const double g = p[0];
  const double lambda = (x[2] * x[2] + x[3] * x[3] - g * x[1]) / (x[0] * x[0] + x[1] * x[1]);
  a[0] = lambda;
  dx[0] = x[2];
  dx[1] = x[3];
  dx[2] = -lambda * x[0];
  dx[3] = -lambda * x[1] - g;
  return 0;
}
int pendulumInvariants(double, const double *x, const double *p, double *g) {
  g[0] = x[0] * x[0] + x[1] * x[1] - p[1] * p[1];
  g[1] = 2 * (x[0] * x[2] + x[1] * x[3]);
  return 0;
}
int pendulumInvariantJacobian(double, const double *x, const double *, double *G) {
  const double row0[4] = {2 * x[0], 2 * x[1], 0, 0}, row1[4] = {2 * x[2], 2 * x[3], 2 * x[0], 2 * x[1]};
  std::copy(row0, row0 + 4, G);
  std::copy(row1, row1 + 4, G + 4);
  return 0;
}
const char *const pendulumStates[] = {"x", "y", "vx", "vy"};
const char *const pendulumAlgebraics[] = {"lambda"};
const char *const pendulumParams[] = {"g", "L"};
const double pendulumDefaults[] = {9.81, 1.0};
const double pendulumStart[] = {0.6, -0.8, 0.0, 0.0};
const eqc_model pendulumModel = {EQC_MODEL_ABI_VERSION, "Pendulum", 4, 1, 2, 2, pendulumStates,
                                 pendulumAlgebraics, pendulumParams, pendulumDefaults, pendulumStart,
                                 nullptr, pendulumRhs, nullptr, nullptr, nullptr, pendulumInvariants,
                                 pendulumInvariantJacobian, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0.0, 0, 0, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0, -1, nullptr, nullptr, nullptr};

struct Sim {
  eqc_sim *sim;
  explicit Sim(const eqc_model &m) : sim(eqc_sim_new(&m)) {}
  ~Sim() { eqc_sim_free(sim); }
};

struct Recording {
  std::vector<double> times, first, algebraic;
  static int record(void *user, double t, const double *x, const double *, const double *a) {
    auto *r = static_cast<Recording *>(user);
    r->times.push_back(t);
    r->first.push_back(x[0]);
    r->algebraic.push_back(a ? a[0] : 0.0);
    return 0;
  }
};

eqc_options dopri(double rtol, double interval) {
  eqc_options o;
  eqc_options_default(&o);
  o.method = EQC_METHOD_DOPRI5;
  o.rtol = rtol;
  o.atol = rtol * 1e-3;
  o.interval = interval;
  return o;
}

TEST(Simulation, ParametersByNameAndRunsThatContinue) {
  Sim s(oscillatorModel);
  ASSERT_TRUE(s.sim);
  eqc_options o = dopri(1e-10, 0.25);
  ASSERT_EQ(eqc_sim_set_options(s.sim, &o), EQC_OK);
  EXPECT_EQ(eqc_sim_param_index(s.sim, "k"), 0);
  EXPECT_EQ(eqc_sim_param_index(s.sim, "nope"), -1);
  EXPECT_EQ(eqc_sim_state_index(s.sim, "v"), 1);
  EXPECT_EQ(eqc_sim_algebraic_index(s.sim, "E"), 0);
  ASSERT_EQ(eqc_sim_set_param(s.sim, eqc_sim_param_index(s.sim, "k"), 9.0), EQC_OK); // omega = 3
  Recording r;
  ASSERT_EQ(eqc_sim_run(s.sim, 1.0, Recording::record, &r), EQC_OK) << eqc_sim_last_error(s.sim);
  ASSERT_EQ(eqc_sim_run(s.sim, 2.0, Recording::record, &r), EQC_OK) << eqc_sim_last_error(s.sim);
  // 0, 0.25, ..., 2: nine points, t = 1 once although it ends one run and starts the next.
  ASSERT_EQ(r.times.size(), 9u);
  for (size_t i = 0; i < r.times.size(); ++i) {
    EXPECT_DOUBLE_EQ(r.times[i], 0.25 * static_cast<double>(i));
    EXPECT_NEAR(r.first[i], std::cos(3.0 * r.times[i]), 1e-8) << r.times[i];
    EXPECT_NEAR(r.algebraic[i], 4.5, 1e-8); // E = k/2
  }
  EXPECT_EQ(eqc_sim_time(s.sim), 2.0);
  EXPECT_NEAR(eqc_sim_states(s.sim)[1], -3.0 * std::sin(6.0), 1e-8);
  EXPECT_NEAR(eqc_sim_derivatives(s.sim)[1], -9.0 * std::cos(6.0), 1e-7);
  EXPECT_STREQ(eqc_sim_last_error(s.sim), "");
  const eqc_stats *stats = eqc_sim_stats(s.sim, nullptr);
  ASSERT_TRUE(stats);
  EXPECT_GT(stats->steps, 0);
  EXPECT_EQ(stats->t_reached, 2.0);
}

// Two models in one process, their runs interleaved: each gives bit for bit
// what it gives alone.
TEST(Simulation, TwoSimulationsOfTwoModelsDoNotShareState) {
  auto alone = [](const eqc_model &m, std::vector<double> &states) {
    Sim s(m);
    eqc_options o = dopri(1e-9, 0.1);
    eqc_sim_set_options(s.sim, &o);
    for (double t : {0.5, 1.0, 1.5})
      EXPECT_EQ(eqc_sim_run(s.sim, t, nullptr, nullptr), EQC_OK);
    states.assign(eqc_sim_states(s.sim), eqc_sim_states(s.sim) + m.n_states);
  };
  std::vector<double> oscillatorAlone, decayAlone;
  alone(oscillatorModel, oscillatorAlone);
  alone(decayModel, decayAlone);

  Sim a(oscillatorModel), b(decayModel);
  eqc_options o = dopri(1e-9, 0.1);
  eqc_sim_set_options(a.sim, &o);
  eqc_sim_set_options(b.sim, &o);
  for (double t : {0.5, 1.0, 1.5}) {
    ASSERT_EQ(eqc_sim_run(a.sim, t, nullptr, nullptr), EQC_OK);
    ASSERT_EQ(eqc_sim_run(b.sim, t, nullptr, nullptr), EQC_OK);
  }
  EXPECT_EQ(eqc_sim_states(a.sim)[0], oscillatorAlone[0]);
  EXPECT_EQ(eqc_sim_states(a.sim)[1], oscillatorAlone[1]);
  EXPECT_EQ(eqc_sim_states(b.sim)[0], decayAlone[0]);
  EXPECT_NEAR(eqc_sim_states(b.sim)[0], 2.0 * std::exp(-0.75), 1e-8);
  EXPECT_NEAR(eqc_sim_states(a.sim)[0], std::cos(3.0), 1e-8);
}

TEST(Simulation, ProjectionKeepsThePendulumOnItsInvariants) {
  Sim s(pendulumModel);
  eqc_options o = dopri(1e-6, 0.1);
  eqc_sim_set_options(s.sim, &o);
  // A start off the circle is projected onto it first.
  ASSERT_EQ(eqc_sim_set_state(s.sim, 0, 0.7), EQC_OK);
  ASSERT_EQ(eqc_sim_run(s.sim, 20.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  const double *x = eqc_sim_states(s.sim);
  EXPECT_NEAR(x[0] * x[0] + x[1] * x[1], 1.0, 1e-9);
  EXPECT_NEAR(x[0] * x[2] + x[1] * x[3], 0.0, 1e-9);
  double residual = -1;
  const eqc_stats *stats = eqc_sim_stats(s.sim, &residual);
  EXPECT_GT(stats->hook_calls, 0);
  EXPECT_LT(residual, 1e-9);
  EXPECT_GE(residual, 0.0);

  // Without projection the drift at this tolerance is orders of magnitude larger.
  Sim free(pendulumModel);
  eqc_sim_set_options(free.sim, &o);
  ASSERT_EQ(eqc_sim_set_projection(free.sim, 0), EQC_OK);
  ASSERT_EQ(eqc_sim_run(free.sim, 20.0, nullptr, nullptr), EQC_OK);
  const double *y = eqc_sim_states(free.sim);
  EXPECT_GT(std::fabs(y[0] * y[0] + y[1] * y[1] - 1.0), 1e-7);
  // The residual reported is the drift at the output points, not 0 for want of projections.
  double drift = 0;
  eqc_sim_stats(free.sim, &drift);
  EXPECT_GE(drift, std::fabs(y[0] * y[0] + y[1] * y[1] - 1.0) * (1 - 1e-12));

  // Initialization projects either way (a Baumgarte-stabilized model starts on its invariants).
  Sim baumgarte(pendulumModel);
  ASSERT_EQ(eqc_sim_set_projection(baumgarte.sim, 0), EQC_OK);
  ASSERT_EQ(eqc_sim_set_state(baumgarte.sim, 0, 0.7), EQC_OK);
  ASSERT_EQ(eqc_sim_initialize(baumgarte.sim), EQC_OK) << eqc_sim_last_error(baumgarte.sim);
  const double *z = eqc_sim_states(baumgarte.sim);
  EXPECT_NEAR(z[0] * z[0] + z[1] * z[1], 1.0, 1e-10); // from 1.13
  EXPECT_NEAR(z[0] * z[2] + z[1] * z[3], 0.0, 1e-10);
  EXPECT_EQ(eqc_sim_set_projection(Sim(oscillatorModel).sim, 1), EQC_ERR_ARGUMENT); // no invariants
}

// A table with a sparse Jacobian: the 1-D heat equation; radau5 takes the
// sparse LU.
constexpr int HeatSize = 200;
int heatRhs(double, const double *u, double *du, double *, const double *p) {
  for (int i = 0; i < HeatSize; ++i)
    du[i] = p[0] * ((i > 0 ? u[i - 1] : 0.0) - 2.0 * u[i] + (i + 1 < HeatSize ? u[i + 1] : 0.0));
  return 0;
}
int heatJac(double, const double *, const double *, const double *, const double *p, double *values) {
  int k = 0;
  for (int j = 0; j < HeatSize; ++j)
    for (int i = std::max(0, j - 1); i <= std::min(HeatSize - 1, j + 1); ++i)
      values[k++] = i == j ? -2.0 * p[0] : p[0];
  return 0;
}

/// The pendulum's table with dg/dx as the values of a pattern (ABI 4): columns x, y, vx, vy.
int pendulumSparseInvariantJacobian(double, const double *x, const double *, double *values) {
  const double v[6] = {2 * x[0], 2 * x[2], 2 * x[1], 2 * x[3], 2 * x[0], 2 * x[1]};
  std::copy(v, v + 6, values);
  return 0;
}
const int pendulumJacColumns[] = {0, 2, 4, 5, 6}, pendulumJacRows[] = {0, 1, 0, 1, 1, 1};
const eqc_sparsity pendulumJacPattern = {6, pendulumJacColumns, pendulumJacRows};

// A table whose constraint Jacobian is sparse runs as the dense one does, bit for bit: the
// start projected (with a state set off the circle), projection after every step, a reinit-free
// run over several swings.
TEST(Simulation, SparseConstraintJacobianOfTheTable) {
  eqc_model sparse = pendulumModel;
  sparse.invariants_jac = pendulumSparseInvariantJacobian;
  sparse.invariants_jac_pattern = &pendulumJacPattern;
  Sim a(pendulumModel), b(sparse);
  ASSERT_TRUE(b.sim);
  eqc_options o = dopri(1e-8, 0.1);
  for (Sim *s : {&a, &b}) {
    eqc_sim_set_options(s->sim, &o);
    ASSERT_EQ(eqc_sim_set_state(s->sim, 0, 0.7), EQC_OK);
    ASSERT_EQ(eqc_sim_run(s->sim, 5.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s->sim);
  }
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(eqc_sim_states(b.sim)[i], eqc_sim_states(a.sim)[i]) << i;
  const double *x = eqc_sim_states(b.sim);
  EXPECT_NEAR(x[0] * x[0] + x[1] * x[1], 1.0, 1e-9);
  EXPECT_GT(eqc_sim_stats(b.sim, nullptr)->hook_calls, 0);
}

/// The heat equation's table, with its Jacobian in the table (`withJacobian`) or not.
struct HeatTable {
  std::vector<int> colStart{0}, rows;
  std::vector<std::string> names;
  std::vector<const char *> namePointers;
  std::vector<double> start;
  eqc_sparsity pattern{};
  const char *const paramNames[1] = {"k"};
  const double k = (HeatSize + 1.0) * (HeatSize + 1.0);
  eqc_model model{};
  explicit HeatTable(bool withJacobian) {
    for (int j = 0; j < HeatSize; ++j) {
      for (int i = std::max(0, j - 1); i <= std::min(HeatSize - 1, j + 1); ++i)
        rows.push_back(i);
      colStart.push_back(static_cast<int>(rows.size()));
      names.push_back("u" + std::to_string(j + 1));
      start.push_back(std::sin(M_PI * (j + 1) / (HeatSize + 1)));
    }
    for (auto &n : names)
      namePointers.push_back(n.c_str());
    pattern = {static_cast<int>(rows.size()), colStart.data(), rows.data()};
    model = {EQC_MODEL_ABI_VERSION, "Heat", HeatSize, 0, 1, 0, namePointers.data(), nullptr, paramNames, &k,
             start.data(), nullptr, heatRhs, nullptr, withJacobian ? heatJac : nullptr,
             withJacobian ? &pattern : nullptr, nullptr, nullptr, nullptr, nullptr,
             nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0.0, 0, 0, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0, -1, nullptr, nullptr, nullptr};
  }
  /// The exact solution's mode at time t, state i.
  double exact(double t, int i) const {
    const double sn = std::sin(M_PI / (2.0 * (HeatSize + 1)));
    return std::exp(-4.0 * k * sn * sn * t) * start[static_cast<size_t>(i)];
  }
};

TEST(Simulation, SparseJacobianOfTheTable) {
  HeatTable heat(true);
  Sim s(heat.model);
  ASSERT_TRUE(s.sim);
  eqc_options o = dopri(1e-8, 0);
  o.method = EQC_METHOD_RADAU5;
  o.atol = 1e-12;
  eqc_sim_set_options(s.sim, &o);
  ASSERT_EQ(eqc_sim_run(s.sim, 0.05, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  const eqc_stats *stats = eqc_sim_stats(s.sim, nullptr);
  EXPECT_EQ(stats->linear_solver, EQC_LINEAR_SPARSE);
  EXPECT_GT(stats->jac_evals, 0);
  for (int i = 0; i < HeatSize; ++i)
    EXPECT_NEAR(eqc_sim_states(s.sim)[i], heat.exact(0.05, i), 1e-8) << i;
}

/// A Jacobian provider (eqc_sim_set_jacobian) that counts its calls.
struct Provider {
  const HeatTable *heat;
  int calls = 0;
  int fail = 0;
  static int provide(void *user, eqc_model_jac_fn *jac, const eqc_sparsity **pattern) {
    auto *p = static_cast<Provider *>(user);
    ++p->calls;
    if (p->fail)
      return p->fail;
    *jac = heatJac;
    *pattern = &p->heat->pattern;
    return 0;
  }
};

// eqc simulate compiles the generated Jacobian only when an implicit method needs it: the
// provider is asked once per run that needs J, never for an explicit method, and its J is used
// (same answer, same Jacobian count as the table's own), with the linear algebra chosen.
TEST(Simulation, JacobianOnDemand) {
  HeatTable heat(false);
  Provider provider{&heat};
  Sim s(heat.model);
  ASSERT_EQ(eqc_sim_set_jacobian(s.sim, EQC_LINEAR_AUTO, Provider::provide, &provider), EQC_OK);
  eqc_options o = dopri(1e-6, 0);
  eqc_sim_set_options(s.sim, &o);
  ASSERT_EQ(eqc_sim_run(s.sim, 1e-5, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  EXPECT_EQ(provider.calls, 0); // dopri5 needs no J

  o = dopri(1e-8, 0);
  o.method = EQC_METHOD_RADAU5;
  o.atol = 1e-12;
  eqc_sim_set_options(s.sim, &o);
  ASSERT_EQ(eqc_sim_run(s.sim, 0.05, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  EXPECT_EQ(provider.calls, 1);
  const eqc_stats *stats = eqc_sim_stats(s.sim, nullptr);
  EXPECT_EQ(stats->linear_solver, EQC_LINEAR_SPARSE);
  for (int i = 0; i < HeatSize; ++i)
    EXPECT_NEAR(eqc_sim_states(s.sim)[i], heat.exact(0.05, i), 1e-8) << i;
  // The same computation as with the table's own Jacobian (no finite differences).
  HeatTable own(true);
  Sim reference(own.model);
  eqc_options first = dopri(1e-6, 0);
  eqc_sim_set_options(reference.sim, &first);
  ASSERT_EQ(eqc_sim_run(reference.sim, 1e-5, nullptr, nullptr), EQC_OK);
  eqc_sim_set_options(reference.sim, &o);
  ASSERT_EQ(eqc_sim_run(reference.sim, 0.05, nullptr, nullptr), EQC_OK);
  const eqc_stats *expected = eqc_sim_stats(reference.sim, nullptr);
  EXPECT_EQ(stats->rhs_evals, expected->rhs_evals);
  EXPECT_EQ(stats->jac_evals, expected->jac_evals);
  for (int i = 0; i < HeatSize; ++i)
    EXPECT_EQ(eqc_sim_states(s.sim)[i], eqc_sim_states(reference.sim)[i]) << i;

  // The dense solver when asked for; a second run asks the provider again.
  ASSERT_EQ(eqc_sim_set_jacobian(s.sim, EQC_LINEAR_DENSE, Provider::provide, &provider), EQC_OK);
  ASSERT_EQ(eqc_sim_run(s.sim, 0.06, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  EXPECT_EQ(provider.calls, 2);
  EXPECT_EQ(eqc_sim_stats(s.sim, nullptr)->linear_solver, EQC_LINEAR_DENSE);
  for (int i = 0; i < HeatSize; ++i)
    EXPECT_NEAR(eqc_sim_states(s.sim)[i], heat.exact(0.06, i), 1e-8) << i;

  // A provider that fails stops the run with its code; an unknown solver is refused.
  provider.fail = 7;
  EXPECT_EQ(eqc_sim_run(s.sim, 0.07, nullptr, nullptr), EQC_ERR_RHS);
  EXPECT_EQ(eqc_sim_stats(s.sim, nullptr)->rhs_code, 7);
  EXPECT_EQ(eqc_sim_set_jacobian(s.sim, static_cast<eqc_linear_solver>(9), nullptr, nullptr), EQC_ERR_ARGUMENT);
}

int blowUp(double t, const double *x, double *dx, double *, const double *) {
  dx[0] = 1.0;
  dx[1] = t < 0.5 ? 0.0 : NAN;
  (void)x;
  return 0;
}
const char *const blowUpStates[] = {"clock", "bad"};
const double blowUpStart[] = {0.0, 0.0};

TEST(Simulation, FailuresAreReportedWithTimeAndVariable) {
  eqc_model bad = oscillatorModel;
  bad.abi_version = EQC_MODEL_ABI_VERSION + 1;
  EXPECT_EQ(eqc_sim_new(&bad), nullptr);
  bad = oscillatorModel;
  bad.rhs = nullptr;
  EXPECT_EQ(eqc_sim_new(&bad), nullptr);
  EXPECT_EQ(eqc_sim_new(nullptr), nullptr);

  Sim s(oscillatorModel);
  EXPECT_EQ(eqc_sim_set_param(s.sim, 1, 1.0), EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_sim_set_param(s.sim, 0, NAN), EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_sim_set_state(s.sim, -1, 1.0), EQC_ERR_ARGUMENT);
  EXPECT_EQ(eqc_sim_run(s.sim, -1.0, nullptr, nullptr), EQC_ERR_ARGUMENT);
  EXPECT_NE(std::string(eqc_sim_last_error(s.sim)).find("end time"), std::string::npos);
  // A run to the current time: the point itself, once (an initialization-only run).
  std::vector<double> outputs;
  auto record = [](void *user, double t, const double *, const double *, const double *) {
    static_cast<std::vector<double> *>(user)->push_back(t);
    return 0;
  };
  EXPECT_EQ(eqc_sim_run(s.sim, 0.0, record, &outputs), EQC_OK);
  EXPECT_EQ(eqc_sim_run(s.sim, 0.0, record, &outputs), EQC_OK);
  EXPECT_EQ(outputs, std::vector<double>{0.0});

  eqc_model nan = {EQC_MODEL_ABI_VERSION, "BlowUp", 2, 0, 0, 0, blowUpStates, nullptr, nullptr, nullptr,
                   blowUpStart, nullptr, blowUp, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                   nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0.0, 0, 0, nullptr, nullptr, 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0, -1, nullptr, nullptr, nullptr};
  Sim f(nan);
  eqc_options o = dopri(1e-6, 0.1);
  eqc_sim_set_options(f.sim, &o);
  EXPECT_EQ(eqc_sim_run(f.sim, 1.0, nullptr, nullptr), EQC_ERR_NONFINITE);
  std::string message = eqc_sim_last_error(f.sim);
  EXPECT_NE(message.find("(state bad)"), std::string::npos) << message;
  EXPECT_NE(message.find("at time 0.5"), std::string::npos) << message;
  EXPECT_LT(eqc_sim_time(f.sim), 0.5 + 1e-9);
  EXPECT_GT(eqc_sim_time(f.sim), 0.45);
}

} // namespace

// Per-state absolute tolerances: the decay y' = -r y from 2 with a tiny rtol is accurate to about the
// atol given for y; the same run with a per-state atol of 1e-12 takes more steps and ends within
// it of 2 exp(-r t) (r = 0.5).
TEST(Simulation, PerStateAbsoluteTolerances) {
  auto run = [](const double *atol, long &steps) {
    Sim s(decayModel);
    eqc_options o = dopri(1e-14, 0.0);
    o.rtol = 1e-12; // negligible against atol: the run is as accurate as atol says
    o.atol = 1e-4;
    eqc_sim_set_options(s.sim, &o);
    EXPECT_EQ(eqc_sim_set_atol(s.sim, atol), EQC_OK);
    EXPECT_EQ(eqc_sim_run(s.sim, 4.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
    steps = eqc_sim_stats(s.sim, nullptr)->steps;
    return eqc_sim_states(s.sim)[0];
  };
  const double exact = 2 * std::exp(-0.5 * 4.0), tight = 1e-12;
  long coarseSteps = 0, fineSteps = 0;
  const double coarse = run(nullptr, coarseSteps), fine = run(&tight, fineSteps);
  EXPECT_GT(std::fabs(coarse - exact), 1e-9);
  EXPECT_NEAR(fine, exact, 1e-10);
  EXPECT_GT(fineSteps, 2 * coarseSteps);
  Sim s(decayModel);
  const double negative = -1.0;
  EXPECT_EQ(eqc_sim_set_atol(s.sim, &negative), EQC_ERR_ARGUMENT);
}

namespace {
struct Steps {
  std::vector<double> times;
  double stopAfter = INFINITY;
  static int seen(void *user, double t, const double *) {
    auto *s = static_cast<Steps *>(user);
    s->times.push_back(t);
    return t > s->stopAfter ? 1 : 0;
  }
};
} // namespace

// The step callback sees every accepted step, in order, and stops the run where it asks to.
TEST(Simulation, StepCallbackSeesEveryStepAndCanStopTheRun) {
  Sim s(oscillatorModel);
  eqc_options o = dopri(1e-8, 0.1);
  eqc_sim_set_options(s.sim, &o);
  Steps steps;
  ASSERT_EQ(eqc_sim_set_step_callback(s.sim, Steps::seen, &steps), EQC_OK);
  ASSERT_EQ(eqc_sim_run(s.sim, 1.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  EXPECT_EQ(static_cast<long>(steps.times.size()), eqc_sim_stats(s.sim, nullptr)->steps);
  EXPECT_TRUE(std::is_sorted(steps.times.begin(), steps.times.end()));
  EXPECT_EQ(steps.times.back(), 1.0);
  steps.times.clear();
  steps.stopAfter = 1.5;
  EXPECT_EQ(eqc_sim_run(s.sim, 3.0, nullptr, nullptr), EQC_ERR_STOPPED);
  EXPECT_GT(eqc_sim_time(s.sim), 1.5);
  EXPECT_LT(eqc_sim_time(s.sim), 3.0);
  EXPECT_NE(std::string(eqc_sim_last_error(s.sim)).find("the step callback asked to stop"), std::string::npos)
      << eqc_sim_last_error(s.sim);
}

namespace {
// Decay with two assertions, as eqc generates them (eqc_model_assert_fn): 0, an error, y > 0.5;
// 1, a warning, y > 1.5.
int decayAsserts(double, const double *x, const double *, const double *, const double *,
                 const unsigned char *skip, int *failed, char *message, size_t size) {
  *failed = -1;
  if (!skip[0] && !(x[0] > 0.5)) {
    *failed = 0;
    std::snprintf(message, size, "y = %.6g too small", x[0]);
  } else if (!skip[1] && !(x[0] > 1.5)) {
    *failed = 1;
    std::snprintf(message, size, "y = %.6g below 1.5", x[0]);
  }
  return 0;
}
const unsigned char decayAssertKinds[] = {0, EQC_ASSERT_WARNING};
struct Warnings {
  std::vector<std::pair<double, std::string>> seen;
  static void add(void *user, double t, int k, const char *message) {
    static_cast<Warnings *>(user)->seen.push_back({t, std::to_string(k) + ": " + message});
  }
};
} // namespace

// A model's assertions in eqc_sim: checked after every accepted step, the failure located
// between the last step where they held and the one where one fails (y = 2 e^{-t/2} passes 1.5
// at t = 2 ln(4/3) and 0.5 at t = 2 ln 4); a warning once per simulation (not again in a later
// run, nor in a copy); the error stops the run with EQC_ERR_ASSERTION; the check of a point an
// environment integrated itself (eqc_sim_check_assertions).
TEST(Simulation, AssertionsStopTheRunWhereTheyFirstFail) {
  eqc_model model = decayModel;
  model.n_asserts = 2;
  model.assert_kind = decayAssertKinds;
  model.asserts = decayAsserts;
  Sim s(model);
  eqc_options o = dopri(1e-10, 0.5);
  eqc_sim_set_options(s.sim, &o);
  Warnings w;
  ASSERT_EQ(eqc_sim_set_warning_callback(s.sim, Warnings::add, &w), EQC_OK);
  ASSERT_EQ(eqc_sim_run(s.sim, 1.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  ASSERT_EQ(eqc_sim_run(s.sim, 2.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(s.sim);
  ASSERT_EQ(w.seen.size(), 1u);
  EXPECT_NEAR(w.seen[0].first, 2 * std::log(4.0 / 3.0), 1e-8);
  EXPECT_EQ(w.seen[0].second.substr(0, 18), "1: y = 1.5 below 1");
  eqc_sim *copy = eqc_sim_copy(s.sim);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(eqc_sim_run(s.sim, 5.0, nullptr, nullptr), EQC_ERR_ASSERTION);
  EXPECT_EQ(eqc_sim_failed_assertion(s.sim), 0);
  const std::string error = eqc_sim_last_error(s.sim);
  EXPECT_NE(error.find(": assertion failed: y = 0.5 too small"), std::string::npos) << error;
  EXPECT_NEAR(std::strtod(error.c_str() + 8, nullptr), 2 * std::log(4.0), 1e-8) << error;
  EXPECT_EQ(w.seen.size(), 1u); // warned once
  // The copy continues without the warning again, and fails the same way.
  EXPECT_EQ(eqc_sim_run(copy, 5.0, nullptr, nullptr), EQC_ERR_ASSERTION);
  EXPECT_EQ(w.seen.size(), 1u);
  eqc_sim_free(copy);
  // A point the caller reached: checked as it is (no location).
  Sim fresh(model);
  ASSERT_EQ(eqc_sim_initialize(fresh.sim), EQC_OK);
  const double ok = 1.0, low = 0.25;
  EXPECT_EQ(eqc_sim_check_assertions(fresh.sim, 3.0, &ok), EQC_OK);
  EXPECT_EQ(eqc_sim_check_assertions(fresh.sim, 4.0, &low), EQC_ERR_ASSERTION);
  EXPECT_NE(std::string(eqc_sim_last_error(fresh.sim)).find("at time 4: assertion failed: y = 0.25 too small"),
            std::string::npos)
      << eqc_sim_last_error(fresh.sim);
  // A table with assertions but without their function is invalid.
  model.asserts = nullptr;
  EXPECT_EQ(eqc_sim_new(&model), nullptr);
}
