// eqc simulate --sensitivities: the forward sensitivity equations generated with the model,
// against closed forms and against finite differences of two runs.
#include "Run.h"

#include <cmath>
#include <fstream>

namespace eqc::test {
namespace {

std::string examples(const char *name) { return std::string(EQC_SOURCE_DIR) + "/examples/" + name; }

TEST(Sensitivity, UndampedOscillatorMatchesItsClosedForm) {
  // x'' = -k x, x(0) = 1: x = cos(sqrt(k) t), dx/dk = -t sin(sqrt(k) t) / (2 sqrt(k)), and
  // v = -sqrt(k) sin(sqrt(k) t), dv/dk = -(sin(sqrt(k) t) / sqrt(k) + t cos(sqrt(k) t)) / 2.
  std::string dir = scratchDir("sens_oscillator");
  RunResult r = runEqc("simulate " + examples("oscillator.eq") + " -p c=0 --sensitivities k --rtol 1e-12 -o s.csv",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/s.csv");
  const double k = 4, w = std::sqrt(k);
  double worst = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    double t = csv.at(i, "time");
    worst = std::max(worst, std::fabs(csv.at(i, "d(x)/d(k)") + t * std::sin(w * t) / (2 * w)));
    worst = std::max(worst, std::fabs(csv.at(i, "d(v)/d(k)") + (std::sin(w * t) / w + t * std::cos(w * t)) / 2));
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_EQ(csv.rows.size(), 1001u);
}

/// Central differences of two runs with p = value -+ h against the sensitivity column of a run at
/// `value`, at every output point: the largest error relative to max(1, |dx/dp|).
double worstAgainstDifferences(const std::string &dir, const std::string &model, const std::string &options,
                               const std::string &p, double value, double h, const std::vector<std::string> &vars) {
  auto run = [&](double v, const std::string &extra, const std::string &out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    RunResult r = runEqc("simulate " + model + " " + options + " -p " + p + "=" + buf + " " + extra + " -o " + out, dir);
    EXPECT_EQ(r.exitCode, 0) << r.stderrText;
    return readCsv(dir + "/" + out);
  };
  Csv s = run(value, "--sensitivities " + p, "s.csv"), lo = run(value - h, "", "lo.csv"), hi = run(value + h, "", "hi.csv");
  EXPECT_EQ(s.rows.size(), lo.rows.size());
  EXPECT_EQ(s.rows.size(), hi.rows.size());
  double worst = 0;
  for (size_t i = 0; i < s.rows.size() && i < lo.rows.size() && i < hi.rows.size(); ++i)
    for (const std::string &x : vars) {
      double fd = (hi.at(i, x) - lo.at(i, x)) / (2 * h), sens = s.at(i, "d(" + x + ")/d(" + p + ")");
      worst = std::max(worst, std::fabs(sens - fd) / std::max(1.0, std::fabs(sens)));
    }
  return worst;
}

TEST(Sensitivity, DampedOscillatorMatchesFiniteDifferences) {
  std::string dir = scratchDir("sens_damped");
  // h = 1e-4: truncation ~ h^2 |x'''| ~ 1e-8, rounding ~ rtol / h = 1e-8.
  EXPECT_LT(worstAgainstDifferences(dir, examples("oscillator.eq"), "--rtol 1e-12", "c", 0.1, 1e-4, {"x", "v", "a"}),
            1e-6);
  EXPECT_LT(worstAgainstDifferences(dir, examples("oscillator.eq"), "--rtol 1e-12", "k", 4.0, 1e-4, {"x", "v"}), 1e-6);
}

TEST(Sensitivity, RoberMatchesFiniteDifferences) {
  // The stiff ROBER (radau5 after auto's switch) to t = 40, with respect to each rate constant.
  std::string dir = scratchDir("sens_rober");
  const std::string options = "--rtol 1e-10 --atol 1e-16 --t-end 40 --interval 4";
  EXPECT_LT(worstAgainstDifferences(dir, examples("rober.eq"), options, "k1", 0.04, 4e-6, {"y1", "y2", "y3"}), 1e-5);
  EXPECT_LT(worstAgainstDifferences(dir, examples("rober.eq"), options, "k3", 1e4, 1.0, {"y1", "y2", "y3"}), 1e-5);
}

TEST(Sensitivity, StartValuesAndDependentParameters) {
  // x' = -k x, x(0) = A, k = w^2: x = A exp(-k t); dx/dA = exp(-k t), dx/dw = -2 w A t exp(-k t).
  std::string dir = scratchDir("sens_start");
  std::ofstream(dir + "/decay.mo") << R"(model Decay
  parameter Real A = 2, w = 0.5;
  parameter Real k = w^2;
  Real x(start = A, fixed = true);
  Real y;
equation
  der(x) = -k*x;
  y = x^2;
  annotation(experiment(StopTime = 4, Interval = 0.5, Tolerance = 1e-12));
end Decay;
)";
  RunResult r = runEqc("simulate decay.mo --sensitivities A,w -o s.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/s.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    double t = csv.at(i, "time"), e = std::exp(-0.25 * t);
    EXPECT_NEAR(csv.at(i, "d(x)/d(A)"), e, 1e-9) << t;
    EXPECT_NEAR(csv.at(i, "d(x)/d(w)"), -2 * 0.5 * 2 * t * e, 1e-9) << t;
    EXPECT_NEAR(csv.at(i, "d(y)/d(A)"), 2 * (2 * e) * e, 1e-9) << t; // y = x^2: dy = 2 x dx
  }
}

TEST(Sensitivity, ModelsAndParametersItCannotTakeAreRefused) {
  std::string dir = scratchDir("sens_errors");
  RunResult r = runEqc("simulate " + examples("oscillator.eq") + " --sensitivities q -o s.csv", dir);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.stderrText.find("oscillator.eq:2:7: error: --sensitivities: model 'Oscillator' has no parameter 'q'"),
            std::string::npos)
      << r.stderrText;
  r = runEqc("simulate " + examples("bouncing_ball.eq") + " --sensitivities e -o s.csv", dir);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.stderrText.find("has events"), std::string::npos) << r.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/s.csv"));
}

} // namespace
} // namespace eqc::test
