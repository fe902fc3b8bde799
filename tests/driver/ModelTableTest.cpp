// A JIT-compiled model run through the embedding interface: its eqc_model table (names, defaults,
// consistent start values, sparse Jacobian, invariants) with eqc_sim, against the references the
// CLI is tested with.
#include "driver/ModelTable.h"
#include "Shell.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

using namespace eqc;

namespace {

struct Table {
  Compilation c;
  std::ostringstream err;
  std::unique_ptr<ModelTable> table;
  eqc_sim *sim = nullptr;
  explicit Table(const std::string &example) {
    PipelineOptions options;
    const std::string path = example[0] == '/' ? example : std::string(EQC_SOURCE_DIR) + "/examples/" + example;
    if (runPipeline(path, options, c, err) != ExitOk)
      return;
    table = ModelTable::build(c, 0.0, err);
    if (table)
      sim = eqc_sim_new(&table->model());
  }
  ~Table() { eqc_sim_free(sim); }
  int state(const char *name) const { return eqc_sim_state_index(sim, name); }
};

eqc_options options(eqc_method method, double rtol, double atol) {
  eqc_options o;
  eqc_options_default(&o);
  o.method = method;
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

// The pendulum (index 3) in its invariants form, projected after every step: length and energy
// stay put, as in the CLI's test of the same example.
TEST(ModelTable, PendulumThroughEqcSimKeepsItsInvariants) {
  Table t("pendulum.eq");
  ASSERT_TRUE(t.sim) << t.err.str();
  const eqc_model &m = t.table->model();
  EXPECT_STREQ(m.name, "Pendulum");
  EXPECT_GT(m.n_invariants, 0);
  EXPECT_GE(eqc_sim_param_index(t.sim, "g"), 0);
  EXPECT_GE(t.state("x"), 0);
  EXPECT_GE(t.state("vy"), 0);
  eqc_options o = options(EQC_METHOD_DOPRI5, 1e-10, 1e-10);
  ASSERT_EQ(eqc_sim_set_options(t.sim, &o), EQC_OK);
  ASSERT_EQ(eqc_sim_run(t.sim, 10.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(t.sim);
  const double *x = eqc_sim_states(t.sim);
  double px = x[t.state("x")], py = x[t.state("y")], vx = x[t.state("vx")], vy = x[t.state("vy")];
  EXPECT_NEAR(px * px + py * py, 1.0, 1e-9);
  // Released at rest from (1, 0): energy v^2/2 + g y = 0.
  EXPECT_NEAR(0.5 * (vx * vx + vy * vy) + 9.81 * py, 0.0, 1e-6);
  double residual = 1;
  eqc_sim_stats(t.sim, &residual);
  EXPECT_LT(residual, 1e-9);
}

// ROBER with radau5 and the generated Jacobian from the table, to the Test Set reference at
// t = 1e11; a second model's simulation interleaved with it changes nothing.
TEST(ModelTable, RoberWithTheGeneratedJacobianAndASecondModelAlongside) {
  Table rober("rober.eq"), osc("oscillator.eq");
  ASSERT_TRUE(rober.sim) << rober.err.str();
  ASSERT_TRUE(osc.sim) << osc.err.str();
  ASSERT_TRUE(rober.table->model().jac);
  eqc_options stiff = options(EQC_METHOD_RADAU5, 1e-6, 1e-10);
  eqc_sim_set_options(rober.sim, &stiff);
  eqc_options smooth = options(EQC_METHOD_DOPRI5, 1e-8, 1e-10);
  eqc_sim_set_options(osc.sim, &smooth);
  for (double t : {1.0, 1e3, 1e7, 1e11}) {
    ASSERT_EQ(eqc_sim_run(rober.sim, t, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(rober.sim);
    ASSERT_EQ(eqc_sim_run(osc.sim, eqc_sim_time(osc.sim) + 1.0, nullptr, nullptr), EQC_OK);
  }
  const double *y = eqc_sim_states(rober.sim);
  // Four runs that continue each other (each ends exactly at its time): measured 1.2e-4, against
  // 4.8e-5 for one run to 1e11.
  EXPECT_NEAR(y[rober.state("y1")] / 0.2083340149701255e-07, 1, 3e-4);
  EXPECT_NEAR(y[rober.state("y3")] / 0.9999999791665050, 1, 1e-9);
  const eqc_stats *stats = eqc_sim_stats(rober.sim, nullptr);
  EXPECT_GT(stats->jac_evals, 0);
  EXPECT_EQ(stats->linear_solver, EQC_LINEAR_DENSE); // 3 states

  Table alone("oscillator.eq");
  ASSERT_TRUE(alone.sim);
  eqc_sim_set_options(alone.sim, &smooth);
  for (int k = 1; k <= 4; ++k)
    ASSERT_EQ(eqc_sim_run(alone.sim, k, nullptr, nullptr), EQC_OK);
  for (int i = 0; i < osc.table->model().n_states; ++i)
    EXPECT_EQ(eqc_sim_states(osc.sim)[i], eqc_sim_states(alone.sim)[i]) << i;
}


// Runs that continue each other keep what auto learned: once it switched to radau5, the next run
// stays stiff instead of starting dopri5 again (as fmi2DoStep does every communication step).
// ROBER in 100 runs of 1e9 (the FMU's Co-Simulation case that went negative at 1.4e10 and failed
// at 2.7e10) against the Test Set's reference at 1e11.
TEST(ModelTable, StiffRunsContinueStiff) {
  Table rober("rober.eq");
  ASSERT_TRUE(rober.sim) << rober.err.str();
  eqc_options o = options(EQC_METHOD_AUTO, 1e-6, 1e-10);
  eqc_sim_set_options(rober.sim, &o);
  double smallest = 1;
  for (int k = 1; k <= 100; ++k) {
    ASSERT_EQ(eqc_sim_run(rober.sim, k * 1e9, nullptr, nullptr), EQC_OK) << "run " << k << ": "
                                                                           << eqc_sim_last_error(rober.sim);
    for (int i = 0; i < 3; ++i)
      smallest = std::min(smallest, eqc_sim_states(rober.sim)[i]);
    if (k > 1) {
      ASSERT_EQ(eqc_sim_stats(rober.sim, nullptr)->method_used, EQC_METHOD_RADAU5) << "run " << k;
    }
  }
  EXPECT_GT(smallest, -1e-12);
  const double *y = eqc_sim_states(rober.sim);
  EXPECT_NEAR(y[rober.state("y1")] / 0.2083340149701255e-07, 1, 1e-3);
  EXPECT_NEAR(y[rober.state("y3")] / 0.9999999791665050, 1, 1e-9);

  // The FMU's Co-Simulation setting: atol = rtol = 1e-6; 100 runs against one.
  Table once("rober.eq"), steps("rober.eq");
  eqc_options fmu = options(EQC_METHOD_AUTO, 1e-6, 1e-6);
  eqc_sim_set_options(once.sim, &fmu);
  eqc_sim_set_options(steps.sim, &fmu);
  ASSERT_EQ(eqc_sim_run(once.sim, 1e11, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(once.sim);
  for (int k = 1; k <= 100; ++k) {
    ASSERT_EQ(eqc_sim_run(steps.sim, k * 1e9, nullptr, nullptr), EQC_OK) << "run " << k << ": "
                                                                           << eqc_sim_last_error(steps.sim);
    for (int i = 0; i < 3; ++i)
      EXPECT_GT(eqc_sim_states(steps.sim)[i], -1e-6) << "run " << k;
  }
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(eqc_sim_states(steps.sim)[i], eqc_sim_states(once.sim)[i], 1e-5) << i;
}


std::string dependentModel() { return std::string(EQC_SOURCE_DIR) + "/tests/driver/dependent.eq"; }

// Dependent parameters and parameter-dependent start values follow the parameters set
// (eqc_model.bind and .start): omega = 2 pi f with f = 60 runs at 120 pi (it ran at 100 pi: the
// compiled default), s(0) = A sin(phase) with A = 3; a dependent parameter set itself is kept,
// a state set keeps its value; a structural parameter is refused.
TEST(ModelTable, DependentParametersAndStartValuesFollowTheParametersSet) {
  Table t(dependentModel());
  ASSERT_TRUE(t.sim) << t.err.str();
  const eqc_model &m = t.table->model();
  const int f = eqc_sim_param_index(t.sim, "f"), omega = eqc_sim_param_index(t.sim, "omega");
  const int A = eqc_sim_param_index(t.sim, "A"), n = eqc_sim_param_index(t.sim, "n");
  ASSERT_TRUE(m.param_kind && m.bind && m.start);
  EXPECT_EQ(m.param_kind[f], EQC_PARAM_FREE);
  EXPECT_EQ(m.param_kind[omega], EQC_PARAM_DEPENDENT);
  EXPECT_EQ(m.param_kind[n], EQC_PARAM_STRUCTURAL);
  eqc_options o = options(EQC_METHOD_DOP853, 1e-12, 1e-12);
  eqc_sim_set_options(t.sim, &o);
  ASSERT_EQ(eqc_sim_set_param(t.sim, f, 60), EQC_OK);
  ASSERT_EQ(eqc_sim_set_param(t.sim, A, 3), EQC_OK);
  EXPECT_EQ(eqc_sim_set_param(t.sim, n, 3), EQC_ERR_ARGUMENT);
  EXPECT_NE(std::string(eqc_sim_last_error(t.sim)).find("fixes the model's structure"), std::string::npos);
  const double tEnd = 0.01, w = 2 * M_PI * 60;
  ASSERT_EQ(eqc_sim_run(t.sim, tEnd, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(t.sim);
  EXPECT_NEAR(eqc_sim_states(t.sim)[t.state("s")], 3 * std::sin(0.5 + w * tEnd), 1e-9);
  EXPECT_NEAR(eqc_sim_states(t.sim)[t.state("c")], 3 * std::cos(0.5 + w * tEnd), 1e-9);

  Table kept(dependentModel());
  ASSERT_TRUE(kept.sim) << kept.err.str();
  eqc_sim_set_options(kept.sim, &o);
  ASSERT_EQ(eqc_sim_set_param(kept.sim, f, 60), EQC_OK);
  ASSERT_EQ(eqc_sim_set_param(kept.sim, omega, 10), EQC_OK); // set itself: f does not move it
  ASSERT_EQ(eqc_sim_set_param(kept.sim, A, 3), EQC_OK);
  ASSERT_EQ(eqc_sim_set_state(kept.sim, kept.state("s"), 0.0), EQC_OK); // kept, c follows A
  ASSERT_EQ(eqc_sim_run(kept.sim, 1.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(kept.sim);
  const double c0 = 3 * std::cos(0.5);
  EXPECT_NEAR(eqc_sim_states(kept.sim)[kept.state("s")], c0 * std::sin(10.0), 1e-9);
  EXPECT_NEAR(eqc_sim_states(kept.sim)[kept.state("c")], c0 * std::cos(10.0), 1e-9);
}


// Initial equations of an index-reduced model hold in eqc_sim as in eqc simulate: the table's
// initial constraints (the invariants, then the initial equations) replace the invariants at the
// start. x = 0.6 by an initial equation, y from its guess -0.1 onto the circle; then one second
// against eqc simulate with the same method and tolerances.
TEST(ModelTable, InitialEquationsOfIndexReducedModelsHold) {
  const std::string model = std::string(EQC_SOURCE_DIR) + "/tests/driver/pendulum_initial.eq";
  Table t(model);
  ASSERT_TRUE(t.sim) << t.err.str();
  EXPECT_GT(t.table->model().n_initial_constraints, t.table->model().n_invariants);
  eqc_options o = options(EQC_METHOD_DOPRI5, 1e-10, 1e-10);
  eqc_sim_set_options(t.sim, &o);
  ASSERT_EQ(eqc_sim_initialize(t.sim), EQC_OK) << eqc_sim_last_error(t.sim);
  EXPECT_NEAR(eqc_sim_states(t.sim)[t.state("x")], 0.6, 1e-12);
  EXPECT_NEAR(eqc_sim_states(t.sim)[t.state("y")], -0.8, 1e-12);
  ASSERT_EQ(eqc_sim_run(t.sim, 1.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(t.sim);
  int status = 0;
  std::filesystem::create_directories(EQC_SCRATCH_DIR); // this test may run before any other made it
  const std::string csv = std::string(EQC_SCRATCH_DIR) + "/pendulum_initial.csv";
  std::string out = run(std::string("'") + EQC_BINARY + "' simulate '" + model +
                            "' --reduction invariants --method dopri5 --rtol 1e-10 --atol 1e-10 --t-end 1 --vars x,y "
                            "--quiet -o '" + csv + "'",
                        status);
  ASSERT_EQ(status, 0) << out;
  std::ifstream rows(csv);
  std::string line, last;
  while (std::getline(rows, line))
    last = line;
  double time, x, y;
  ASSERT_EQ(std::sscanf(last.c_str(), "%lf,%lf,%lf", &time, &x, &y), 3) << last;
  EXPECT_NEAR(eqc_sim_states(t.sim)[t.state("x")], x, 1e-8);
  EXPECT_NEAR(eqc_sim_states(t.sim)[t.state("y")], y, 1e-8);
}


// eqc_sim_copy and eqc_sim_serialize/deserialize continue with the same bits as the original
// (auto's switch to radau5 and the last step come along); bytes of another model are refused.
TEST(ModelTable, CopiesAndSerializedSimulationsContinueIdentically) {
  Table rober("rober.eq"), osc("oscillator.eq");
  ASSERT_TRUE(rober.sim && osc.sim);
  eqc_options o = options(EQC_METHOD_AUTO, 1e-6, 1e-10);
  eqc_sim_set_options(rober.sim, &o);
  ASSERT_EQ(eqc_sim_run(rober.sim, 1e3, nullptr, nullptr), EQC_OK);
  eqc_sim *copy = eqc_sim_copy(rober.sim);
  std::vector<unsigned char> bytes(eqc_sim_serialized_size(rober.sim));
  ASSERT_EQ(eqc_sim_serialize(rober.sim, bytes.data(), bytes.size()), EQC_OK);
  eqc_sim *restored = eqc_sim_deserialize(&rober.table->model(), bytes.data(), bytes.size());
  ASSERT_TRUE(copy && restored);
  EXPECT_EQ(eqc_sim_deserialize(&osc.table->model(), bytes.data(), bytes.size()), nullptr);
  EXPECT_EQ(eqc_sim_deserialize(&rober.table->model(), bytes.data(), bytes.size() - 1), nullptr);
  for (eqc_sim *sim : {rober.sim, copy, restored})
    ASSERT_EQ(eqc_sim_run(sim, 1e7, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(sim);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(eqc_sim_states(copy)[i], eqc_sim_states(rober.sim)[i]) << i;
    EXPECT_EQ(eqc_sim_states(restored)[i], eqc_sim_states(rober.sim)[i]) << i;
  }
  EXPECT_EQ(eqc_sim_stats(restored, nullptr)->method_used, EQC_METHOD_RADAU5);
  eqc_sim_free(copy);
  eqc_sim_free(restored);
}


// A simulation starts with the model's experiment Tolerance (oscillator.eq: 1e-8) as rtol and
// atol, as eqc simulate does: the same bits as with those options set.
TEST(ModelTable, SimulationsStartWithTheModelsTolerance) {
  Table own("oscillator.eq"), given("oscillator.eq");
  ASSERT_TRUE(own.sim && given.sim);
  EXPECT_EQ(own.table->model().tolerance, 1e-8);
  eqc_options o;
  eqc_options_default(&o);
  o.rtol = o.atol = 1e-8;
  eqc_sim_set_options(given.sim, &o);
  ASSERT_EQ(eqc_sim_run(own.sim, 5.0, nullptr, nullptr), EQC_OK);
  ASSERT_EQ(eqc_sim_run(given.sim, 5.0, nullptr, nullptr), EQC_OK);
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(eqc_sim_states(own.sim)[i], eqc_sim_states(given.sim)[i]) << i;
}

} // namespace
