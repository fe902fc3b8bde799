// End-to-end: high-index models (seeds 001, 002, 004 and the Cartesian pendulum) simulated as ODEs
// with invariants, against analytic solutions and their conserved quantities.
#include "Run.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <regex>
#include <thread>

using namespace eqc::test;

namespace {



struct Drift {
  double energy = 0, length = 0, velocity = 0;
};

Drift pendulumDrift(const Csv &csv) {
  Drift d;
  const double g = 9.81;
  double e0 = 0;
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double x = csv.at(k, "x"), y = csv.at(k, "y"), vx = csv.at(k, "vx"), vy = csv.at(k, "vy");
    double e = (vx * vx + vy * vy) / 2 + g * y;
    if (k == 0)
      e0 = e;
    d.energy = std::max(d.energy, std::fabs(e - e0));
    d.length = std::max(d.length, std::fabs(x * x + y * y - 1));
    d.velocity = std::max(d.velocity, std::fabs(x * vx + y * vy));
  }
  return d;
}

TEST(IndexReduction, PendulumWithProjectionKeepsEnergyAndLengthFor100s) {
  std::string dir = scratchDir("pendulum_projection");
  RunResult r = runEqc("simulate " + example("pendulum.eq") + " --reduction invariants --t-end 100 --rtol 1e-10 --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("invariants: 3 hidden constraints, stabilization projection"), std::string::npos)
      << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.rows.size(), 10001u);
  Drift d = pendulumDrift(csv);
  EXPECT_LT(d.energy, 1e-6);
  EXPECT_LT(d.length, 1e-9);
  EXPECT_LT(d.velocity, 1e-9);
  // The pendulum released horizontally swings through the bottom (x = 0, y = -1) and back.
  double lowest = 0;
  for (size_t k = 0; k < csv.rows.size(); ++k)
    lowest = std::min(lowest, csv.at(k, "y"));
  EXPECT_LT(lowest, -0.999);
}

TEST(IndexReduction, PendulumWithDummyDerivativesKeepsEnergyFor100s) {
  std::string dir = scratchDir("pendulum_dummy");
  RunResult r = runEqc("simulate " + example("pendulum.eq") + " --t-end 100 --rtol 1e-10 --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  // Released horizontally, x dominates the constraint: y and vy are the first states.
  EXPECT_NE(r.stderrText.find("initial states: y, vy"), std::string::npos) << r.stderrText;
  EXPECT_NE(r.stderrText.find("switch at time"), std::string::npos) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.rows.size(), 10001u); // switches neither lose nor repeat output rows
  for (size_t k = 1; k < csv.rows.size(); ++k)
    ASSERT_NEAR(csv.rows[k][0], 0.01 * k, 1e-9);
  Drift d = pendulumDrift(csv);
  EXPECT_LT(d.energy, 1e-6);
  EXPECT_LT(d.length, 1e-12); // the dummy-derivative system satisfies the constraint exactly
  EXPECT_LT(d.velocity, 1e-11);
}

TEST(IndexReduction, FullRotationCrossesEveryQuadrantAndSwitchesStates) {
  std::string dir = scratchDir("pendulum_rotation");
  RunResult r = runEqc("simulate " + example("pendulum_rotation.eq") + " --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  bool quadrant[2][2] = {{false, false}, {false, false}};
  double angle = 0, previous = std::atan2(csv.at(0, "y"), csv.at(0, "x"));
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double x = csv.at(k, "x"), y = csv.at(k, "y");
    quadrant[x > 0][y > 0] = true;
    double a = std::atan2(y, x), da = a - previous;
    angle += da > M_PI ? da - 2 * M_PI : da < -M_PI ? da + 2 * M_PI : da;
    previous = a;
  }
  EXPECT_TRUE(quadrant[0][0] && quadrant[0][1] && quadrant[1][0] && quadrant[1][1]);
  EXPECT_GT(std::fabs(angle), 4 * M_PI) << "at least two full turns in 5 s";
  Drift d = pendulumDrift(csv);
  EXPECT_LT(d.energy, 1e-5);
  EXPECT_LT(d.length, 1e-12);
  size_t switches = 0;
  for (size_t at = r.stderrText.find("switch at time"); at != std::string::npos;
       at = r.stderrText.find("switch at time", at + 1))
    ++switches;
  EXPECT_GE(switches, 8u) << r.stderrText; // four per turn
}

TEST(IndexReduction, DoublePendulumKeepsEnergyAndBothRodsThroughManySwitches) {
  std::string dir = scratchDir("double_pendulum");
  // Without the cache: with it, cached -O2 code is the only tier and no tier is reported.
  RunResult r = runEqc("simulate " + example("double_pendulum.eq") + " --stats --no-cache -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.rows.size(), 1001u);
  const double g = 9.81;
  double e0 = 0, energy = 0, rods = 0;
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double x1 = csv.at(k, "x1"), y1 = csv.at(k, "y1"), x2 = csv.at(k, "x2"), y2 = csv.at(k, "y2");
    double vx1 = csv.at(k, "vx1"), vy1 = csv.at(k, "vy1"), vx2 = csv.at(k, "vx2"), vy2 = csv.at(k, "vy2");
    double e = (vx1 * vx1 + vy1 * vy1 + vx2 * vx2 + vy2 * vy2) / 2 + g * (y1 + y2);
    if (k == 0)
      e0 = e;
    energy = std::max(energy, std::fabs(e - e0));
    rods = std::max({rods, std::fabs(x1 * x1 + y1 * y1 - 1),
                     std::fabs((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1) - 1)});
  }
  EXPECT_LT(energy, 1e-5);
  EXPECT_LT(rods, 1e-12);
  EXPECT_NE(r.stderrText.find("initial states: y1, y2, vy1, vy2"), std::string::npos) << r.stderrText;
  size_t switches = 0;
  for (size_t at = r.stderrText.find("switch at time"); at != std::string::npos;
       at = r.stderrText.find("switch at time", at + 1))
    ++switches;
  EXPECT_GE(switches, 5u);
  // --stats reports the tiers of the code that ran (the state selections'), not the base model's.
  if (std::thread::hardware_concurrency() >= 2) {
    EXPECT_TRUE(std::regex_search(r.stderrText, std::regex("optimized tiers \\(-O2, in the background\\) of the [0-9]+ "
                                                             "state selections: [0-9]+ in use")))
        << r.stderrText;
  }
  EXPECT_EQ(r.stderrText.find("optimized tier (-O2"), std::string::npos) << r.stderrText;
}

TEST(IndexReduction, Seed001DaeWithDummyDerivativesHasNoStates) {
  std::string dir = scratchDir("seed001_dummy");
  RunResult r = runEqc("simulate " + example("seed001_dae.eq") + " --reduction dummy --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("initial states: (none)"), std::string::npos) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 0; k < csv.rows.size(); ++k)
    for (int i = 1; i <= 6; ++i)
      ASSERT_NEAR(csv.at(k, "x" + std::to_string(i)), chainExact(i, csv.at(k, "time")), 1e-8);
}

TEST(IndexReduction, PendulumWithBaumgarteStaysOnTheConstraint) {
  std::string dir = scratchDir("pendulum_baumgarte");
  RunResult r = runEqc("simulate " + example("pendulum.eq") +
                           " --reduction invariants --stabilize baumgarte --eta 1 --omega 10 --t-end 10 -o out.csv",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Drift d = pendulumDrift(readCsv(dir + "/out.csv"));
  EXPECT_LT(d.length, 1e-8);
  EXPECT_LT(d.energy, 1e-5);
}

TEST(IndexReduction, PendulumWithoutStabilizationDriftsMoreThanWithIt) {
  std::string dir = scratchDir("pendulum_none");
  RunResult none = runEqc("simulate " + example("pendulum.eq") + " --stabilize none --rtol 1e-6 --t-end 20 -o none.csv", dir);
  RunResult proj = runEqc("simulate " + example("pendulum.eq") + " --stabilize projection --rtol 1e-6 --t-end 20 -o proj.csv", dir);
  ASSERT_EQ(none.exitCode, 0) << none.stderrText;
  ASSERT_EQ(proj.exitCode, 0) << proj.stderrText;
  double driftNone = pendulumDrift(readCsv(dir + "/none.csv")).length;
  double driftProj = pendulumDrift(readCsv(dir + "/proj.csv")).length;
  EXPECT_GT(driftNone, 100 * driftProj);
  EXPECT_LT(driftProj, 1e-9);
}


TEST(IndexReduction, Seed001DaeMatchesTheAnalyticSolutionAtT20) {
  std::string dir = scratchDir("seed001");
  RunResult r = runEqc("simulate " + example("seed001_dae.eq") +
                           " --reduction invariants --stabilize projection -o out.csv",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 0; k < csv.rows.size(); ++k)
    for (int i = 1; i <= 6; ++i)
      ASSERT_NEAR(csv.at(k, "x" + std::to_string(i)), chainExact(i, csv.at(k, "time")), 1e-8)
          << "x" << i << " at t = " << csv.at(k, "time");
  EXPECT_DOUBLE_EQ(csv.rows.back()[0], 20.0);
}

TEST(IndexReduction, Seed004HiddenConstraintsHoldWithBaumgarte) {
  std::string dir = scratchDir("seed004");
  RunResult r = runEqc("simulate " + example("seed004.eq") + " --stabilize baumgarte --eta 1 --omega 10 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double alpha = 0.5, eta = 1;
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double t = csv.at(k, "time"), x = csv.at(k, "x"), y = csv.at(k, "y"), z = csv.at(k, "z");
    // The constraint and its (correct) derivative.
    EXPECT_NEAR(y * (1 - y / 2) + z, 0, 1e-8) << "t = " << t;
    EXPECT_NEAR(1 + y * ((1 - alpha) * x - t - eta), 0, 1e-8) << "t = " << t;
    // x_dot from C'' = 0: (y'^2 + y + (alpha x + eta) y') / (y (1 - alpha)) with y' = t - x.
    double yp = t - x;
    EXPECT_NEAR(csv.at(k, "x_dot"), (yp * yp + y + (alpha * x + eta) * yp) / (y * (1 - alpha)), 1e-6) << "t = " << t;
  }
}

// The small DAEs of seed 002, whose equations the text lost.
TEST(IndexReduction, Seed002DaeTwoIsAnOdeInX2) {
  std::string dir = scratchDir("seed002_2");
  writeFile(dir + "/dae2.eq", "model Dae2\n  Real x1, x2(start = 0.5, fixed = true);\nequation\n"
                              "  x1 - sin(time) = 0;\n  der(x2) - x1 = 0;\nend Dae2;\n");
  RunResult r = runEqc("simulate dae2.eq --t-end 3 --rtol 1e-10 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double t = csv.at(k, "time");
    EXPECT_NEAR(csv.at(k, "x1"), std::sin(t), 1e-12);
    EXPECT_NEAR(csv.at(k, "x2"), 0.5 + 1 - std::cos(t), 1e-8);
  }
}

TEST(IndexReduction, Seed002DaeThreeHasTheUniqueSolutionUPrime) {
  std::string dir = scratchDir("seed002_3");
  writeFile(dir + "/dae3.eq", "model Dae3\n  Real x1, x2;\nequation\n"
                              "  x2 - sin(time) = 0;\n  x1 - der(x2) = 0;\nend Dae3;\n");
  RunResult r = runEqc("simulate dae3.eq --t-end 3 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double t = csv.at(k, "time");
    EXPECT_NEAR(csv.at(k, "x1"), std::cos(t), 1e-9);
    EXPECT_NEAR(csv.at(k, "x2"), std::sin(t), 1e-9);
  }
}

TEST(IndexReduction, EveryStateFixedAndConsistentNeedsNoProjection) {
  std::string dir = scratchDir("all_fixed");
  writeFile(dir + "/fixed.eq", "model Fixed\n  Real x(start = 0, fixed = true), y;\nequation\n"
                               "  der(x) = y;\n  x = sin(time);\nend Fixed;\n");
  for (const char *reduction : {"dummy", "invariants"}) {
    RunResult r = runEqc(std::string("simulate fixed.eq --t-end 2 --reduction ") + reduction + " -o out.csv", dir);
    ASSERT_EQ(r.exitCode, 0) << reduction << ": " << r.stderrText;
    Csv csv = readCsv(dir + "/out.csv");
    for (size_t k = 0; k < csv.rows.size(); ++k) {
      EXPECT_NEAR(csv.at(k, "x"), std::sin(csv.at(k, "time")), 1e-8) << reduction;
      EXPECT_NEAR(csv.at(k, "y"), std::cos(csv.at(k, "time")), 1e-8) << reduction;
    }
  }
}

/// The pendulum in Cartesian coordinates with `y = -0.6` as an initial equation (vy's start
/// value `vyStart`); the caller adds initial equations and the end.
static std::string pendulumWithInitialY(const std::string &vyStart) {
  return R"(model PendulumInit
  parameter Real L = 1, g = 9.81;
  Real x(start = 1), y(start = 0);
  Real vx(start = 0), vy)" + vyStart + R"(;
  Real lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
initial equation
  y = -0.6;
)";
}

TEST(IndexReduction, InitialEquationsOnStatesJoinTheConstraintsOfTheInitialPoint) {
  std::string dir = scratchDir("initial_equations");
  std::string model = pendulumWithInitialY("") + "  vy = 0;\n";
  writeFile(dir + "/init.eq", model + "end PendulumInit;\n");
  RunResult r = runEqc("simulate init.eq --t-end 1 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_NEAR(csv.at(0, "x"), 0.8, 1e-12); // the start value x = 1 moved onto the circle
  EXPECT_NEAR(csv.at(0, "y"), -0.6, 1e-12);
  EXPECT_NEAR(csv.at(0, "vx"), 0, 1e-12);
  EXPECT_NEAR(csv.at(0, "lambda"), 9.81 * 0.6, 1e-9); // at rest the rod carries the weight
}

// MLS 8.6: initial equations may involve any variable. After index reduction the multiplier is
// computed by an algebraic loop of the ODE (not a state, nor explicit in them): the constraint
// reads the ODE, and its Jacobian is taken by differences. With y = -0.6 and lambda = 9 given,
// the rod's tension fixes the speed: lambda L^2 = vx^2 + vy^2 - g y and x vx + y vy = 0, so
// vx = 0.75 vy, vy = sqrt((9 - 0.6 g) / 1.5625) (the branch near the start value vy = 1).
TEST(IndexReduction, InitialEquationsMayInvolveWhatAnAlgebraicLoopComputes) {
  std::string dir = scratchDir("initial_equations_loop");
  std::string model = pendulumWithInitialY("(start = 1)");
  writeFile(dir + "/tension.eq", model + "  lambda = 9;\nend PendulumInit;\n");
  RunResult r = runEqc("simulate tension.eq --t-end 1 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double vy = std::sqrt((9 - 0.6 * 9.81) / 1.5625);
  EXPECT_NEAR(csv.at(0, "x"), 0.8, 1e-10);
  EXPECT_NEAR(csv.at(0, "y"), -0.6, 1e-10);
  EXPECT_NEAR(csv.at(0, "vy"), vy, 1e-7);
  EXPECT_NEAR(csv.at(0, "vx"), 0.75 * vy, 1e-7);
  EXPECT_NEAR(csv.at(0, "lambda"), 9, 1e-7);
  // Three conditions for two degrees of freedom that disagree (at rest the tension is 0.6 g):
  // refused at the initial equation that cannot hold.
  writeFile(dir + "/bad.eq", model + "  vy = 0;\n  lambda = 3;\nend PendulumInit;\n");
  RunResult bad = runEqc("simulate bad.eq -o out2.csv", dir);
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_TRUE(std::regex_search(bad.stderrText, std::regex("bad\\.eq:1[1-3]:3: error: at time 0: no consistent initial "
                                                          "values: initial equation [1-3] cannot be satisfied")))
      << bad.stderrText;
  EXPECT_NE(bad.stderrText.find("the model has 2 degrees of freedom"), std::string::npos) << bad.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out2.csv"));
}

TEST(IndexReduction, InconsistentFixedValuesAreReportedAtTheConstraint) {
  std::string dir = scratchDir("inconsistent");
  writeFile(dir + "/bad.eq", R"(model Bad
  parameter Real L = 1, g = 9.81;
  Real x(start = 2, fixed = true), y(start = 0, fixed = true);
  Real vx, vy, lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
end Bad;
)");
  RunResult r = runEqc("simulate bad.eq -o out.csv", dir);
  EXPECT_EQ(r.exitCode, 5);
  EXPECT_NE(r.stderrText.find("bad.eq:8:3: error: at time 0: no consistent initial values: equation 5 cannot be "
                              "satisfied"),
            std::string::npos)
      << r.stderrText;
  EXPECT_NE(r.stderrText.find("with the fixed start values x = 2, y = 0"), std::string::npos) << r.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.csv"));
}

} // namespace

// Seed 002's "not SA-friendly" class: a constant, rank-deficient capacitance matrix whose rows are
// negatives of each other. The Σ-method sees index 0; the hidden constraint is 0 = f1 + f2, i.e.
// y1 + y2 = sin t, and then 2 C1 y1' = C1 cos t - y1 + sin t. With C1 = 2 and y1(0) = 0:
// y1 = -2/17 cos t + 9/17 sin t + 2/17 exp(-t/4), y2 = sin t - y1 (variation of constants).
const char *kSingularCapacitance = R"(model Amp "rows of the capacitance matrix are negatives of each other"
  parameter Real C1 = 2;
  Real y1(start = 0, fixed = true), y2(start = 0);
equation
  -C1*der(y1) + C1*der(y2) = y1 - sin(time);
  C1*der(y1) - C1*der(y2) = y2;
  annotation(experiment(StopTime = 10, Tolerance = 1e-8, Interval = 0.1));
end Amp;
)";

void expectAmplifierSolution(const Csv &csv, double tol) {
  ASSERT_EQ(csv.rows.size(), 101u);
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double t = csv.at(k, "time");
    double y1 = -2.0 / 17 * std::cos(t) + 9.0 / 17 * std::sin(t) + 2.0 / 17 * std::exp(-t / 4);
    ASSERT_NEAR(csv.at(k, "y1"), y1, tol) << "t = " << t;
    ASSERT_NEAR(csv.at(k, "y2"), std::sin(t) - y1, tol) << "t = " << t;
  }
}

TEST(IndexReduction, SingularCapacitanceMatrixIsConvertedAndRunsWithDefaults) {
  std::string dir = scratchDir("amp_default");
  writeFile(dir + "/amp.eq", kSingularCapacitance);
  RunResult r = runEqc("simulate amp.eq -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  expectAmplifierSolution(readCsv(dir + "/out.csv"), 1e-6); // rtol 1e-8: the global error stays below 100 rtol
}

TEST(IndexReduction, SingularCapacitanceMatrixRunsAsOdeWithInvariants) {
  std::string dir = scratchDir("amp_invariants");
  writeFile(dir + "/amp.eq", kSingularCapacitance);
  RunResult r = runEqc("simulate amp.eq --reduction invariants --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("invariants: 1 hidden constraints"), std::string::npos) << r.stderrText;
  expectAmplifierSolution(readCsv(dir + "/out.csv"), 1e-6); // rtol 1e-8: the global error stays below 100 rtol
}

TEST(IndexReduction, SingularCapacitanceConversionIsShownByReduce) {
  std::string dir = scratchDir("amp_reduce");
  writeFile(dir + "/amp.eq", kSingularCapacitance);
  RunResult r = runEqc("reduce amp.eq", dir, dir + "/report.txt");
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  std::ifstream in(dir + "/report.txt");
  std::string report((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(report.find("equation 2 := equation 2 + equation 1  0 = y1 + y2 - sin(time)"), std::string::npos) << report;
}

TEST(IndexReduction, DependentRowsAreAnErrorNamingTheCombination) {
  std::string dir = scratchDir("dependent_rows");
  writeFile(dir + "/dep.eq", "model Dep\n  Real x, y;\nequation\n  der(x) + der(y) = x;\n"
                             "  2*der(x) + 2*der(y) = 2*x;\nend Dep;\n");
  RunResult r = runEqc("simulate dep.eq -o out.csv", dir);
  EXPECT_EQ(r.exitCode, 4) << r.stderrText;
  EXPECT_NE(r.stderrText.find("dep.eq:5:3: error: equation 2 is a combination of other equations that leaves no "
                              "unknown: equation 2 + (-2)*equation 1 gives 0 = 0"),
            std::string::npos)
      << r.stderrText;
}

TEST(IndexReduction, PendulumAsOdeWithInvariantsMatchesDummyDerivatives) {
  // Two methods: the seeds' ODE in x, y, vx, vy, lambda with projection, and dummy derivatives.
  std::string dir = scratchDir("pendulum_two_methods");
  RunResult a = runEqc("simulate " + example("pendulum.eq") + " --reduction invariants --rtol 1e-10 -o inv.csv", dir);
  RunResult b = runEqc("simulate " + example("pendulum.eq") + " --rtol 1e-10 -o dd.csv", dir);
  ASSERT_EQ(a.exitCode, 0) << a.stderrText;
  ASSERT_EQ(b.exitCode, 0) << b.stderrText;
  Csv inv = readCsv(dir + "/inv.csv"), dd = readCsv(dir + "/dd.csv");
  ASSERT_EQ(inv.rows.size(), dd.rows.size());
  for (size_t k = 0; k < inv.rows.size(); ++k)
    for (const char *v : {"x", "y", "vx", "vy", "lambda"})
      ASSERT_NEAR(inv.at(k, v), dd.at(k, v), 1e-6 * (1 + std::fabs(dd.at(k, v)))) << v << " at row " << k;
}

// Events and index 2 (issue 15, situation 5): two pipes in series between two tanks, q1 = q2, with a
// friction law that switches between laminar and turbulent at |q| = qc. The pressure pm between
// the pipes needs one differentiation of q1 = q2. The independent reference is the same network
// reduced by hand to one pipe of length L1 + L2 with both frictions (an index-1 model).
const char *kTwoPipes = R"(model TwoPipes "two pipes in series between two tanks"
  parameter Real A1 = 1, A2 = 0.5, g = 9.81, L1 = 2, L2 = 3, k = 0.5, qc = 0.3;
  Real h1(start = 2, fixed = true), h2(start = 0.5, fixed = true);
  Real q1(start = 0, fixed = true), q2, pm;
equation
  A1*der(h1) = -q1;
  A2*der(h2) = q2;
  L1*der(q1) = g*h1 - pm - (if abs(q1) > qc then k*q1*abs(q1) else k*qc*q1);
  L2*der(q2) = pm - g*h2 - (if abs(q2) > qc then k*q2*abs(q2) else k*qc*q2);
  q1 = q2;
  annotation(experiment(StopTime = 30, Tolerance = 1e-10, Interval = 0.1));
end TwoPipes;
)";
const char *kOnePipe = R"(model OnePipe "the two pipes merged by hand"
  parameter Real A1 = 1, A2 = 0.5, g = 9.81, L1 = 2, L2 = 3, k = 0.5, qc = 0.3;
  Real h1(start = 2, fixed = true), h2(start = 0.5, fixed = true);
  Real q(start = 0, fixed = true);
equation
  A1*der(h1) = -q;
  A2*der(h2) = q;
  (L1 + L2)*der(q) = g*h1 - g*h2 - 2*(if abs(q) > qc then k*q*abs(q) else k*qc*q);
  annotation(experiment(StopTime = 30, Tolerance = 1e-10, Interval = 0.1));
end OnePipe;
)";

TEST(IndexReduction, IndexTwoNetworkWithFrictionEventsRunsWithDefaults) {
  std::string dir = scratchDir("two_pipes");
  writeFile(dir + "/pipes.eq", kTwoPipes);
  writeFile(dir + "/pipe.eq", kOnePipe);
  RunResult a = runEqc("simulate pipes.eq --stats -o pipes.csv", dir);
  RunResult b = runEqc("simulate pipe.eq -o pipe.csv", dir);
  ASSERT_EQ(a.exitCode, 0) << a.stderrText;
  ASSERT_EQ(b.exitCode, 0) << b.stderrText;
  // Dummy derivatives handle the events themselves (issue 15, item 4), without a fall-back.
  EXPECT_NE(a.stderrText.find("dummy derivatives: 1 state selection compiled"), std::string::npos) << a.stderrText;
  EXPECT_EQ(a.stderrText.find("fell back"), std::string::npos) << a.stderrText;
  Csv pipes = readCsv(dir + "/pipes.csv"), pipe = readCsv(dir + "/pipe.csv");
  // The grid rows (events add rows of their own): rtol 1e-10 in both, compared at 1e-8.
  size_t j = 0, compared = 0;
  for (size_t k = 0; k < pipes.rows.size(); ++k) {
    double t = pipes.at(k, "time");
    while (j < pipe.rows.size() && pipe.at(j, "time") < t - 1e-12)
      ++j;
    if (j == pipe.rows.size() || std::fabs(pipe.at(j, "time") - t) > 1e-12 || std::fabs(t * 10 - std::round(t * 10)) > 1e-9)
      continue;
    ++compared;
    ASSERT_NEAR(pipes.at(k, "h1"), pipe.at(j, "h1"), 1e-8) << "t = " << t;
    ASSERT_NEAR(pipes.at(k, "h2"), pipe.at(j, "h2"), 1e-8) << "t = " << t;
    ASSERT_NEAR(pipes.at(k, "q1"), pipe.at(j, "q"), 1e-8) << "t = " << t;
    ASSERT_NEAR(pipes.at(k, "q2"), pipe.at(j, "q"), 1e-8) << "t = " << t;
  }
  EXPECT_GE(compared, 301u);
  // Every switch of the merged pipe is a switch of both pipes.
  std::vector<double> mine = eventTimes(pipes), reference = eventTimes(pipe);
  ASSERT_GE(reference.size(), 20u);
  for (double t : reference)
    EXPECT_TRUE(std::any_of(mine.begin(), mine.end(), [t](double u) { return std::fabs(u - t) < 1e-8; })) << t;
}

// The pendulum in its index-2 form (the velocity constraint x vx + y vy = 0 only; issue 15,
// situation 4): dummy derivatives keep the positions as states (a velocity-level constraint solved
// for a position determines it only while the velocity is away from zero) and follow the index-3
// pendulum, the independent reference, while the length drifts only at the tolerance's level.
/// The state selections `--stats` lists: "initial states: x, y, vy" and each switch's "-> x, y, vx".
static std::vector<std::string> selectedStates(const std::string &stats) {
  std::vector<std::string> selections;
  std::istringstream lines(stats);
  for (std::string line; std::getline(lines, line);) {
    size_t initial = line.find("initial states: "), arrow = line.rfind(" -> ");
    if (initial != std::string::npos)
      selections.push_back(line.substr(initial + 16));
    else if (arrow != std::string::npos)
      selections.push_back(line.substr(arrow + 4));
  }
  return selections;
}

TEST(IndexReduction, IndexTwoPendulumKeepsPositionsAsStates) {
  std::string dir = scratchDir("pendulum_index2");
  writeFile(dir + "/pend2.eq", R"(model Pendulum2 "the Cartesian pendulum in index-2 form"
  parameter Real L = 1, g = 9.81;
  Real x(start = 1, fixed = true), y(start = 0, fixed = true);
  Real vx(start = 0, fixed = true), vy;
  Real lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x*vx + y*vy = 0;
  annotation(experiment(StopTime = 10, Tolerance = 1e-10, Interval = 0.01));
end Pendulum2;
)");
  RunResult a = runEqc("simulate pend2.eq --stats -o pend2.csv", dir);
  RunResult b = runEqc("simulate " + example("pendulum.eq") + " --rtol 1e-10 -o pend3.csv", dir);
  ASSERT_EQ(a.exitCode, 0) << a.stderrText;
  ASSERT_EQ(b.exitCode, 0) << b.stderrText;
  // "initial states: x, y, vy" and "switch at time ...: states x, y, vy -> x, y, vx".
  std::vector<std::string> selections = selectedStates(a.stderrText);
  for (const std::string &states : selections)
    EXPECT_EQ(states.rfind("x, y, ", 0), 0u) << states;
  EXPECT_GE(selections.size(), 2u);
  Csv two = readCsv(dir + "/pend2.csv"), three = readCsv(dir + "/pend3.csv");
  ASSERT_EQ(two.rows.size(), three.rows.size());
  for (size_t k = 0; k < two.rows.size(); ++k) {
    for (const char *v : {"x", "y", "vx", "vy"})
      ASSERT_NEAR(two.at(k, v), three.at(k, v), 1e-5) << v << " at t = " << two.at(k, "time");
    ASSERT_NEAR(std::hypot(two.at(k, "x"), two.at(k, "y")), 1, 1e-8) << "t = " << two.at(k, "time");
  }
}

// Issue 15's slider-crank class: a mechanism in its index-2 form (velocity constraints only),
// where dummy derivatives once solved a velocity constraint for a position and Newton failed at
// t = 0.007. Crank pin (xa, ya) of mass m1 on a massless crank r about the origin, a slider xb of
// mass m2 on the x axis, a massless rod l; gravity on the pin; the crank turns six times in 5 s.
// The reference is the same mechanism in its crank angle (index 0, Lagrange's equation
// (m1 r^2 + m2 J^2) th'' = -m2 J J' th'^2 - m1 g r cos th with J = d xb/d th, derived by hand and
// checked by central differences). Measured: 3.2e-8 (dummy derivatives, 24 switches between the
// velocity states vxb and vya, the positions always states) and 1.6e-8 (invariants) at rtol 1e-10.
TEST(IndexReduction, SliderCrankInIndexTwoFormKeepsPositionsAndMatchesItsAngleForm) {
  std::string dir = scratchDir("slider_crank_index2");
  const char *params =
      "  parameter Real r = 1, l = 2, m1 = 1, m2 = 2, g = 9.81, th0 = 0.7853981633974483, w0 = 6;\n";
  const char *experiment = "  annotation(experiment(StopTime = 5, Tolerance = 1e-10, Interval = 0.01));\n";
  writeFile(dir + "/sc2.eq", std::string("model SliderCrank2\n") + params + R"(
  Real xa(start = r*cos(th0), fixed = true), ya(start = r*sin(th0), fixed = true);
  Real xb(start = r*cos(th0) + sqrt(l^2 - (r*sin(th0))^2), fixed = true);
  Real vxa(start = -r*sin(th0)*w0, fixed = true), vya, vxb;
  Real la1, la2;
equation
  der(xa) = vxa;  der(ya) = vya;  der(xb) = vxb;
  m1*der(vxa) = -2*xa*la1 + 2*(xb - xa)*la2;
  m1*der(vya) = -2*ya*la1 - 2*ya*la2 - m1*g;
  m2*der(vxb) = -2*(xb - xa)*la2;
  xa*vxa + ya*vya = 0;
  (xb - xa)*(vxb - vxa) + ya*vya = 0;
)" + experiment + "end SliderCrank2;\n");
  writeFile(dir + "/angle.eq", std::string("model SliderCrankAngle\n") + params + R"(
  Real th(start = th0, fixed = true), w(start = w0, fixed = true);
  Real s = sin(th), c = cos(th), D = sqrt(l^2 - (r*s)^2);
  Real J = -r*s - r^2*s*c/D, Jp = -r*c - r^2*(c^2 - s^2)/D - r^4*s^2*c^2/D^3;
  Real xa = r*c, ya = r*s, xb = r*c + D;
equation
  der(th) = w;
  (m1*r^2 + m2*J^2)*der(w) = -m2*J*Jp*w^2 - m1*g*r*c;
)" + experiment + "end SliderCrankAngle;\n");
  RunResult dummy = runEqc("simulate sc2.eq --stats -o dummy.csv", dir);
  RunResult invariants = runEqc("simulate sc2.eq --reduction invariants -o invariants.csv", dir);
  RunResult angle = runEqc("simulate angle.eq -o angle.csv", dir);
  ASSERT_EQ(dummy.exitCode, 0) << dummy.stderrText;
  ASSERT_EQ(invariants.exitCode, 0) << invariants.stderrText;
  ASSERT_EQ(angle.exitCode, 0) << angle.stderrText;
  // Every selection keeps the three positions: "initial states: xa, ya, xb, vxb", "-> xa, ya, xb, vya".
  std::vector<std::string> selections = selectedStates(dummy.stderrText);
  for (const std::string &states : selections)
    EXPECT_EQ(states.rfind("xa, ya, xb, ", 0), 0u) << states;
  EXPECT_GE(selections.size(), 10u) << dummy.stderrText;
  EXPECT_EQ(dummy.stderrText.find("fell back"), std::string::npos) << dummy.stderrText;
  Csv reference = readCsv(dir + "/angle.csv");
  EXPECT_GT(reference.at(reference.rows.size() - 1, "th"), 0.7853981633974483 + 10 * M_PI);
  for (const char *file : {"dummy.csv", "invariants.csv"}) {
    Csv run = readCsv(dir + "/" + file);
    ASSERT_EQ(run.rows.size(), reference.rows.size()) << file;
    for (size_t k = 0; k < run.rows.size(); ++k) {
      for (const char *v : {"xa", "ya", "xb"})
        ASSERT_NEAR(run.at(k, v), reference.at(k, v), 1e-6) << file << ": " << v << " at t = " << run.at(k, "time");
      double xa = run.at(k, "xa"), ya = run.at(k, "ya"), xb = run.at(k, "xb");
      ASSERT_NEAR(xa * xa + ya * ya, 1, 1e-7) << file << " at t = " << run.at(k, "time");
      ASSERT_NEAR((xb - xa) * (xb - xa) + ya * ya, 4, 1e-7) << file << " at t = " << run.at(k, "time");
    }
  }
}

// The pendulum in Cartesian coordinates and in its angle (index 0, the independent reference):
// x = L sin(th), y = -L cos(th), vx = L cos(th) w, vy = L sin(th) w.
const char *kPendulumAngle = R"(model PendulumAngle
  parameter Real L = 1, g = 9.81, d = 0.5, e = 0.8;
  parameter Real th0 = 0, w0 = 0, wall = 0;
  Real th(start = th0, fixed = true), w(start = w0, fixed = true);
  Real x = L*sin(th), y = -L*cos(th);
equation
  der(th) = w;
  der(w) = -g/L*sin(th);
  when wall > 0 and x < -d then
    reinit(w, -e*pre(w));
  end when;
  annotation(experiment(StopTime = 3, Tolerance = 1e-10, Interval = 0.01));
end PendulumAngle;
)";

/// The Cartesian pendulum going over the top (vx = 8 at the bottom), x with `xAttributes`.
static std::string loopingPendulum(const std::string &xAttributes) {
  return R"(model Looping "the Cartesian pendulum going over the top"
  parameter Real L = 1, g = 9.81;
  Real x(start = 0, fixed = true)" +
         xAttributes + R"(), y(start = -1);
  Real vx(start = 8, fixed = true), vy;
  Real lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  annotation(experiment(StopTime = 3, Tolerance = 1e-10, Interval = 0.01));
end Looping;
)";
}

/// The largest |a - b| of `var` over the grid rows that both files have (events add rows of their own).
static double largestDifference(const Csv &a, const Csv &b, const std::string &var, size_t &compared) {
  double worst = 0;
  compared = 0;
  size_t j = 0;
  for (size_t k = 0; k < a.rows.size(); ++k) {
    double t = a.at(k, "time");
    while (j < b.rows.size() && b.at(j, "time") < t - 1e-12)
      ++j;
    if (j == b.rows.size() || b.at(j, "time") != t || std::fabs(t * 100 - std::round(t * 100)) > 1e-9)
      continue;
    ++compared;
    worst = std::max(worst, std::fabs(a.at(k, var) - b.at(j, var)));
  }
  return worst;
}

// A reinit of a variable that is a dummy of the active state selection (issue 15, item 4): the
// pendulum rebounds from a wall at x = -d with `reinit(vy, -e*pre(vy))`, and at the wall the states
// are x, vx (vy is computed from the velocity constraint). The event holds the new vy and moves
// the other states onto the hidden constraints, positions held (they are continuous across an
// impulse): vx = -y vy / x, so the velocity reverses along the rod's circle as w -> -e w does in
// the angle form. Same with the ODE with invariants (a reinit of a state followed by projection).
TEST(IndexReduction, ReinitOfADummyReprojectsHoldingTheValueItSets) {
  std::string dir = scratchDir("pendulum_wall");
  writeFile(dir + "/wall.eq", R"(model PendulumWall "the Cartesian pendulum rebounding from a wall at x = -d"
  parameter Real L = 1, g = 9.81, d = 0.5, e = 0.8;
  Real x(start = 0.8, fixed = true), y(start = -0.6);
  Real vx(start = 0, fixed = true), vy;
  Real lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  when x < -d then
    reinit(vy, -e*pre(vy));
  end when;
  annotation(experiment(StopTime = 3, Tolerance = 1e-10, Interval = 0.01));
end PendulumWall;
)");
  writeFile(dir + "/angle.eq", kPendulumAngle);
  RunResult ref = runEqc("simulate angle.eq -p th0=0.9272952180016122 -p wall=1 -o angle.csv", dir);
  ASSERT_EQ(ref.exitCode, 0) << ref.stderrText;
  Csv angle = readCsv(dir + "/angle.csv");
  std::vector<double> reference = eventTimes(angle);
  ASSERT_EQ(reference.size(), 2u);
  for (const char *reduction : {"dummy", "invariants"}) {
    RunResult r = runEqc(std::string("simulate wall.eq --stats --reduction ") + reduction + " -o " + reduction + ".csv", dir);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText;
    Csv wall = readCsv(dir + "/" + reduction + ".csv");
    std::vector<double> times = eventTimes(wall);
    ASSERT_EQ(times.size(), reference.size()) << reduction << "\n" << r.stderrText;
    for (size_t i = 0; i < times.size(); ++i)
      EXPECT_NEAR(times[i], reference[i], 1e-8) << reduction << ", rebound " << i + 1;
    size_t compared;
    EXPECT_LT(largestDifference(wall, angle, "x", compared), 1e-7) << reduction;
    EXPECT_GE(compared, 290u);
    EXPECT_LT(largestDifference(wall, angle, "y", compared), 1e-7) << reduction;
    if (std::string(reduction) == "dummy") {
      // vy was a dummy at the first rebound: the selection in effect then is x, vx.
      std::istringstream lines(r.stderrText);
      std::string states;
      for (std::string line; std::getline(lines, line);) {
        size_t initial = line.find("initial states: "), at = line.find("switch at time "), arrow = line.rfind(" -> ");
        if (initial != std::string::npos)
          states = line.substr(initial + 16);
        else if (at != std::string::npos && arrow != std::string::npos && std::stod(line.substr(at + 15)) < times[0])
          states = line.substr(arrow + 4);
      }
      EXPECT_EQ(states, "x, vx") << r.stderrText;
      EXPECT_EQ(r.stderrText.find("fell back"), std::string::npos) << r.stderrText;
    }
  }
}

// stateSelect = always is never given up (MLS §4.8.8.1): the pendulum going over the top with x
// always a state has no such selection where x = ±L, so the run falls back to the ODE with
// invariants (every candidate a state, projection after every step), says so in --stats, and
// follows the angle form.
TEST(IndexReduction, StateSelectAlwaysFallsBackToTheOdeWithInvariants) {
  std::string dir = scratchDir("pendulum_always");
  writeFile(dir + "/loop.eq", loopingPendulum(", stateSelect = StateSelect.always"));
  writeFile(dir + "/angle.eq", kPendulumAngle);
  RunResult ref = runEqc("simulate angle.eq -p w0=8 -o angle.csv", dir);
  RunResult r = runEqc("simulate loop.eq --stats -o loop.csv", dir);
  ASSERT_EQ(ref.exitCode, 0) << ref.stderrText;
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("fell back at time 0.15"), std::string::npos) << r.stderrText;
  EXPECT_NE(r.stderrText.find("no state selection keeps 'x' (stateSelect = always) a state here"), std::string::npos)
      << r.stderrText;
  EXPECT_NE(r.stderrText.find("dummy derivatives, then projection from time"), std::string::npos) << r.stderrText;
  Csv loop = readCsv(dir + "/loop.csv"), angle = readCsv(dir + "/angle.csv");
  size_t compared;
  EXPECT_LT(largestDifference(loop, angle, "x", compared), 1e-7);
  EXPECT_EQ(compared, 301u);
  EXPECT_LT(largestDifference(loop, angle, "y", compared), 1e-7);
}

// Without stateSelect the same looping pendulum switches between (x, vx) and (y, vy) twice per
// turn and follows the angle form too.
TEST(IndexReduction, LoopingPendulumSwitchesStatesTwicePerTurn) {
  std::string dir = scratchDir("pendulum_loop");
  writeFile(dir + "/loop.eq", loopingPendulum(""));
  writeFile(dir + "/angle.eq", kPendulumAngle);
  RunResult ref = runEqc("simulate angle.eq -p w0=8 -o angle.csv", dir);
  RunResult r = runEqc("simulate loop.eq --stats -o loop.csv", dir);
  ASSERT_EQ(ref.exitCode, 0) << ref.stderrText;
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("12 switches"), std::string::npos) << r.stderrText;
  Csv loop = readCsv(dir + "/loop.csv"), angle = readCsv(dir + "/angle.csv");
  size_t compared;
  EXPECT_LT(largestDifference(loop, angle, "x", compared), 1e-7);
  EXPECT_EQ(compared, 301u);
  EXPECT_LT(largestDifference(loop, angle, "y", compared), 1e-7);
}

// A steady-state start (der(y) = 0) in a model that needs index reduction: the initial equation
// is rewritten in the states through the ODE's explicit assignments, and the condition of the
// source (time < 0.5) holds what it holds at the start time while the start point is projected:
// x = y = r(0) = 2, u = y + der(y) = 2, as MSL's blocks with Init.SteadyState expect.
TEST(IndexReduction, SteadyStateStartThroughTheOdeAndTheStartConditions) {
  std::string dir = scratchDir("index_steady_start");
  writeFile(dir + "/m.mo", R"(model SteadyTrack
  Real x(start = 0), y(start = 0), u;
  Real r = if time < 0.5 then 2 else 3;
equation
  der(x) = 5*(r - x);
  y = x;
  der(y) = -y + u;
initial equation
  der(y) = 0;
end SteadyTrack;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 1 --rtol 1e-10 --atol 1e-10", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_NEAR(csv.at(0, "x"), 2.0, 1e-9);
  EXPECT_NEAR(csv.at(0, "y"), 2.0, 1e-9);
  EXPECT_NEAR(csv.at(0, "u"), 2.0, 1e-9);
  // After the step to 3 at 0.5: x = 3 - e^(-5 (t - 0.5)).
  const size_t last = csv.rows.size() - 1;
  EXPECT_NEAR(csv.at(last, "x"), 3 - std::exp(-2.5), 1e-6);
  // The same start in the ODE with invariants (the runtime's projection of the start point).
  r = runEqc("simulate m.mo -o inv.csv --t-end 1 --reduction invariants --rtol 1e-10 --atol 1e-10", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv inv = readCsv(dir + "/inv.csv");
  EXPECT_NEAR(inv.at(0, "x"), 2.0, 1e-9);
  EXPECT_NEAR(inv.at(0, "u"), 2.0, 1e-9);
}
