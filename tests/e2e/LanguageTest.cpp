// End-to-end: arrays and for-equations, components and connectors from examples/lib, functions,
// and events, each simulated and compared with an analytic solution or a reference run.
#include "Run.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <tuple>

using namespace eqc::test;

namespace {

const double kPi = 3.141592653589793;

std::string lib() { return "--lib " + std::string(EQC_SOURCE_DIR) + "/examples/lib"; }

/// A root of f in [a, b] by bisection (f(a), f(b) of opposite signs).
double bisect(const std::function<double(double)> &f, double a, double b) {
  for (int k = 0; k < 200; ++k) {
    double m = 0.5 * (a + b);
    if ((f(a) < 0) == (f(m) < 0))
      a = m;
    else
      b = m;
  }
  return 0.5 * (a + b);
}

// ---- arrays and for-equations ----

TEST(Language, HeatEquationByLinesDecaysAsItsFirstMode) {
  std::string dir = scratchDir("heat");
  RunResult r = runEqc("simulate " + example("heat_equation.eq") + " -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.names.size(), 52u); // time, T[1..50], total
  const int n = 50;
  const double dx = 1.0 / (n + 1), alpha = 0.1;
  const double lambda = 4 * alpha / (dx * dx) * std::pow(std::sin(kPi * dx / 2), 2);
  double worst = 0, worstTotal = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    double t = csv.rows[row][0], decay = std::exp(-lambda * t), total = 0;
    for (int i = 1; i <= n; ++i) {
      double exact = decay * std::sin(kPi * i * dx);
      worst = std::max(worst, std::fabs(csv.at(row, "T[" + std::to_string(i) + "]") - exact));
      total += dx * exact;
    }
    worstTotal = std::max(worstTotal, std::fabs(csv.at(row, "total") - total));
  }
  EXPECT_LT(worst, 1e-6); // Tolerance 1e-8; radau5 (auto switches: the system is stiff)
  EXPECT_LT(worstTotal, 1e-6);
}

TEST(Language, ArraysSlicesReductionsAndMatrixProducts) {
  std::string dir = scratchDir("arrays");
  writeFile(dir + "/arrays.eq",
            "model Arrays\n"
            "  parameter Real A[2, 2] = [0, 1; -4, 0] \"x'' = -4 x as a first-order system\";\n"
            "  Real x[2](start = {1, 0}, each fixed = true);\n"
            "  Real s, p, m, d, e[3], last;\n"
            "equation\n"
            "  der(x) = A*x;\n"
            "  s = sum(x .* x);\n"
            "  p = product({2, x[1] + 3});\n"
            "  m = max(x);\n"
            "  d = x*x;\n"
            "  e = {x[1], x[end], sum(k*x[1] for k in 1:3)};\n"
            "  last = x[size(x, 1)];\n"
            "end Arrays;\n");
  RunResult r = runEqc("simulate arrays.eq --t-end 1 --rtol 1e-10 -o out.csv --vars x,s,p,m,d,e,last", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.names, (std::vector<std::string>{"time", "x[1]", "x[2]", "s", "p", "m", "d", "e[1]", "e[2]", "e[3]",
                                                 "last"}));
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    double t = csv.rows[row][0], x1 = std::cos(2 * t), x2 = -2 * std::sin(2 * t);
    EXPECT_NEAR(csv.at(row, "x[1]"), x1, 1e-8);
    EXPECT_NEAR(csv.at(row, "x[2]"), x2, 1e-8);
    EXPECT_NEAR(csv.at(row, "s"), x1 * x1 + x2 * x2, 1e-8);
    EXPECT_NEAR(csv.at(row, "p"), 2 * (x1 + 3), 1e-8);
    EXPECT_NEAR(csv.at(row, "m"), std::max(x1, x2), 1e-8);
    EXPECT_NEAR(csv.at(row, "d"), x1 * x1 + x2 * x2, 1e-8);
    EXPECT_NEAR(csv.at(row, "e[2]"), x2, 1e-8);
    EXPECT_NEAR(csv.at(row, "e[3]"), 6 * x1, 1e-8);
    EXPECT_EQ(csv.at(row, "last"), csv.at(row, "x[2]"));
  }
}

// ---- components and connectors ----

TEST(Language, RlcNetworkFromTheLibraryMatchesTheStepResponse) {
  std::string dir = scratchDir("rlc_network");
  RunResult r = runEqc("simulate " + example("rlc_network.eq") + " " + lib() +
                           " -o out.csv --vars capacitor.v,inductor.i,resistor.v --stats",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  // The step at t0 = 0.01 is a time event.
  EXPECT_NE(r.stderrText.find("events: 1 state events"), std::string::npos) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double V = 10, R = 10, L = 0.5, C = 1e-3, t0 = 0.01;
  const double a = R / (2 * L), w0 = 1 / std::sqrt(L * C), wd = std::sqrt(w0 * w0 - a * a);
  EXPECT_EQ(eventTimes(csv).size(), 1u);
  double worst = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    double t = csv.rows[row][0] - t0, vc = 0, i = 0;
    if (t > 0 || (t == 0 && row > 0 && csv.rows[row - 1][0] == csv.rows[row][0])) {
      vc = V * (1 - std::exp(-a * t) * (std::cos(wd * t) + a / wd * std::sin(wd * t)));
      i = C * V * std::exp(-a * t) * (w0 * w0 / wd) * std::sin(wd * t);
    }
    worst = std::max({worst, std::fabs(csv.at(row, "capacitor.v") - vc), std::fabs(csv.at(row, "inductor.i") - i)});
    EXPECT_NEAR(csv.at(row, "resistor.v"), R * csv.at(row, "inductor.i"), 1e-9);
  }
  EXPECT_LT(worst, 1e-6);
}

TEST(Language, MassSpringChainBuiltWithForLoopsOscillatesInItsFirstMode) {
  std::string dir = scratchDir("chain");
  RunResult r = runEqc("simulate " + example("mass_spring_chain.eq") + " " + lib() + " -o out.csv --vars mass.s", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.names.size(), 11u); // time and mass[1..10].s: `--vars mass.s` covers the array
  const int n = 10;
  const double m = 1, c = 1e4, l = 0.1, A = 1e-3, theta = kPi / (2 * n + 1);
  const double omega = 2 * std::sqrt(c / m) * std::sin(theta / 2);
  double worst = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row)
    for (int j = 1; j <= n; ++j) {
      double exact = j * l + A * std::sin(j * theta) * std::cos(omega * csv.rows[row][0]);
      worst = std::max(worst, std::fabs(csv.at(row, "mass[" + std::to_string(j) + "].s") - exact));
    }
  EXPECT_LT(worst, 1e-9);
  // `eqc check` reports the flattened size of each component.
  std::string out = dir + "/check.txt";
  r = runEqc("check " + example("mass_spring_chain.eq") + " " + lib(), dir, out);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("//   mass[10] (Translational.Mass)"), std::string::npos) << text.substr(0, 1500);
  EXPECT_NE(text.find("//   spring[9] (Translational.Spring)"), std::string::npos);
}

TEST(Language, MassSpringChainOfAThousandMasses) {
  // The same chain with n = 1000 (n is structural: set in the model, not with -p).
  std::string dir = scratchDir("chain1000");
  std::ifstream in(example("mass_spring_chain.eq"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t at = text.find("parameter Integer n = 10");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 24, "parameter Integer n = 1000");
  writeFile(dir + "/chain.eq", text);
  RunResult r = runEqc("simulate chain.eq " + lib() +
                           " --t-end 10 --interval 0.5 -o out.csv --vars mass[1].s,mass[500].s,mass[1000].s",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const int n = 1000;
  const double l = 0.1, A = 1e-3, theta = kPi / (2 * n + 1), omega = 2 * std::sqrt(1e4) * std::sin(theta / 2);
  double worst = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row)
    for (int j : {1, 500, 1000}) {
      double exact = j * l + A * std::sin(j * theta) * std::cos(omega * csv.rows[row][0]);
      worst = std::max(worst, std::fabs(csv.at(row, "mass[" + std::to_string(j) + "].s") - exact));
    }
  // Positions reach 100 (mass 1000 sits at 1000 l): Tolerance 1e-10 relative to them.
  EXPECT_LT(worst, 1e-7);
}

TEST(Language, DoublePendulumFromComponentsEqualsTheFlatModel) {
  std::string dir = scratchDir("dp_components");
  RunResult flat = runEqc("simulate " + example("double_pendulum.eq") + " --t-end 3 -o flat.csv", dir);
  ASSERT_EQ(flat.exitCode, 0) << flat.stderrText;
  RunResult comp = runEqc("simulate " + example("double_pendulum_components.eq") +
                              " --t-end 3 -o comp.csv --stats --vars link1.x,link1.y,link2.x,link2.y",
                          dir);
  ASSERT_EQ(comp.exitCode, 0) << comp.stderrText;
  EXPECT_NE(comp.stderrText.find("switch at time"), std::string::npos) << "the dummy derivatives switch states";
  Csv a = readCsv(dir + "/flat.csv"), b = readCsv(dir + "/comp.csv");
  ASSERT_EQ(a.rows.size(), b.rows.size());
  double worst = 0;
  for (size_t row = 0; row < a.rows.size(); ++row)
    worst = std::max({worst, std::fabs(a.at(row, "x1") - b.at(row, "link1.x")),
                      std::fabs(a.at(row, "y1") - b.at(row, "link1.y")),
                      std::fabs(a.at(row, "x2") - b.at(row, "link2.x")),
                      std::fabs(a.at(row, "y2") - b.at(row, "link2.y"))});
  EXPECT_LT(worst, 1e-7); // the same equations in another order; chaotic, so a short horizon
}

TEST(Language, UnconnectedFlowsAreZeroAndConnectionSetsBalance) {
  std::string dir = scratchDir("flows");
  // Three resistors meet at one node; the third is open at its other end (its current is zero).
  writeFile(dir + "/node.eq",
            "model Node\n"
            "  Electrical.ConstantVoltage source(V = 6);\n"
            "  Electrical.Resistor r1(R = 1), r2(R = 2), r3(R = 3);\n"
            "  Electrical.Ground ground;\n"
            "  Real x(start = 0, fixed = true);\n"
            "equation\n"
            "  connect(source.p, r1.p);\n"
            "  connect(r1.n, r2.p);\n"
            "  connect(r1.n, r3.p);\n"
            "  connect(r2.n, source.n);\n"
            "  connect(source.n, ground.p);\n"
            "  der(x) = r2.i;\n"
            "end Node;\n");
  RunResult r = runEqc("simulate node.eq " + lib() + " --t-end 1 -o out.csv --vars r1.i,r2.i,r3.i,r3.n.i,x", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_NEAR(csv.at(0, "r1.i"), 2.0, 1e-12);
  EXPECT_NEAR(csv.at(0, "r2.i"), 2.0, 1e-12);
  EXPECT_NEAR(csv.at(0, "r3.i"), 0.0, 1e-12);
  EXPECT_NEAR(csv.rows.back()[csv.column("x")], 2.0, 1e-9);
}

TEST(Language, MassSpringDamperFromTheLibraryIsTheDampedOscillator) {
  // wall - spring and damper in parallel - mass: x'' + 0.1 x' + 4 x = 0 with x(0) = 1 (at rest).
  std::string dir = scratchDir("msd");
  writeFile(dir + "/msd.eq",
            "model MSD\n"
            "  Translational.Fixed wall;\n"
            "  Translational.Spring spring(c = 4, s_rel0 = 0);\n"
            "  Translational.Damper damper(d = 0.1);\n"
            "  Translational.Mass mass(m = 1, s(start = 1, fixed = true), v(start = 0, fixed = true));\n"
            "equation\n"
            "  connect(wall.flange, spring.flange_a);\n"
            "  connect(wall.flange, damper.flange_a);\n"
            "  connect(spring.flange_b, mass.flange_a);\n"
            "  connect(damper.flange_b, mass.flange_a);\n"
            "end MSD;\n");
  RunResult r = runEqc("simulate msd.eq " + lib() + " --t-end 10 --interval 0.01 --rtol 1e-10 -o out.csv --vars mass.s",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double wd = std::sqrt(4 - 0.1 * 0.1 / 4), sigma = -0.05;
  double worst = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    double t = csv.rows[row][0];
    double exact = std::exp(sigma * t) * (std::cos(wd * t) - sigma / wd * std::sin(wd * t));
    worst = std::max(worst, std::fabs(csv.at(row, "mass.s") - exact));
  }
  EXPECT_LT(worst, 1e-8);
}

// ---- functions ----

TEST(Language, FunctionsWithLoopsArraysAndDefaultsAreCompiled) {
  std::string dir = scratchDir("functions");
  writeFile(dir + "/fn.eq",
            "function sq\n  input Real x;\n  output Real y;\nalgorithm\n  y := x*x;\nend sq;\n"
            "function norm2\n  input Real v[:];\n  output Real n;\nprotected\n  Real s = 0;\nalgorithm\n"
            "  for i in 1:size(v, 1) loop\n    s := s + v[i]^2;\n  end for;\n  n := sqrt(s);\nend norm2;\n"
            "function horner\n  input Real c[:];\n  input Real x = 2;\n  output Real y = 0;\n  output Integer terms;\n"
            "algorithm\n  terms := 0;\n  for i in 1:size(c, 1) loop\n    y := y*x + c[i];\n    terms := terms + 1;\n"
            "  end for;\nend horner;\n"
            "function collatz \"steps of the Collatz sequence from n\"\n  input Integer n;\n  output Integer steps;\n"
            "protected\n  Integer m;\nalgorithm\n  m := n;\n  steps := 0;\n  while m > 1 loop\n"
            "    if mod(m, 2) == 0 then\n      m := div(m, 2);\n    else\n      m := 3*m + 1;\n    end if;\n"
            "    steps := steps + 1;\n  end while;\nend collatz;\n"
            "model UseFunctions\n  Real x(start = 1, fixed = true);\n  Real r, p, q, k;\n  Integer terms;\n"
            "equation\n  der(x) = -sq(x);\n  r = norm2({x, 2*x, 3*x});\n  (p, terms) = horner({1, 2, 3}, time);\n"
            "  q = horner({1, 0, 0});\n  k = collatz(27);\nend UseFunctions;\n");
  RunResult r = runEqc("simulate fn.eq --t-end 1 --rtol 1e-10 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    double t = csv.rows[row][0];
    EXPECT_NEAR(csv.at(row, "x"), 1 / (1 + t), 1e-9);
    EXPECT_NEAR(csv.at(row, "r"), std::sqrt(14.0) / (1 + t), 1e-8);
    EXPECT_NEAR(csv.at(row, "p"), t * t + 2 * t + 3, 1e-12);
    EXPECT_EQ(csv.at(row, "q"), 4.0);      // 1*x^2 at the default x = 2
    EXPECT_EQ(csv.at(row, "k"), 111.0);    // the Collatz sequence of 27 takes 111 steps
    EXPECT_EQ(csv.at(row, "terms"), 3.0);  // a discrete (Integer) output
  }
}

TEST(Language, IndexReductionDifferentiatesThroughFunctions) {
  // The pendulum's constraint through a function with a loop: index reduction needs its first and
  // second derivatives, made as functions of their own. Both reductions give the plain pendulum.
  std::string dir = scratchDir("fn_pendulum");
  writeFile(dir + "/fnp.eq",
            "function dist2\n  input Real p[2];\n  output Real d;\nalgorithm\n  d := 0;\n  for i in 1:2 loop\n"
            "    d := d + p[i]*p[i];\n  end for;\nend dist2;\n"
            "model FnPendulum\n  parameter Real L = 1, g = 9.81;\n  Real x(start = 1, fixed = true), y(start = 0);\n"
            "  Real vx(start = 0, fixed = true), vy;\n  Real lambda;\nequation\n  der(x) = vx;  der(y) = vy;\n"
            "  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;\n  dist2({x, y}) = L^2;\nend FnPendulum;\n");
  RunResult plain = runEqc("simulate " + example("pendulum.eq") + " --t-end 3 -o plain.csv", dir);
  ASSERT_EQ(plain.exitCode, 0) << plain.stderrText;
  for (const char *reduction : {"dummy", "invariants"}) {
    SCOPED_TRACE(reduction);
    RunResult r = runEqc("simulate fnp.eq --t-end 3 --interval 0.01 --rtol 1e-10 --reduction " +
                             std::string(reduction) + " -o fn.csv",
                         dir);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText;
    Csv a = readCsv(dir + "/plain.csv"), b = readCsv(dir + "/fn.csv");
    ASSERT_EQ(a.rows.size(), b.rows.size());
    double worst = 0;
    for (size_t row = 0; row < a.rows.size(); ++row)
      worst = std::max({worst, std::fabs(a.at(row, "x") - b.at(row, "x")), std::fabs(a.at(row, "y") - b.at(row, "y"))});
    EXPECT_LT(worst, 1e-6);
  }
}

// ---- events ----

TEST(Language, BouncingBallEventTimesMatchTheAnalyticOnes) {
  std::string dir = scratchDir("ball");
  RunResult r = runEqc("simulate " + example("bouncing_ball.eq") + " --t-end 3 -o out.csv --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  std::vector<double> times = eventTimes(csv);
  // t1 = sqrt(2 h0/g); each bounce then lasts 2 e^k v1/g with v1 = g t1.
  const double e = 0.8, g = 9.81, h0 = 1, t1 = std::sqrt(2 * h0 / g), v1 = g * t1;
  std::vector<double> exact{t1};
  for (int k = 1; exact.back() + 2 * std::pow(e, k) * v1 / g < 3; ++k)
    exact.push_back(exact.back() + 2 * std::pow(e, k) * v1 / g);
  ASSERT_EQ(times.size(), exact.size()) << r.stderrText;
  for (size_t k = 0; k < exact.size(); ++k)
    EXPECT_NEAR(times[k], exact[k], 1e-10) << "bounce " << k + 1;
  // Left and right limits: the velocity flips sign, the counter steps, the height is 0.
  for (size_t i = 1; i < csv.rows.size(); ++i) {
    if (csv.rows[i][0] != csv.rows[i - 1][0])
      continue;
    EXPECT_LT(csv.at(i - 1, "v"), 0);
    EXPECT_NEAR(csv.at(i, "v"), -e * csv.at(i - 1, "v"), 1e-12);
    EXPECT_EQ(csv.at(i, "bounces"), csv.at(i - 1, "bounces") + 1);
    EXPECT_NEAR(csv.at(i, "h"), 0, 1e-12);
  }
  EXPECT_NE(r.stderrText.find("events: " + std::to_string(exact.size()) + " state events"), std::string::npos)
      << r.stderrText;
}

// A relay feedback, der(x) = if x < 0 then 1 else -1 from x = 0.5: from t = 0.5 each mode drives
// x back across 0 (no state jumps; Filippov's sliding motion x = 0). Located events would come a
// few ulps apart (the run used to stop there on the chattering limit, as a bouncing ball's
// accumulating bounces still do); events that move no state and come at half that rate relax
// the relation instead, with a warning: its changes are taken at step ends, so x stays within a
// step of 0 (the output interval bounds the step: 0.004 here).
TEST(Language, RelayFeedbackSlidesAlongItsSwitchingSurface) {
  std::string dir = scratchDir("relay");
  writeFile(dir + "/relay.eq", R"(model Relay
  Real x(start = 0.5, fixed = true);
  Boolean up;
equation
  up = x < 0;
  der(x) = if up then 1 else -1;
end Relay;
)");
  RunResult r = runEqc("simulate relay.eq --t-end 2 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(
      r.stderrText.find("relay.eq:5:3: warning: at time 0.5: the condition 'x < 0' changes back and forth "
                        "without moving a state"),
      std::string::npos)
      << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_FALSE(csv.rows.empty());
  EXPECT_DOUBLE_EQ(csv.at(csv.rows.size() - 1, "time"), 2);
  double sliding = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.at(i, "time"), x = csv.at(i, "x");
    if (t <= 0.5)
      EXPECT_NEAR(x, 0.5 - t, 1e-12) << "t = " << t;
    else
      sliding = std::max(sliding, std::fabs(x));
  }
  EXPECT_LE(sliding, 0.004);
}

TEST(Language, EventsOnAnIndexThreePendulumWithInvariants) {
  // tests/reduce/events.eq: the Cartesian pendulum counts the zero crossings of x and stops after
  // ten. Released from rest at angle a = asin(0.6), it crosses x = 0 at T/4 + k T/2, with the exact
  // period T = 4 sqrt(L/g) K(sin(a/2)) (K by the arithmetic-geometric mean).
  std::string dir = scratchDir("events_pendulum");
  std::string model = std::string(EQC_SOURCE_DIR) + "/tests/reduce/events.eq";
  RunResult r = runEqc("simulate " + model + " --reduction invariants --t-end 20 --rtol 1e-11 -o out.csv --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  const double L = 1, g = 9.81, k = std::sin(std::asin(0.6) / 2);
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 10; ++i)
    std::tie(a, b) = std::make_pair((a + b) / 2, std::sqrt(a * b));
  const double T = 4 * std::sqrt(L / g) * kPi / (2 * a);
  Csv csv = readCsv(dir + "/out.csv");
  std::vector<double> times = eventTimes(csv);
  ASSERT_EQ(times.size(), 10u) << r.stderrText;
  for (size_t i = 0; i < times.size(); ++i) {
    EXPECT_NEAR(times[i], T / 4 + static_cast<double>(i) * T / 2, 1e-9) << "crossing " << i + 1;
  }
  // The run ends at the tenth crossing (terminate), with the counter and the time of the last one.
  EXPECT_EQ(csv.rows.back()[0], times.back());
  EXPECT_EQ(csv.at(csv.rows.size() - 1, "swings"), 10);
  EXPECT_EQ(csv.at(csv.rows.size() - 1, "tLast"), times.back());
  EXPECT_NE(r.stderrText.find("terminated at time"), std::string::npos) << r.stderrText;
  // The default reduction, dummy derivatives, handles the events on its state selection and finds
  // the same crossings.
  RunResult dd = runEqc("simulate " + model + " --t-end 20 --rtol 1e-11 -o dd.csv --stats", dir);
  ASSERT_EQ(dd.exitCode, 0) << dd.stderrText;
  EXPECT_NE(dd.stderrText.find("dummy derivatives: 1 state selection compiled"), std::string::npos) << dd.stderrText;
  std::vector<double> selected = eventTimes(readCsv(dir + "/dd.csv"));
  ASSERT_EQ(selected.size(), times.size());
  for (size_t i = 0; i < times.size(); ++i)
    EXPECT_NEAR(selected[i], T / 4 + static_cast<double>(i) * T / 2, 1e-9) << "crossing " << i + 1;
}

TEST(Language, RectifierDiodeSwitchesWhereTheAnalyticSolutionSaysSo) {
  std::string dir = scratchDir("rectifier");
  RunResult r = runEqc("simulate " + example("rectifier.eq") + " " + lib() + " -o out.csv --vars coil.i,diode.off", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  // Conducting from t = 0 with i(0) = 0: L i' + (R + Ron) i = V sin(w t).
  const double V = 10, R = 10 + 1e-5, L = 0.1, w = 2 * kPi * 50;
  const double Z = std::hypot(R, w * L), phi = std::atan2(w * L, R), tau = L / R;
  auto current = [&](double t) { return V / Z * (std::sin(w * t - phi) + std::sin(phi) * std::exp(-t / tau)); };
  double tOff = bisect(current, 0.012, 0.018);
  std::vector<double> times = eventTimes(csv);
  ASSERT_GE(times.size(), 9u);
  EXPECT_NEAR(times[0], tOff, 1e-9);
  // Blocking, the diode turns on again when the source turns positive (delayed by L*Goff = 1e-6 s).
  for (int k = 1; k <= 4; ++k)
    EXPECT_NEAR(times[2 * k - 1], 0.02 * k, 2e-6) << "turn-on " << k;
  double worst = 0;
  for (size_t row = 0; row < csv.rows.size() && csv.rows[row][0] < tOff; ++row)
    worst = std::max(worst, std::fabs(csv.at(row, "coil.i") - current(csv.rows[row][0])));
  EXPECT_LT(worst, 1e-6);
  for (size_t row = 0; row < csv.rows.size(); ++row) // the discrete state, written as 0/1
    EXPECT_TRUE(csv.at(row, "diode.off") == 0 || csv.at(row, "diode.off") == 1);
}

TEST(Language, WhenElsewhenEdgeInitialAndTimeEvents) {
  std::string dir = scratchDir("when");
  writeFile(dir + "/when.eq",
            "model Whens\n"
            "  Real x(start = 0, fixed = true);\n"
            "  Integer ticks(start = 0), phase(start = 0), starts(start = 0);\n"
            "  Boolean above;\n"
            "  discrete Real held(start = -1);\n"
            "equation\n"
            "  der(x) = 1;\n"
            "  above = x > 0.5;\n"
            "  when initial() then\n    starts = pre(starts) + 1;\n  end when;\n"
            "  when {time >= 0.25, time >= 0.75} then\n    ticks = pre(ticks) + 1;\n  end when;\n"
            "  when x > 0.9 then\n    phase = 2;\n  elsewhen edge(above) then\n    phase = 1;\n  end when;\n"
            "  when above then\n    held = x;\n  end when;\n"
            "end Whens;\n");
  RunResult r = runEqc("simulate when.eq --t-end 1 --interval 0.125 -o out.csv --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  std::vector<double> times = eventTimes(csv);
  ASSERT_EQ(times.size(), 4u) << r.stderrText; // 0.25, 0.5, 0.75, 0.9
  EXPECT_NEAR(times[0], 0.25, 1e-12);
  EXPECT_NEAR(times[1], 0.5, 1e-12);
  EXPECT_NEAR(times[2], 0.75, 1e-12);
  EXPECT_NEAR(times[3], 0.9, 1e-12);
  const std::vector<double> &last = csv.rows.back();
  EXPECT_EQ(last[csv.column("starts")], 1.0); // when initial() fired once, at the start
  EXPECT_EQ(last[csv.column("ticks")], 2.0);  // one per element of the vector condition
  EXPECT_EQ(last[csv.column("phase")], 2.0);
  EXPECT_NEAR(last[csv.column("held")], 0.5, 1e-12); // assigned once, at the rising edge
  EXPECT_EQ(csv.at(0, "held"), -1.0);
  EXPECT_EQ(csv.at(0, "above"), 0.0);
}

TEST(Language, DiscreteVariablesInContinuousAndInitialEquations) {
  // n is read by a continuous equation, set by an initial equation and changed at an event.
  std::string dir = scratchDir("discrete");
  writeFile(dir + "/d.eq",
            "model D\n  parameter Integer n0 = 3;\n  Integer n(start = 1);\n  Real x(start = 0, fixed = true);\n"
            "  Boolean big;\n  Integer k;\ninitial equation\n  n = n0;\nequation\n  der(x) = n;\n  big = x > 2;\n"
            "  k = integer(x);\n  when big then\n    n = pre(n) + 1;\n  end when;\nend D;\n");
  RunResult r = runEqc("simulate d.eq --t-end 2 --interval 0.5 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  // x = 3 t until x = 2 at t = 2/3, then x = 2 + 4 (t - 2/3). integer(x) jumps where x crosses an
  // integer: events at x = 1, 2, ..., 7, i.e. t = 1/3, 2/3, then every 1/4.
  EXPECT_EQ(csv.at(0, "n"), 3.0);
  std::vector<double> times = eventTimes(csv);
  std::vector<double> exact{1.0 / 3, 2.0 / 3};
  for (int j = 3; j <= 7; ++j)
    exact.push_back(2.0 / 3 + (j - 2) / 4.0);
  ASSERT_EQ(times.size(), exact.size());
  for (size_t i = 0; i < exact.size(); ++i)
    EXPECT_NEAR(times[i], exact[i], 1e-12);
  EXPECT_EQ(csv.rows.back()[csv.column("n")], 4.0);
  EXPECT_NEAR(csv.rows.back()[csv.column("x")], 2 + 4 * (2 - 2.0 / 3), 1e-9);
  for (size_t row = 0; row + 1 < csv.rows.size(); ++row) { // k = floor(x) on every row
    if (csv.rows[row][0] != csv.rows[row + 1][0]) {
      EXPECT_EQ(csv.at(row, "k"), std::floor(csv.at(row, "x") + 1e-12)) << "time " << csv.rows[row][0];
    }
  }
}

TEST(Language, IfEquationWithATimeVaryingConditionSwitchesEquations) {
  std::string dir = scratchDir("if_equation");
  writeFile(dir + "/ifeq.eq",
            "model IfEq\n  Real x(start = 0, fixed = true), y;\nequation\n"
            "  if time < 1 then\n    der(x) = 1;\n    y = x;\n  else\n    der(x) = -1;\n    y = 2*x;\n  end if;\n"
            "end IfEq;\n");
  RunResult r = runEqc("simulate ifeq.eq --t-end 2 --interval 0.5 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_EQ(eventTimes(csv), std::vector<double>{1.0});
  EXPECT_NEAR(csv.rows.back()[csv.column("x")], 0.0, 1e-9);
  EXPECT_NEAR(csv.at(1, "y"), 0.5, 1e-12);
  EXPECT_NEAR(csv.rows[csv.rows.size() - 2][csv.column("y")], 1.0, 1e-9); // t = 1.5: y = 2 x = 2*0.5
}

TEST(Language, NoEventSuppressesEvents) {
  std::string dir = scratchDir("noevent");
  writeFile(dir + "/ne.eq",
            "model NoEv\n  Real x(start = -1, fixed = true), y;\nequation\n  der(x) = 1;\n"
            "  y = noEvent(if x > 0 then sqrt(x) else 0);\nend NoEv;\n");
  RunResult r = runEqc("simulate ne.eq --t-end 2 -o out.csv --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_EQ(r.stderrText.find("events:"), std::string::npos) << "no condition, no events";
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_TRUE(eventTimes(csv).empty());
  EXPECT_NEAR(csv.rows.back()[csv.column("y")], 1.0, 1e-9);
}


// MLS 3.7.2: div, mod, rem, ceil, floor and integer trigger state events when their arguments are
// continuous; sign (3.7.1) is `if v > 0 then 1 elseif v < 0 then -1 else 0`, events included.
// Each derivative below is piecewise constant or piecewise linear in time, so its integral over
// [0, 1] is exact: floor(4y) and integer(4y) and div(t, 0.25) take 0, 1, 2, 3 on quarters (1.5),
// ceil(4y) 1..4 (2.5), mod(t, 0.3) and rem(t, 0.3) are three saw teeth of area 0.045 and a tenth
// (0.14), mod(-t, 0.3) = 0.3 - mod(t, 0.3) between the teeth (0.16), rem(-t, 0.3) = -rem(t, 0.3)
// (-0.14), sign(y - 0.5) cancels (0), floor(-4y) takes -1..-4 (-2.5: the right limit at each
// integer, where floor() of a falling argument drops), and floor, ceil and sign of a state resting
// at 0 stay 0 (a <= b holds where its indicator rests at 0, a < b does not). Once floor() of a
// state changed at its first crossing and then never again (m = floor(u) was rewritten to
// m = m), floor() of a falling argument and ceil() of a rising one lagged by one, and mod()
// raised no events at all.
TEST(Language, DiscontinuousBuiltinsOfContinuousArgumentsTriggerEveryEvent) {
  std::string dir = scratchDir("jumping_builtins");
  writeFile(dir + "/j.eq", R"(model Jumps
  Real y(start = 0, fixed = true);
  Real f(start = 0, fixed = true), i(start = 0, fixed = true), d(start = 0, fixed = true);
  Real c(start = 0, fixed = true), m(start = 0, fixed = true), r(start = 0, fixed = true);
  Real mn(start = 0, fixed = true), rn(start = 0, fixed = true), s(start = 0, fixed = true);
  Real fd(start = 0, fixed = true), w(start = 0, fixed = true), q(start = 0, fixed = true);
equation
  der(y) = 1;
  der(w) = 0;
  der(q) = floor(w) + ceil(w) + sign(w);
  der(fd) = floor(-4*y);
  der(f) = floor(4*y);
  der(i) = integer(4*y);
  der(d) = div(time, 0.25);
  der(c) = ceil(4*y);
  der(m) = mod(time, 0.3);
  der(r) = rem(time, 0.3);
  der(mn) = mod(-time, 0.3);
  der(rn) = rem(-time, 0.3);
  der(s) = sign(y - 0.5);
  annotation(experiment(StopTime = 1, Tolerance = 1e-10, Interval = 0.125));
end Jumps;
)");
  RunResult r = runEqc("simulate j.eq -o out.csv --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const std::vector<double> &last = csv.rows.back();
  ASSERT_EQ(last[0], 1);
  const std::pair<const char *, double> expected[] = {{"f", 1.5},  {"i", 1.5},  {"d", 1.5},   {"c", 2.5}, {"m", 0.14},
                                                      {"r", 0.14}, {"mn", 0.16}, {"rn", -0.14}, {"s", 0},
                                                      {"fd", -2.5}, {"q", 0}};
  for (const auto &[name, value] : expected)
    EXPECT_NEAR(last[csv.column(name)], value, 1e-9) << name << "\n" << r.stderrText;
  // Events at the quarters and at 0.3, 0.6, 0.9 (and at 1 = 4 quarters, where the run ends).
  std::vector<double> times = eventTimes(csv);
  for (double t : {0.25, 0.3, 0.5, 0.6, 0.75, 0.9}) {
    auto near = std::find_if(times.begin(), times.end(), [t](double e) { return std::fabs(e - t) < 1e-9; });
    EXPECT_NE(near, times.end()) << "no event at " << t << "\n" << r.stderrText;
  }
}

} // namespace

// MLS 3.5, 18.3 (annotation Evaluate = true) and 7.2.6 (final): a parameter annotated Evaluate =
// true, and one whose final binding reads only such values, take their values when the model is
// compiled. Here the capacitance 0 of `c` (final C = C0, C0 = 0 evaluated) removes its
// i = C*der(v) term: its current is 0 and its voltage is no state, so the divider of r1 and r2
// gives v = u/2 = sin(t)/2 from the start; `k` (not final) stays a parameter that -p changes.
// Without the folding der(c.v) had a coefficient 0 that structural analysis cannot see: the
// derivative system is singular at t = 0. The folded ones cannot be changed with -p.
TEST(Language, EvaluatedAndFinalParametersAreFoldedBeforeStructuralAnalysis) {
  const std::string dir = scratchDir("evaluate_annotation");
  writeFile(dir + "/divider.mo", "model Divider\n"
                                 "  model Cap\n"
                                 "    parameter Real C = 1;\n"
                                 "    Real v, i;\n"
                                 "  equation\n"
                                 "    i = C*der(v);\n"
                                 "  end Cap;\n"
                                 "  parameter Real C0 = 0 annotation(Evaluate = true);\n"
                                 "  parameter Real k = 2;\n"
                                 "  Cap c(final C = C0);\n"
                                 "  Real u = sin(time), i1, i2, w;\n"
                                 "equation\n"
                                 "  u - c.v = i1;\n"
                                 "  c.v = i2;\n"
                                 "  i1 = i2 + c.i;\n"
                                 "  w = k*c.v;\n"
                                 "end Divider;\n");
  RunResult r = runEqc("simulate divider.mo -o out.csv --stop-time 2 -p k=3", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  const Csv csv = readCsv(dir + "/out.csv");
  ASSERT_GT(csv.rows.size(), 10u);
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "time");
    EXPECT_NEAR(csv.at(row, "c.v"), std::sin(t) / 2, 1e-9) << t;
    EXPECT_NEAR(csv.at(row, "c.i"), 0, 1e-12) << t;
    EXPECT_NEAR(csv.at(row, "w"), 1.5 * std::sin(t), 1e-9) << t;
  }
  for (const char *p : {"C0", "c.C"}) {
    r = runEqc(std::string("simulate divider.mo -o out2.csv -p ") + p + "=1", dir);
    EXPECT_EQ(r.exitCode, 1) << r.stderrText; // a usage error
    EXPECT_NE(r.stderrText.find("annotation Evaluate = true or a final binding"), std::string::npos) << r.stderrText;
  }
}

// MLS 3.5, 18.4 (experiment): StopTime equal to StartTime asks for a run that is the model's
// initialization: its result is the consistent initial point, one row. Here x(0) = 1 fixed, y
// solves y^2 = x + 3 (y = 2 from y's start 1), z = 2 x from an initial equation of a
// parameter-free state, and the when-clause of initial() sets n.
TEST(Language, StopTimeEqualToStartTimeIsAnInitializationOnlyRun) {
  std::string dir = scratchDir("init_only");
  writeFile(dir + "/init.eq", "model InitOnly\n"
                              "  Real x(start = 1, fixed = true);\n"
                              "  Real y(start = 1);\n"
                              "  Real z;\n"
                              "  Integer n(start = 0);\n"
                              "equation\n"
                              "  der(x) = -x;\n"
                              "  der(z) = -z;\n"
                              "  y^2 = x + 3;\n"
                              "  when initial() then n = 7; end when;\n"
                              "initial equation\n"
                              "  z = 2*x;\n"
                              "  annotation(experiment(StartTime = 0.5, StopTime = 0.5));\n"
                              "end InitOnly;\n");
  RunResult r = runEqc("simulate init.eq -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.rows.size(), 1u);
  EXPECT_EQ(csv.at(0, "time"), 0.5);
  EXPECT_EQ(csv.at(0, "x"), 1);
  EXPECT_NEAR(csv.at(0, "y"), 2, 1e-12);
  EXPECT_NEAR(csv.at(0, "z"), 2, 1e-12);
  EXPECT_EQ(csv.at(0, "n"), 7);
  // The same from the command line; a stop time before the start time is an error.
  r = runEqc("simulate init.eq --t-start 0 --t-end 0 -o zero.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_EQ(readCsv(dir + "/zero.csv").rows.size(), 1u);
  r = runEqc("simulate init.eq --t-end 0.25 -o before.csv", dir);
  EXPECT_EQ(r.exitCode, 1) << r.stderrText;
  EXPECT_NE(r.stderrText.find("eqc: error: the stop time 0.25 is before the start time 0.5"),
            std::string::npos)
      << r.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/before.csv"));
}
