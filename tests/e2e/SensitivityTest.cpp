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

/// The largest error of a run's sensitivity columns d(x)/d(p) against `exact(t, x, p)`, relative
/// to max(1, |exact|), over every output row; the two rows of an event (its time twice) are
/// compared with the closed form just before and just after it.
template <typename Exact>
double worstAgainst(const Csv &csv, const std::vector<std::string> &vars,
                    const std::vector<std::string> &params, Exact exact) {
  double worst = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i)
    for (const std::string &x : vars)
      for (const std::string &p : params) {
        double t = csv.rows[i][0];
        if (i + 1 < csv.rows.size() && csv.rows[i + 1][0] == t)
          t -= 1e-9;
        else if (i > 0 && csv.rows[i - 1][0] == t)
          t += 1e-9;
        const double want = exact(t, x, p);
        worst = std::max(worst, std::fabs(csv.at(i, "d(" + x + ")/d(" + p + ")") - want) /
                                    std::max(1.0, std::fabs(want)));
      }
  return worst;
}

TEST(Sensitivity, BouncingBallJumpsAtEveryBounce) {
  // Across events (the time of each bounce moves with the parameters, and reinit(v, -e*pre(v))
  // has a derivative of its own). Closed form: the first impact at t1 = sqrt(2 h0/g) with speed
  // u = sqrt(2 g h0); after bounce k the ball leaves with V_k = e^k u and lands again at
  // t_{k+1} = t_k + 2 V_k/g; between, h = V_k s - g s^2/2 and v = V_k - g s with s = t - t_k.
  // Their derivatives by the chain rule through V_k and t_k.
  std::string dir = scratchDir("sens_ball");
  RunResult r = runEqc(
      "simulate " + examples("bouncing_ball.eq") + " --t-end 2.5 --sensitivities e,h0,g -o s.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/s.csv");
  const double e = 0.8, g = 9.81, h0 = 1;
  auto exact = [&](double t, const std::string &x, const std::string &p) {
    const double dg = p == "g" ? 1 : 0;
    double tk = std::sqrt(2 * h0 / g), u = std::sqrt(2 * g * h0);
    if (t < tk)
      return x == "h" ? (p == "h0" ? 1 : -dg * t * t / 2) : -dg * t;
    double dtk = p == "h0" ? tk / (2 * h0) : p == "g" ? -tk / (2 * g) : 0;
    for (int k = 1;; ++k) {
      const double V = std::pow(e, k) * u;
      const double dV = p == "e" ? k * std::pow(e, k - 1) * u : p == "h0" ? V / (2 * h0) : V / (2 * g);
      const double next = tk + 2 * V / g;
      if (t < next) {
        const double s = t - tk;
        return x == "h" ? dV * s - (V - g * s) * dtk - dg * s * s / 2 : dV - dg * s + g * dtk;
      }
      dtk += 2 * dV / g - 2 * V * dg / (g * g);
      tk = next;
    }
  };
  // The bounces: 0.45, 1.17, 1.75 and 2.21 s; tolerance 1e-10 (the example's).
  EXPECT_EQ(eventTimes(csv).size(), 4u);
  EXPECT_LT(worstAgainst(csv, {"h", "v"}, {"e", "h0", "g"}, exact), 1e-6);
}

TEST(Sensitivity, SwitchingRightHandSideJumpsByItsDifference) {
  // No reinit: der(x) switches from -k x to -c where x falls through xs, at t1 = ln(1/xs)/k, and
  // d(x)/d(p) jumps by (f- - f+) d(t1)/d(p). Closed form after t1: x = xs - c (t - t1), so
  // dx/dk = c dt1/dk = -c t1/k, dx/dxs = 1 - c/(k xs), dx/dc = -(t - t1); before: x = exp(-k t).
  std::string dir = scratchDir("sens_switch");
  writeFile(dir + "/switch.eq", "model Switch\n"
                                "  parameter Real k = 1, xs = 0.5, c = 2;\n"
                                "  Real x(start = 1, fixed = true);\n"
                                "equation\n"
                                "  der(x) = if x > xs then -k*x else -c;\n"
                                "end Switch;\n");
  RunResult r = runEqc("simulate switch.eq --t-end 1 --rtol 1e-10 --sensitivities k,xs,c -o s.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  const double k = 1, xs = 0.5, c = 2, t1 = std::log(1 / xs) / k;
  auto exact = [&](double t, const std::string &, const std::string &p) {
    if (t < t1)
      return p == "k" ? -t * std::exp(-k * t) : 0.0;
    return p == "k" ? -c * t1 / k : p == "xs" ? 1 - c / (k * xs) : -(t - t1);
  };
  EXPECT_LT(worstAgainst(readCsv(dir + "/s.csv"), {"x"}, {"k", "xs", "c"}, exact), 1e-7);
}

TEST(Sensitivity, DiscreteRealsAndSampledEventsHaveTheirs) {
  // A when-equation that samples y = x + time^2 where x = w t reaches a: at t_e = a/w, so y =
  // a + (a/w)^2, dy/da = 1 + 2a/w^2, dy/dw = -2a^2/w^3 (the event's time moves: x(t_e) stays a,
  // time^2 does not). And sample(T0, dT) with both parameters: u steps by 1 at T0 + i dT, so x =
  // integral of u loses one unit of area per sample for a later T0: dx/dT0 = -(samples so far),
  // dx/d(dT) = -(0 + 1 + ... + samples - 1).
  std::string dir = scratchDir("sens_discrete");
  writeFile(dir + "/held.eq", "model Held\n"
                              "  parameter Real a = 0.3, w = 2;\n"
                              "  Real x(start = 0, fixed = true);\n"
                              "  discrete Real y(start = 0, fixed = true);\n"
                              "  Real z;\n"
                              "equation\n"
                              "  der(x) = w;\n"
                              "  when x >= a then y = x + time^2; end when;\n"
                              "  z = y*time;\n"
                              "end Held;\n");
  RunResult r = runEqc("simulate held.eq --t-end 1 --rtol 1e-10 --sensitivities a,w -o s.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  const double a = 0.3, w = 2, te = a / w;
  auto held = [&](double t, const std::string &x, const std::string &p) {
    const double dy = t < te ? 0.0 : p == "a" ? 1 + 2 * a / (w * w) : -2 * a * a / (w * w * w);
    return x == "y" ? dy : x == "z" ? dy * t : p == "w" ? t : 0.0;
  };
  EXPECT_LT(worstAgainst(readCsv(dir + "/s.csv"), {"x", "y", "z"}, {"a", "w"}, held), 1e-8);

  writeFile(dir + "/sampled.eq", "model Sampled\n"
                                 "  parameter Real T0 = 0.25, dT = 0.5;\n"
                                 "  Real x(start = 0, fixed = true);\n"
                                 "  discrete Real u(start = 1, fixed = true);\n"
                                 "equation\n"
                                 "  der(x) = u;\n"
                                 "  when sample(T0, dT) then u = pre(u) + 1; end when;\n"
                                 "end Sampled;\n");
  r = runEqc("simulate sampled.eq --t-end 2 --rtol 1e-10 --sensitivities T0,dT -o s.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  auto sampled = [&](double t, const std::string &, const std::string &p) {
    const int n = t < 0.25 ? 0 : static_cast<int>(std::floor((t - 0.25) / 0.5)) + 1;
    return p == "T0" ? -n : -n * (n - 1) / 2.0;
  };
  Csv csv = readCsv(dir + "/s.csv");
  EXPECT_EQ(eventTimes(csv).size(), 4u);
  EXPECT_LT(worstAgainst(csv, {"x"}, {"T0", "dT"}, sampled), 1e-8);
}

/// The complete elliptic integral of the first kind K(m) by the arithmetic-geometric mean.
double ellipticK(double m) {
  double a = 1, b = std::sqrt(1 - m);
  for (int i = 0; i < 30; ++i) {
    double next = (a + b) / 2;
    b = std::sqrt(a * b);
    a = next;
  }
  return M_PI / (2 * a);
}

TEST(Sensitivity, PendulumPeriodAcrossAnIndexReducedEvent) {
  // The index-3 pendulum's half swing ends at the event vx > 0 where T = 2 time: T = 4 sqrt(L/g)
  // K(sin(theta0/2)^2), so dT/dL = T/(2L), dT/dg = -T/(2g), through dummy derivatives and the
  // jump of the event's time.
  std::string dir = scratchDir("sens_pendulum");
  RunResult r = runEqc("simulate " + examples("pendulum_period.eq") + " --sensitivities L,g -o s.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/s.csv");
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  const double T = 4 * std::sqrt(1 / 9.81) * ellipticK(std::pow(std::sin(0.25), 2));
  EXPECT_NEAR(csv.at(last, "T"), T, 1e-8);
  EXPECT_NEAR(csv.at(last, "d(T)/d(L)"), T / 2, 1e-7);
  EXPECT_NEAR(csv.at(last, "d(T)/d(g)"), -T / (2 * 9.81), 1e-8);
}

TEST(Sensitivity, InputsAreGivenAndHaveNone) {
  // der(x) = -k x + u with u from a file (the ramp u = t), an input without a start value: the
  // parameters do not move u, so d(x)/d(k) solves der(s) = -x - k s alone; against central
  // differences of two runs in k.
  std::string dir = scratchDir("sens_input");
  writeFile(dir + "/input.eq", "model WithInput\n"
                               "  parameter Real k = 2;\n"
                               "  input Real u;\n"
                               "  Real x(start = 1, fixed = true);\n"
                               "equation\n"
                               "  der(x) = -k*x + u;\n"
                               "end WithInput;\n");
  writeFile(dir + "/u.csv", "time,u\n0,0\n1,1\n");
  EXPECT_LT(worstAgainstDifferences(dir, "input.eq", "--input u.csv --rtol 1e-12", "k", 2.0, 1e-4, {"x"}),
            1e-6);
}

TEST(Sensitivity, ModelsAndParametersItCannotTakeAreRefused) {
  std::string dir = scratchDir("sens_errors");
  RunResult r = runEqc("simulate " + examples("oscillator.eq") + " --sensitivities q -o s.csv", dir);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.stderrText.find("oscillator.eq:2:7: error: --sensitivities: model 'Oscillator' has no parameter 'q'"),
            std::string::npos)
      << r.stderrText;
  writeFile(dir + "/delayed.eq", "model Delayed\n"
                                 "  parameter Real k = 1;\n"
                                 "  Real x(start = 1, fixed = true);\n"
                                 "equation\n"
                                 "  der(x) = -k*delay(x, 0.5);\n"
                                 "end Delayed;\n");
  r = runEqc("simulate delayed.eq --sensitivities k -o s.csv", dir);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(
      r.stderrText.find("delayed.eq:5:15: error: --sensitivities: model 'Delayed' has delay(); eqc generates "
                        "sensitivities of models without delays"),
      std::string::npos)
      << r.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/s.csv"));
}

} // namespace
} // namespace eqc::test
