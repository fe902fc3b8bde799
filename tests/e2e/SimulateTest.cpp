// End-to-end: `eqc simulate` on the examples, compared with analytic solutions.
#include "Run.h"
#include "tests/TestModels.h"

#include <chrono>
#include <cmath>
#include <regex>
#include <cstring>
#include <iterator>

using namespace eqc::test;

namespace {

/// The step count that --stats reports for `method`, or -1.
long statsSteps(const std::string &text, const std::string &method) {
  size_t at = text.find("method " + method + ": ");
  return at == std::string::npos ? -1 : std::atol(text.c_str() + at + 9 + method.size());
}

/// x'' + c x' + k x = 0, x(0) = 1, x'(0) = 0 (underdamped).
double oscillator(double t, double k, double c, double *v = nullptr) {
  double wd = std::sqrt(k - c * c / 4), s = -c / 2;
  double x = std::exp(s * t) * (std::cos(wd * t) - s / wd * std::sin(wd * t));
  if (v)
    *v = std::exp(s * t) * (s * std::cos(wd * t) - s * s / wd * std::sin(wd * t) - wd * std::sin(wd * t) -
                            s * std::cos(wd * t));
  return x;
}

TEST(Simulate, OscillatorDopri5MatchesAnalyticSolution) {
  std::string dir = scratchDir("osc_dopri5");
  RunResult r = runEqc("simulate " + example("oscillator.eq") + " -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.names, (std::vector<std::string>{"time", "x", "v", "a"}));
  ASSERT_EQ(csv.rows.size(), 1001u); // StopTime 10, Interval 0.01
  double worst = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    double t = csv.at(i, "time"), v;
    double x = oscillator(t, 4.0, 0.1, &v);
    worst = std::max({worst, std::fabs(csv.at(i, "x") - x), std::fabs(csv.at(i, "v") - v)});
    // The algebraic variable satisfies its equation on every output row.
    EXPECT_NEAR(csv.at(i, "a"), -0.1 * csv.at(i, "v") - 4.0 * csv.at(i, "x"), 1e-12);
  }
  EXPECT_LT(worst, 1e-6); // Tolerance = 1e-8 from the experiment annotation
  EXPECT_DOUBLE_EQ(csv.rows.back()[0], 10.0);
}

TEST(Simulate, OscillatorRk4FixedStepWithOverrides) {
  std::string dir = scratchDir("osc_rk4");
  RunResult r = runEqc("simulate " + example("oscillator.eq") + " --method rk4 --dt 1e-3 --t-end 5 -p k=9 -o out.csv",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.rows.size(), 501u); // Interval 0.01 = every 10th step of 1e-3
  double worst = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i)
    worst = std::max(worst, std::fabs(csv.at(i, "x") - oscillator(csv.at(i, "time"), 9.0, 0.1)));
  EXPECT_LT(worst, 1e-10); // RK4: error ~ h^4
  EXPECT_GT(worst, 1e-16);
  EXPECT_DOUBLE_EQ(csv.rows.back()[0], 5.0);
}

TEST(Simulate, OverriddenParametersRecomputeTheParametersBoundToThem) {
  std::string dir = scratchDir("param_deps");
  writeFile(dir + "/deps.eq", "model Deps\n  parameter Real a = 2;\n  parameter Real b = 3*a, c = b + 1;\n"
                              "  Real x(start = 0, fixed = true);\nequation\n  der(x) = c;\nend Deps;\n");
  RunResult r = runEqc("simulate deps.eq --t-end 1 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NEAR(readCsv(dir + "/out.csv").rows.back()[1], 7.0, 1e-12); // c = 3*2 + 1
  r = runEqc("simulate deps.eq --t-end 1 -p a=5 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NEAR(readCsv(dir + "/out.csv").rows.back()[1], 16.0, 1e-12); // c = 3*5 + 1
  r = runEqc("simulate deps.eq --t-end 1 -p a=5 -p b=1 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NEAR(readCsv(dir + "/out.csv").rows.back()[1], 2.0, 1e-12); // an overridden b keeps its value
}

TEST(Simulate, Dop853MatchesTheAnalyticSolutionWithFewSteps) {
  std::string dir = scratchDir("dop853");
  RunResult r = runEqc("simulate " + example("chain6.eq") + " --method dop853 --rtol 1e-10 --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const auto &last = csv.rows.back();
  for (int k = 1; k <= 6; ++k)
    EXPECT_NEAR(last[k], chainExact(k, 20.0), 1e-7) << "x" << k;
  long steps = statsSteps(r.stderrText, "dop853");
  EXPECT_GT(steps, 0);
  EXPECT_LT(steps, 200) << r.stderrText; // dopri5 needs about 476 here
}

TEST(Simulate, BackwardEulerUsesTheGeneratedJacobianOnAStiffModel) {
  std::string dir = scratchDir("beuler");
  writeFile(dir + "/stiff.eq", "model Stiff\n  parameter Real k = 1000;\n  Real y(start = 0, fixed = true);\n"
                               "equation\n  der(y) = -k*(y - cos(time));\nend Stiff;\n");
  RunResult r = runEqc("simulate stiff.eq --method beuler --dt 0.05 --t-end 2 --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find(" Jacobians, "), std::string::npos) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 2; k < csv.rows.size(); ++k) // after the initial layer, on the slow manifold
    EXPECT_NEAR(csv.at(k, "y"), std::cos(csv.at(k, "time")), 2e-3) << "t = " << csv.at(k, "time");
  // The explicit method at the same step explodes (amplification |1 - k*dt| = 49 per step).
  RunResult e = runEqc("simulate stiff.eq --method euler --dt 0.05 --t-end 2 -o euler.csv", dir);
  ASSERT_EQ(e.exitCode, 0) << e.stderrText;
  EXPECT_GT(std::fabs(readCsv(dir + "/euler.csv").rows.back()[1]), 1e10);
}

// ROBER to t = 1e11 with the reference of the Test Set for IVP Solvers (Mazzia & Magherini, Bari).
TEST(Simulate, Radau5SolvesRoberToTheTestSetReference) {
  std::string dir = scratchDir("rober");
  RunResult r = runEqc("simulate " + example("rober.eq") + " --method radau5 --rtol 1e-6 --atol 1e-10 --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const auto &last = csv.rows.back();
  ASSERT_DOUBLE_EQ(last[0], 1e11);
  EXPECT_NEAR(last[1] / 0.2083340149701255e-07, 1, 1e-4);
  EXPECT_NEAR(last[2] / 0.8333360770334713e-13, 1, 1e-4);
  EXPECT_NEAR(last[3] / 0.9999999791665050, 1, 1e-9);
  long steps = statsSteps(r.stderrText, "radau5");
  EXPECT_GT(steps, 0);
  EXPECT_LT(steps, 2000) << r.stderrText;
}

// VDPOL (mu = 1e6) at t = 2, reference from the same Test Set.
TEST(Simulate, Radau5SolvesVanDerPolMu1e6) {
  std::string dir = scratchDir("vdpol");
  RunResult r = runEqc("simulate " + example("vdpol.eq") + " --method radau5 --rtol 1e-6 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const auto &last = csv.rows.back();
  EXPECT_NEAR(last[1] / 0.1706167732170483e1, 1, 1e-4);
  EXPECT_NEAR(last[2] / -0.8928097010247975, 1, 1e-4);
}

TEST(Simulate, AutoSwitchesToRadau5OnRoberAndNotOnTheOscillator) {
  std::string dir = scratchDir("auto");
  RunResult r = runEqc("simulate " + example("rober.eq") + " --method auto --rtol 1e-6 --atol 1e-10 --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("auto: dopri5, then radau5 from time 0.0"), std::string::npos) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const auto &last = csv.rows.back();
  // measured 2.7e-4: an absolute error of 5.6e-12, far inside atol = 1e-10 (y1 ~ 2e-8 is resolved to
  // about atol / y1 = 5e-3 relative).
  EXPECT_NEAR(last[1] / 0.2083340149701255e-07, 1, 1e-3);
  EXPECT_NEAR(last[3] / 0.9999999791665050, 1, 1e-9);
  EXPECT_LT(statsSteps(r.stderrText, "auto"), 2000);
  RunResult o = runEqc("simulate " + example("oscillator.eq") + " --method auto --stats -o osc.csv", dir);
  ASSERT_EQ(o.exitCode, 0) << o.stderrText;
  EXPECT_NE(o.stderrText.find("auto: dopri5 throughout"), std::string::npos) << o.stderrText;
}

TEST(Simulate, VarsSelectsColumnsIncludingDerivatives) {
  std::string dir = scratchDir("osc_vars");
  RunResult r = runEqc("simulate " + example("oscillator.eq") + " --vars 'a,der(x)' --t-end 1 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.names, (std::vector<std::string>{"time", "a", "der(x)"}));
  EXPECT_DOUBLE_EQ(csv.at(0, "a"), -4.0);
  EXPECT_DOUBLE_EQ(csv.at(0, "der(x)"), 0.0);
}


// Seed 001: the reduced ODE integrated with dopri5 at rtol 1e-10 matches the analytic solution.
TEST(Simulate, SeedChainDopri5At1e10MatchesAnalyticAtT20) {
  std::string dir = scratchDir("chain_dopri5");
  RunResult r = runEqc("simulate " + example("chain6.eq") + " --method dopri5 --rtol 1e-10 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const auto &last = csv.rows.back();
  ASSERT_DOUBLE_EQ(last[0], 20.0);
  for (int k = 1; k <= 6; ++k)
    EXPECT_NEAR(last[k], chainExact(k, 20.0), 1e-7) << "x" << k;
}

// Seed 001: Heun with dt = 0.2 drifts on x5 and x6, exactly as the seed's R code computes it.
TEST(Simulate, SeedChainHeunReproducesTheSeedsDrift) {
  std::string dir = scratchDir("chain_heun");
  RunResult r = runEqc("simulate " + example("chain6.eq") + " --method heun --dt 0.2 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.rows.size(), 101u); // t = 0, 0.2, ..., 20
  // The seed's metodo_heun, transcribed.
  auto f = [](double t, const double *y, double *d) {
    d[0] = 2 * std::cos(t);
    for (int i = 1; i < 6; ++i)
      d[i] = std::sin(t) - y[i - 1];
  };
  double y[6] = {0, 1, -1, -2, 0, 1}, k1[6], k2[6], tmp[6];
  const double h = 0.2;
  for (int n = 0; n < 100; ++n) {
    double t = n * h;
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(csv.rows[n][i + 1], y[i], 1e-9 * (1 + std::fabs(y[i]))) << "x" << i + 1 << " at t=" << t;
    f(t, y, k1);
    for (int i = 0; i < 6; ++i)
      tmp[i] = y[i] + h * k1[i];
    f(t + h, tmp, k2);
    for (int i = 0; i < 6; ++i)
      y[i] += h / 2 * (k1[i] + k2[i]);
  }
  const auto &last = csv.rows.back();
  double drift6 = std::fabs(last[6] - chainExact(6, 20.0)), drift5 = std::fabs(last[5] - chainExact(5, 20.0));
  double err1 = std::fabs(last[1] - chainExact(1, 20.0));
  EXPECT_GT(drift6, 1.0);  // the visible drift of the seed's figure 25.1
  EXPECT_GT(drift5, 0.1);
  EXPECT_LT(err1, 1e-2);   // x1 only carries the trapezoid rule's own error
}

// Series RLC with a sine source: z' = A z + b sin(ωt) solved in closed form.
TEST(Simulate, SeriesRlcMatchesClosedFormSolution) {
  std::string dir = scratchDir("rlc");
  RunResult r = runEqc("simulate " + example("rlc.eq") + " -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double R = 10, L = 0.5, C = 1e-3, V0 = 5, w = 2 * M_PI * 50;
  // z = (vC, i); A = [[0, 1/C], [-1/L, -R/L]], b = (0, V0/L).
  double a11 = 0, a12 = 1 / C, a21 = -1 / L, a22 = -R / L, b2 = V0 / L;
  // Particular solution P sin + Q cos with (A² + ω² I) Q = -ω b, P = A Q / ω.
  double m11 = a11 * a11 + a12 * a21 + w * w, m12 = a11 * a12 + a12 * a22;
  double m21 = a21 * a11 + a22 * a21, m22 = a21 * a12 + a22 * a22 + w * w;
  double det = m11 * m22 - m12 * m21;
  double q1 = (m12 * w * b2) / det, q2 = (-m11 * w * b2) / det;
  double p1 = (a11 * q1 + a12 * q2) / w, p2 = (a21 * q1 + a22 * q2) / w;
  // Homogeneous part e^{At} (z0 - Q) with e^{At} = e^{st} (cos βt I + sin βt / β (A - s I)).
  double s = (a11 + a22) / 2, beta = std::sqrt((a11 * a22 - a12 * a21) - s * s);
  double h1 = -q1, h2 = -q2;
  double worst = 0;
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double t = csv.at(k, "time");
    double e = std::exp(s * t), cb = std::cos(beta * t), sb = std::sin(beta * t) / beta;
    double vC = e * (cb * h1 + sb * ((a11 - s) * h1 + a12 * h2)) + p1 * std::sin(w * t) + q1 * std::cos(w * t);
    double i = e * (cb * h2 + sb * (a21 * h1 + (a22 - s) * h2)) + p2 * std::sin(w * t) + q2 * std::cos(w * t);
    worst = std::max({worst, std::fabs(csv.at(k, "vC") - vC), std::fabs(csv.at(k, "i") - i) * 100});
    EXPECT_NEAR(csv.at(k, "vS"), csv.at(k, "vR") + csv.at(k, "vL") + csv.at(k, "vC"), 1e-9);
  }
  EXPECT_LT(worst, 1e-5); // volts, at Tolerance = 1e-8
}

TEST(Simulate, LotkaVolterraConservesItsInvariant) {
  std::string dir = scratchDir("lv");
  RunResult r = runEqc("simulate " + example("lotka_volterra.eq") + " -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  double v0 = csv.at(0, "V"), drift = 0;
  for (size_t k = 0; k < csv.rows.size(); ++k)
    drift = std::max(drift, std::fabs(csv.at(k, "V") - v0));
  EXPECT_LT(drift, 1e-6);
  // The orbit is closed: the prey population goes through several cycles.
  double lo = 1e300, hi = 0;
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    lo = std::min(lo, csv.at(k, "x"));
    hi = std::max(hi, csv.at(k, "x"));
  }
  EXPECT_LT(lo, 1.0);
  EXPECT_GT(hi, 9.9);
}


TEST(Simulate, AlgebraicLoopIsSolvedByNewtonOnEveryRow) {
  std::string dir = scratchDir("loop");
  writeFile(dir + "/loop.eq", R"(model Loop
  Real x(start = 0, fixed = true);
  Real a(start = 1), b;
equation
  der(x) = 1 - a*b;
  a^3 + a = x + 1 + b;
  b = sin(a) + 0.5*x;
end Loop;
)");
  RunResult r = runEqc("simulate loop.eq --t-end 2 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double x = csv.at(k, "x"), a = csv.at(k, "a"), b = csv.at(k, "b");
    EXPECT_NEAR(a * a * a + a, x + 1 + b, 1e-9);
    EXPECT_NEAR(b, std::sin(a) + 0.5 * x, 1e-12);
  }
}

TEST(Simulate, InitialEquationsDetermineFreeStates) {
  std::string dir = scratchDir("init");
  writeFile(dir + "/init.eq", R"(model SteadyStart
  parameter Real u = 2;
  Real x(start = 0) "starts in steady state";
  Real y(start = 3, fixed = true);
equation
  der(x) = -x + u;
  der(y) = -y;
initial equation
  der(x) = 0;
end SteadyStart;
)");
  RunResult r = runEqc("simulate init.eq --t-end 1 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 0; k < csv.rows.size(); ++k)
    EXPECT_NEAR(csv.at(k, "x"), 2.0, 1e-9);
  EXPECT_DOUBLE_EQ(csv.at(0, "y"), 3.0);
  EXPECT_NEAR(csv.rows.back()[csv.column("y")], 3 * std::exp(-1.0), 1e-6);
}

TEST(Simulate, SecondDerivativesAndDerOfExpressionsAreLoweredToFirstOrder) {
  std::string dir = scratchDir("second");
  writeFile(dir + "/second.eq", R"(model Second
  Real x(start = 1, fixed = true), e;
equation
  der(der(x)) = -x;
  e = der(x^2 + der(x)^2);   // d/dt of the energy: 0 along the solution
initial equation
  der(x) = 0;
end Second;
)");
  RunResult r = runEqc("simulate second.eq --t-end 6 --rtol 1e-10 --vars 'x,der(x),e' -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t k = 0; k < csv.rows.size(); ++k) {
    double t = csv.at(k, "time");
    EXPECT_NEAR(csv.at(k, "x"), std::cos(t), 1e-8);
    EXPECT_NEAR(csv.at(k, "der(x)"), -std::sin(t), 1e-8);
    EXPECT_NEAR(csv.at(k, "e"), 0.0, 1e-12);
  }
}

TEST(Simulate, FailedRunKeepsThePreviousResultAndWritesPartial) {
  std::string dir = scratchDir("partial");
  writeFile(dir + "/blowup.eq", "model B\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = x^2;\nend B;\n");
  writeFile(dir + "/out.csv", "precious\n");
  RunResult r = runEqc("simulate blowup.eq --t-end 2 -o out.csv", dir);
  EXPECT_EQ(r.exitCode, 5) << r.stderrText;
  std::ifstream in(dir + "/out.csv");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "precious");
  Csv partial = readCsv(dir + "/out.csv.partial");
  ASSERT_GT(partial.rows.size(), 10u);
  double tLast = partial.rows.back()[0];
  EXPECT_LT(tLast, 1.0 + 1e-3);
  EXPECT_GT(tLast, 0.99);
  EXPECT_NE(r.stderrText.find("blowup.eq:2:8: error: simulation failed at time 1.0000"), std::string::npos)
      << r.stderrText;
  // No temporary file is left behind.
  for (const auto &e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST(Simulate, PlotWritesAnSvgWithOneCurvePerVariable) {
  std::string dir = scratchDir("plot");
  RunResult r = runEqc("simulate " + example("oscillator.eq") + " --vars x,v --plot plot.svg -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  std::ifstream in(dir + "/plot.svg");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string svg = ss.str();
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos) << "written whole";
  size_t curves = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1))
    ++curves;
  EXPECT_EQ(curves, 2u);
  EXPECT_NE(svg.find(">x</text>"), std::string::npos) << "legend";
  EXPECT_NE(svg.find(">v</text>"), std::string::npos) << "legend";
  EXPECT_NE(svg.find(">Oscillator</text>"), std::string::npos) << "title";
  EXPECT_NE(svg.find(">10</text>"), std::string::npos) << "a time tick at StopTime";
  // Result files get the usual permissions, not mkstemp's 0600.
  EXPECT_NE(std::filesystem::status(dir + "/plot.svg").permissions() & std::filesystem::perms::others_read,
            std::filesystem::perms::none);
}

TEST(Simulate, BinaryResultsAndThinnedOutputHoldTheSameNumbers) {
  std::string dir = scratchDir("binary");
  ASSERT_EQ(runEqc("simulate " + example("oscillator.eq") + " -o out.csv", dir).exitCode, 0);
  RunResult r = runEqc("simulate " + example("oscillator.eq") + " --every 10 -o out.eqcres", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  std::ifstream in(dir + "/out.eqcres", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 12u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("EQCRES1", 8));
  size_t at = 8;
  auto get32 = [&] {
    uint32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    at += 4;
    return v;
  };
  uint32_t columns = get32();
  std::vector<std::string> names;
  for (uint32_t c = 0; c < columns; ++c) {
    uint32_t len = get32();
    names.push_back(bytes.substr(at, len));
    at += len;
  }
  EXPECT_EQ(names, csv.names);
  size_t rows = (bytes.size() - at) / (8 * columns);
  ASSERT_EQ((bytes.size() - at) % (8 * columns), 0u);
  ASSERT_EQ(rows, 101u); // 1001 rows thinned to every 10th, the last kept
  for (size_t k = 0; k < rows; ++k)
    for (uint32_t c = 0; c < columns; ++c) {
      double v;
      std::memcpy(&v, bytes.data() + at + 8 * (k * columns + c), 8);
      EXPECT_EQ(v, csv.rows[10 * k][c]) << "row " << k << " column " << names[c];
    }
}

// The heat equation u_t = u_xx by the method of lines, written as n scalar equations: radau5 takes
// the generated sparse Jacobian and the sparse LU (tridiagonal pattern, 3n - 2 entries), and
// matches the exact semi-discrete solution exp(lambda t) sin(pi x_i), lambda = -4 (n+1)^2
// sin^2(pi / (2 (n+1))); the dense LU gives the same numbers.
TEST(Simulate, Radau5UsesTheGeneratedSparseJacobianOnTheHeatEquation) {
  std::string dir = scratchDir("heat");
  const int n = 150;
  std::string src = "model Heat\n  parameter Real k = " + std::to_string((n + 1) * (n + 1)) + ";\n";
  for (int i = 1; i <= n; ++i)
    src += "  Real u" + std::to_string(i) + "(start = sin(3.14159265358979323846*" + std::to_string(i) + "/" +
           std::to_string(n + 1) + "), fixed = true);\n";
  src += "equation\n";
  for (int i = 1; i <= n; ++i) {
    std::string left = i > 1 ? "u" + std::to_string(i - 1) : "0";
    std::string right = i < n ? "u" + std::to_string(i + 1) : "0";
    src += "  der(u" + std::to_string(i) + ") = k*(" + left + " - 2*u" + std::to_string(i) + " + " + right + ");\n";
  }
  src += "end Heat;\n";
  writeFile(dir + "/heat.eq", src);
  const double tEnd = 0.05;
  RunResult sparse = runEqc("simulate heat.eq --method radau5 --rtol 1e-8 --atol 1e-12 --t-end 0.05 --stats "
                            "--vars u1,u75,u150 -o sparse.csv", dir);
  ASSERT_EQ(sparse.exitCode, 0) << sparse.stderrText;
  EXPECT_NE(sparse.stderrText.find("linear algebra: sparse LU (448 structural non-zeros of 150 x 150)"),
            std::string::npos) << sparse.stderrText;
  RunResult dense = runEqc("simulate heat.eq --method radau5 --rtol 1e-8 --atol 1e-12 --t-end 0.05 --stats "
                           "--linear-solver dense --vars u1,u75,u150 -o dense.csv", dir);
  ASSERT_EQ(dense.exitCode, 0) << dense.stderrText;
  EXPECT_NE(dense.stderrText.find("linear algebra: dense LU"), std::string::npos) << dense.stderrText;
  Csv a = readCsv(dir + "/sparse.csv"), b = readCsv(dir + "/dense.csv");
  const double pi = 3.14159265358979323846, s = std::sin(pi / (2.0 * (n + 1)));
  const double decay = std::exp(-4.0 * (n + 1) * (n + 1) * s * s * tEnd);
  const int index[3] = {1, 75, 150};
  for (int c = 0; c < 3; ++c) {
    double exact = decay * std::sin(pi * index[c] / (n + 1));
    EXPECT_NEAR(a.rows.back()[c + 1], exact, 1e-8) << "u" << index[c];
    EXPECT_NEAR(a.rows.back()[c + 1], b.rows.back()[c + 1], 1e-12) << "u" << index[c];
  }
  RunResult bad = runEqc("simulate heat.eq --linear-solver banded -o x.csv", dir);
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.stderrText.find("unknown linear solver 'banded' (known: auto, dense, sparse)"), std::string::npos)
      << bad.stderrText;
}

// SIGINT during integration: the run stops at the next model call, the rows so far go to
// out.csv.partial, the previous out.csv is untouched, no temporary file is left, and the exit
// status is 128 + SIGINT.
TEST(Simulate, InterruptKeepsThePreviousResultAndThePartialOne) {
  std::string dir = scratchDir("interrupt");
  writeFile(dir + "/out.csv", "previous\n");
  // Billions of steps: still integrating when the signal comes. The signal is sent once the
  // temporary output file exists, i.e. after compilation.
  std::string script = "cd '" + dir + "' && ('" EQC_BINARY "' simulate " + example("oscillator.eq") +
                       " --method dopri5 --t-end 1e9 --max-steps 2000000000 --interval 1000 -o out.csv "
                       "2>err.txt & pid=$!; i=0; while [ $i -lt 600 ] && ! ls out.csv.tmp-* >/dev/null 2>&1; "
                       "do sleep 0.05; i=$((i+1)); done; sleep 0.2; kill -INT $pid; wait $pid; echo \"exit=$?\")";
  FILE *pipe = popen(script.c_str(), "r");
  ASSERT_TRUE(pipe);
  char buf[256] = {0};
  std::string text;
  while (fgets(buf, sizeof buf, pipe))
    text += buf;
  pclose(pipe);
  EXPECT_NE(text.find("exit=130"), std::string::npos) << text;
  std::ifstream errFile(dir + "/err.txt");
  std::string err((std::istreambuf_iterator<char>(errFile)), std::istreambuf_iterator<char>());
  EXPECT_NE(err.find("eqc: error: interrupted by SIGINT at time "), std::string::npos) << err;
  EXPECT_NE(err.find("are in 'out.csv.partial'; 'out.csv' is unchanged"), std::string::npos) << err;
  std::ifstream previous(dir + "/out.csv");
  std::string line;
  std::getline(previous, line);
  EXPECT_EQ(line, "previous");
  Csv partial = readCsv(dir + "/out.csv.partial");
  EXPECT_GE(partial.rows.size(), 2u);
  for (auto &entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
}

// nominal = n scales a state's absolute tolerance to atol * |n| (as Modelica tools do): a state of
// size 1e-9 under the default atol = rtol = 1e-6 is not controlled at all without it, and resolved
// to the relative tolerance with it.
TEST(Simulate, NominalScalesTheAbsoluteTolerance) {
  std::string dir = scratchDir("nominal");
  auto run = [&](const std::string &attribute) {
    writeFile(dir + "/small.eq", "model Small\n  Real y(start = 1e-9, fixed = true" + attribute +
                                     ");\nequation\n  der(y) = -y;\nend Small;\n");
    RunResult r = runEqc("simulate small.eq --method dopri5 --t-end 5 -o out.csv", dir);
    EXPECT_EQ(r.exitCode, 0) << r.stderrText;
    return readCsv(dir + "/out.csv").rows.back()[1];
  };
  const double exact = 1e-9 * std::exp(-5.0);
  EXPECT_LT(std::fabs(run(", nominal = 1e-9") / exact - 1), 1e-4); // measured 2.0e-5
  EXPECT_GT(std::fabs(run("") / exact - 1), 1.0);                   // measured 179 (two steps)
}

TEST(Simulate, StatsReportStepsAndPhases) {
  std::string dir = scratchDir("stats");
  RunResult r = runEqc("simulate " + example("oscillator.eq") + " --stats -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  for (const char *needle : {"method auto: ", " steps, 0 rejected", "auto: dopri5 throughout", "parse:", "causalize:",
                             "jit:", "integration:"})
    EXPECT_NE(r.stderrText.find(needle), std::string::npos) << needle << " in\n" << r.stderrText;
}

TEST(Check, PrintsTheFlatSystemAndTheEvaluationOrder) {
  std::string dir = scratchDir("check");
  RunResult r = runEqc("check " + example("oscillator.eq"), dir, dir + "/out.txt");
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  std::ifstream in(dir + "/out.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  std::ifstream golden(std::string(EQC_SOURCE_DIR) + "/tests/e2e/golden/oscillator.check");
  std::stringstream expected;
  expected << golden.rdbuf();
  EXPECT_EQ(ss.str(), expected.str());
}

TEST(Cli, UsageErrorsExitWithStatus1) {
  std::string dir = scratchDir("cli");
  EXPECT_EQ(runEqc("", dir).exitCode, 1);
  EXPECT_EQ(runEqc("frobnicate x.eq", dir).exitCode, 1);
  EXPECT_EQ(runEqc("simulate", dir).exitCode, 1);
  EXPECT_EQ(runEqc("simulate " + example("oscillator.eq") + " --dt abc", dir).exitCode, 1);
  EXPECT_EQ(runEqc("simulate " + example("oscillator.eq") + " --t-end -1 -o x.csv", dir).exitCode, 1);
  EXPECT_EQ(runEqc("check " + example("oscillator.eq") + " --dump-after=nothing", dir).exitCode, 1);
  EXPECT_EQ(runEqc("check missing-file.eq", dir).exitCode, 2);
  EXPECT_EQ(runEqc("simulate --help", dir).exitCode, 0);
}

} // namespace

namespace eqc::test {
namespace {

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::filesystem::path> cacheEntries(const std::string &dir) {
  std::vector<std::filesystem::path> entries;
  if (std::filesystem::exists(dir))
    for (const auto &e : std::filesystem::directory_iterator(dir))
      entries.push_back(e.path());
  return entries;
}

/// `eqc simulate <model> -o <out> --stats --quiet <extra>` in `dir` with EQC_CACHE_DIR = `cache`
/// (through the shell: the variable is exported in front of the command); stdout and stderr.
std::string simulateWithCache(const std::string &dir, const std::string &cache, const std::string &model,
                              const std::string &out, const std::string &extra) {
  std::string cmd = "cd '" + dir + "' && EQC_CACHE_DIR='" + cache + "' '" EQC_BINARY "' simulate '" + model + "' -o " +
                    out + " --stats --quiet " + extra + " 2>&1; echo \"@exit=$?\"";
  std::string text;
  FILE *pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while (pipe && (n = fread(buf, 1, sizeof buf, pipe)) > 0)
    text.append(buf, n);
  if (pipe)
    pclose(pipe);
  EXPECT_NE(text.find("@exit=0"), std::string::npos) << text;
  return text;
}

TEST(Simulate, CompiledModelCacheServesTheSecondRunAndSurvivesACorruptEntry) {
  std::string dir = scratchDir("cache");
  std::string cache = dir + "/cache";
  std::string model = std::string(EQC_SOURCE_DIR) + "/examples/pleiades.eq";
  // -O2: one module, compiled once (the tiers' cache use is tested below).
  auto run = [&](const std::string &out, const std::string &extra = "") {
    return simulateWithCache(dir, cache, model, out, "-O2 " + extra);
  };
  // A temporary entry of a process that ended while writing it (eqc does not wait for an
  // optimized tier at exit) is removed once an hour old; a fresh one (another process writing
  // now) is left alone.
  std::filesystem::create_directories(cache);
  const std::filesystem::path stale = cache + "/eqc-cache-0000000000000000000000000000000000000000.obj.tmp-1-1",
                              fresh = cache + "/eqc-cache-0000000000000000000000000000000000000000.obj.tmp-2-2";
  std::ofstream(stale) << "partial";
  std::ofstream(fresh) << "partial";
  std::filesystem::last_write_time(stale, std::filesystem::file_time_type::clock::now() - std::chrono::hours(2));
  std::string first = run("a.csv");
  EXPECT_NE(first.find("compiled-model cache: 0 modules from it, 1 stored"), std::string::npos) << first;
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(fresh));
  std::filesystem::remove(fresh);
  ASSERT_EQ(cacheEntries(cache).size(), 1u);
  std::string second = run("b.csv");
  EXPECT_NE(second.find("compiled-model cache: 1 module from it, 0 stored"), std::string::npos) << second;
  EXPECT_EQ(slurp(dir + "/a.csv"), slurp(dir + "/b.csv"));

  // A damaged entry (one byte of the object flipped) fails its checksum: compiled again, stored
  // again, the same numbers.
  std::filesystem::path entry = cacheEntries(cache).front();
  std::string bytes = slurp(entry.string());
  bytes[bytes.size() / 2] ^= 0x5a;
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
  std::string third = run("c.csv");
  EXPECT_NE(third.find("compiled-model cache: 0 modules from it, 1 stored"), std::string::npos) << third;
  EXPECT_EQ(slurp(dir + "/a.csv"), slurp(dir + "/c.csv"));
  // A truncated entry too.
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes.substr(0, 20);
  std::string fourth = run("d.csv");
  EXPECT_NE(fourth.find("0 modules from it, 1 stored"), std::string::npos) << fourth;
  EXPECT_EQ(slurp(dir + "/a.csv"), slurp(dir + "/d.csv"));
  for (const auto &e : cacheEntries(cache))
    EXPECT_EQ(e.filename().string().find(".tmp-"), std::string::npos) << e;

  // --no-cache neither reads nor writes it.
  std::filesystem::remove_all(cache);
  std::string none = run("e.csv", "--no-cache");
  EXPECT_EQ(none.find("compiled-model cache"), std::string::npos) << none;
  EXPECT_TRUE(cacheEntries(cache).empty());
  EXPECT_EQ(slurp(dir + "/a.csv"), slurp(dir + "/e.csv"));
}

// With the two tiers (the default), the -O0 code is stored at once, so that the second run loads
// it; a run that ends before the -O2 tier does not wait for it, and --stats says so.
TEST(Simulate, CompiledModelCacheKeepsTheFirstTierAndNoRunWaitsForTheSecond) {
  std::string dir = scratchDir("cache_tiers");
  std::string cache = dir + "/cache";
  std::string model = std::string(EQC_SOURCE_DIR) + "/examples/pleiades.eq";
  auto run = [&](const std::string &out) { return simulateWithCache(dir, cache, model, out, ""); };
  std::string first = run("a.csv");
  EXPECT_TRUE(std::regex_search(first, std::regex("compiled-model cache: 0 modules from it, [12] stored"))) << first;
  EXPECT_TRUE(std::regex_search(first, std::regex("optimized tier \\(-O2, in the background\\): (not started \\(the run "
                                                  "was shorter than the -O0 code took to compile\\)|not ready when the run "
                                                  "ended \\(the -O0 code ran throughout; the -O2 compilation is "
                                                  "abandoned, not awaited\\)|[0-9.]+ ms, then in use)")))
      << first;
  std::string second = run("b.csv");
  EXPECT_TRUE(std::regex_search(second, std::regex("compiled-model cache: 1 module from it"))) << second;
  EXPECT_EQ(slurp(dir + "/a.csv"), slurp(dir + "/b.csv"));
}

} // namespace
} // namespace eqc::test

namespace eqc::test {
namespace {

// -o names the file eqc writes, nothing else: a symbolic link there is replaced, not followed
// (its target is untouched), and a directory or a missing directory is an error (exit 6) that
// leaves nothing behind.
TEST(Simulate, OutputNeverFollowsALinkOrWritesIntoADirectory) {
  std::string dir = scratchDir("output_paths");
  std::string model = std::string(EQC_SOURCE_DIR) + "/examples/oscillator.eq";
  writeFile(dir + "/target.csv", "keep\n");
  std::filesystem::create_symlink(dir + "/target.csv", dir + "/link.csv");
  std::filesystem::create_directories(dir + "/d");
  RunResult linked = runEqc("simulate '" + model + "' -o link.csv --quiet", dir);
  EXPECT_EQ(linked.exitCode, 0) << linked.stderrText;
  EXPECT_FALSE(std::filesystem::is_symlink(dir + "/link.csv"));
  EXPECT_EQ(slurp(dir + "/target.csv"), "keep\n");
  EXPECT_EQ(readCsv(dir + "/link.csv").names.front(), "time");
  RunResult intoDir = runEqc("simulate '" + model + "' -o d --quiet", dir);
  EXPECT_EQ(intoDir.exitCode, 6) << intoDir.stderrText;
  EXPECT_NE(intoDir.stderrText.find("cannot write 'd': Is a directory"), std::string::npos) << intoDir.stderrText;
  EXPECT_TRUE(std::filesystem::is_empty(dir + "/d"));
  RunResult missing = runEqc("simulate '" + model + "' -o nodir/x.csv --quiet", dir);
  EXPECT_EQ(missing.exitCode, 6) << missing.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/nodir"));
  for (const auto &e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

} // namespace
} // namespace eqc::test

// A trial step that leaves the model's domain is rejected and retried shorter (issue 15, item 3):
// x = 1 - exp(-10 t) approaches 1 from below, and long steps' stages overshoot it, where
// sqrt(1 - x) is NaN and the Newton loop of y fails (before: every method stopped there, at
// t = 0.71 to 1.34, with "Newton's method did not converge").
TEST(Simulate, TrialStepsOutsideTheDomainAreRetried) {
  std::string dir = scratchDir("domain_retry");
  writeFile(dir + "/domain.eq", R"(model DomainRetry
  Real x(start = 0, fixed = true);
  Real y(start = 1);
equation
  der(x) = 10*(1 - x);
  y + 0.1*y^3 = sqrt(1 - x);
  annotation(experiment(StopTime = 2, Tolerance = 1e-6, Interval = 0.02));
end DomainRetry;
)");
  for (const char *method : {"dopri5", "dop853", "radau5", "auto"}) {
    RunResult r = runEqc(std::string("simulate domain.eq --stats --method ") + method + " -o out.csv", dir);
    ASSERT_EQ(r.exitCode, 0) << method << ": " << r.stderrText;
    Csv csv = readCsv(dir + "/out.csv");
    ASSERT_EQ(csv.rows.size(), 101u);
    for (size_t k = 0; k < csv.rows.size(); ++k) {
      double t = csv.at(k, "time"), x = csv.at(k, "x"), y = csv.at(k, "y");
      ASSERT_NEAR(x, 1 - std::exp(-10 * t), 1e-5) << method << " at t = " << t;
      ASSERT_LE(x, 1.0) << method << " at t = " << t; // accepted points stay in the domain
      ASSERT_NEAR(y + 0.1 * y * y * y, std::sqrt(1 - x), 1e-9) << method << " at t = " << t;
    }
  }
}

// A circuit C(y) y' = f(t, y) with a state-dependent junction capacitance C1(v1) = Cj0/sqrt(1 - v1/phi),
// a coupling capacitor and a diode law that is exponential below vcrit and linear above (issue 15,
// situation 3): with default settings against the same circuit with the capacitance matrix
// inverted by hand (a second formulation, at rtol 1e-10). v1 is clamped at 0.612, near phi = 0.62.
TEST(Simulate, CircuitWithStateDependentCapacitanceMatrix) {
  std::string dir = scratchDir("clamp");
  writeFile(dir + "/clamp.eq", R"eq(model Clamp "a junction capacitance C1(v1) = Cj0/sqrt(1 - v1/phi) coupled to a second node, clamped by a diode"
  parameter Real R1 = 1e3, R2 = 2e3, Cc = 1e-7, C2 = 2e-7, Cj0 = 1e-7, phi = 0.62;
  parameter Real Is = 1e-12, Vt = 0.02585, vcrit = 0.7, V = 20, f = 1e3;
  Real v1(start = 0, fixed = true), v2(start = 0, fixed = true);
  Real id "the diode current: exponential, continued linearly above vcrit";
equation
  id = if v1 < vcrit then Is*(exp(v1/Vt) - 1) else Is*(exp(vcrit/Vt)*(1 + (v1 - vcrit)/Vt) - 1);
  Cj0/sqrt(1 - v1/phi)*der(v1) + Cc*(der(v1) - der(v2)) = (V*sin(2*3.14159265358979*f*time) - v1)/R1 - id;
  C2*der(v2) + Cc*(der(v2) - der(v1)) = -v2/R2;
  annotation(experiment(StopTime = 5e-3, Tolerance = 1e-6, Interval = 1e-5));
end Clamp;
)eq");
  writeFile(dir + "/explicit.eq", R"eq(model ClampExplicit "the same circuit with the 2x2 capacitance matrix inverted by hand (Cramer's rule)"
  parameter Real R1 = 1e3, R2 = 2e3, Cc = 1e-7, C2 = 2e-7, Cj0 = 1e-7, phi = 0.62;
  parameter Real Is = 1e-12, Vt = 0.02585, vcrit = 0.7, V = 20, f = 1e3;
  Real v1(start = 0, fixed = true), v2(start = 0, fixed = true);
  Real id, c1, i1, i2, det;
equation
  id = if v1 < vcrit then Is*(exp(v1/Vt) - 1) else Is*(exp(vcrit/Vt)*(1 + (v1 - vcrit)/Vt) - 1);
  c1 = Cj0/sqrt(1 - v1/phi);
  i1 = (V*sin(2*3.14159265358979*f*time) - v1)/R1 - id;
  i2 = -v2/R2;
  det = (c1 + Cc)*(C2 + Cc) - Cc*Cc;
  der(v1) = ((C2 + Cc)*i1 + Cc*i2)/det;
  der(v2) = (Cc*i1 + (c1 + Cc)*i2)/det;
  annotation(experiment(StopTime = 5e-3, Tolerance = 1e-6, Interval = 1e-5));
end ClampExplicit;
)eq");
  RunResult a = runEqc("simulate clamp.eq -o a.csv", dir);
  RunResult b = runEqc("simulate explicit.eq --rtol 1e-10 -o b.csv", dir);
  ASSERT_EQ(a.exitCode, 0) << a.stderrText;
  ASSERT_EQ(b.exitCode, 0) << b.stderrText;
  Csv dae = readCsv(dir + "/a.csv"), ode = readCsv(dir + "/b.csv");
  ASSERT_EQ(dae.rows.size(), 501u);
  ASSERT_EQ(ode.rows.size(), 501u);
  double highest = 0;
  for (size_t k = 0; k < dae.rows.size(); ++k) {
    ASSERT_NEAR(dae.at(k, "v1"), ode.at(k, "v1"), 5e-5) << "t = " << dae.at(k, "time"); // rtol 1e-6
    ASSERT_NEAR(dae.at(k, "v2"), ode.at(k, "v2"), 5e-5) << "t = " << dae.at(k, "time");
    highest = std::max(highest, dae.at(k, "v1"));
  }
  EXPECT_GT(highest, 0.61); // the clamp is reached
}

// Runs of alike steps are loops (backend/Codegen.h): `--no-loops` writes the same model as
// straight-line code, and every written number is the same — with the generated Jacobian (radau5),
// at -O2, and in the dummy-derivative state selections of an index-3 model (linear blocks in loops).
TEST(Simulate, LoopsAndStraightLineCodeWriteTheSameNumbers) {
  std::string dir = scratchDir("loops");
  std::ofstream(dir + "/heat.eq") << R"(model Heat
  parameter Integer N = 200;
  Real T[N](start = {sin(3.141592653589793*i/(N + 1)) for i in 1:N}, each fixed = true);
equation
  der(T[1]) = (N + 1)^2*(-2*T[1] + T[2]);
  for i in 2:N-1 loop
    der(T[i]) = (N + 1)^2*(T[i-1] - 2*T[i] + T[i+1]);
  end for;
  der(T[N]) = (N + 1)^2*(T[N-1] - 2*T[N]);
end Heat;
)";
  std::ofstream(dir + "/pendula.eq") << pendulaModel(24);
  const std::string runs[][2] = {{"heat.eq", "--method radau5 --t-end 0.05 -O0"},
                                 {"heat.eq", "--method radau5 --t-end 0.05 -O2"},
                                 {"pendula.eq", "--t-end 1 -O0"}};
  for (const auto &[model, options] : runs) {
    SCOPED_TRACE(model + " " + options);
    RunResult looped = runEqc("simulate " + model + " --no-cache " + options + " -o a.csv", dir);
    ASSERT_EQ(looped.exitCode, 0) << looped.stderrText;
    RunResult straight = runEqc("simulate " + model + " --no-cache --no-loops " + options + " -o b.csv", dir);
    ASSERT_EQ(straight.exitCode, 0) << straight.stderrText;
    EXPECT_EQ(slurp(dir + "/a.csv"), slurp(dir + "/b.csv"));
  }
}

// A relaxation oscillator of two ideal op-amps (gain 1e6, saturating at +-15 V, without events:
// smooth(0, if ...)): a Schmitt trigger, whose input divides between its output and the
// integrator's, and an integrator. The trigger's loop has three solutions inside its hysteresis
// (+-15 and the unstable one between) and one past it: each evaluation must start from the
// solution of the accepted step (a rejected trial step that went past the threshold flipped the
// trigger early), and at the threshold, where Newton's branch ends, the solver must find the other
// one. Analytically: out starts at -15 (its start value), tri ramps at 15/tau = 1500 V/s, and the
// trigger flips where vin = 0, at tri = -+15 R2/R1 = -+22.5: at t = 0.015, 0.045, 0.075.
TEST(Simulate, SchmittTriggerKeepsItsStateUntilItsThreshold) {
  std::string dir = scratchDir("schmitt_trigger");
  writeFile(dir + "/relax.mo", R"(model Relaxation
  parameter Real V0 = 1e6, Vs = 15, R1 = 1000, R2 = 1500, tau = 0.01;
  Real out(start = -15) "the trigger's output";
  Real vin "the trigger's input";
  Real tri(start = 0, fixed = true) "the integrator's output";
equation
  vin = (out*R2 + tri*R1)/(R1 + R2);
  out = smooth(0, if V0*vin > Vs then Vs else if V0*vin < -Vs then -Vs else V0*vin);
  der(tri) = -out/tau;
end Relaxation;
)");
  for (const char *method : {"dopri5", "radau5"}) {
    RunResult r = runEqc(
        std::string("simulate relax.mo --t-end 0.1 --interval 1e-4 -o out.csv --method ") + method, dir);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText;
    Csv csv = readCsv(dir + "/out.csv");
    const std::vector<double> flips = csv.signChanges("out");
    const auto [lo, hi] = csv.range("tri");
    ASSERT_EQ(flips.size(), 3u) << method;
    for (size_t k = 0; k < flips.size(); ++k)
      EXPECT_NEAR(flips[k], 0.015 + 0.03 * static_cast<double>(k), 1.5e-4) << method;
    EXPECT_NEAR(hi, 22.5, 0.2) << method;
    EXPECT_NEAR(lo, -22.5, 0.2) << method;
    EXPECT_NEAR(csv.at(0, "out"), -15, 1e-9) << method;
  }
}

// `Real omega = 2*pi*f` reads parameters only: omega is computed with the parameters (not solved
// at every step), still written as the model's variable, recomputed when -p changes f, and not a
// parameter that -p may set.
TEST(Simulate, VariablesThatParametersFixAreComputedWithThemAndWritten) {
  std::string dir = scratchDir("computed_parameters");
  writeFile(dir + "/osc.eq", R"(model Osc
  parameter Real f = 2;
  Real omega = 2*3.141592653589793*f;
  Real x(start = 1, fixed = true), v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -omega^2*x;
end Osc;
)");
  RunResult r = runEqc("simulate osc.eq --t-end 1 -o out.csv --stats -p f=0.5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("parameter equations: 1 unknowns that equations fix from parameters alone"),
            std::string::npos)
      << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_FALSE(csv.rows.empty());
  const double pi = 3.141592653589793;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    EXPECT_DOUBLE_EQ(csv.at(i, "omega"), pi);
    EXPECT_NEAR(csv.at(i, "x"), std::cos(pi * csv.at(i, "time")), 1e-5);
  }
  RunResult set = runEqc("simulate osc.eq --t-end 1 -o out.csv -p omega=3", dir);
  EXPECT_EQ(set.exitCode, 1);
  EXPECT_NE(
      set.stderrText.find("-p omega=3: 'omega' is a variable of the model, which its equation computes from "
                          "parameters; change those"),
      std::string::npos)
      << set.stderrText;
}
