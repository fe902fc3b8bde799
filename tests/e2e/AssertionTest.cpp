// Assertions of equation sections (MLS 3.5, 8.3.7) end to end: where they fail, against
// references computed independently of eqc (quadrature of the pendulum's energy integral, the
// bouncing ball's flight times); every index reduction and events.
#include "Run.h"

using namespace eqc::test;

namespace {

/// The time of the first "<severity>: at time T: assertion failed: <prefix>" message, NaN if none.
double failureTime(const std::string &text, const std::string &severity, const std::string &prefix) {
  const std::string marker = ": assertion failed: " + prefix;
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
    size_t start = text.rfind(severity + ": at time ", at);
    if (start != std::string::npos && text.find('\n', start) > at)
      return std::strtod(text.c_str() + start + severity.size() + 10, nullptr);
  }
  return NAN;
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

/// The Cartesian pendulum released from (L, 0) at rest, y = -L cos(theta): the time at which
/// cos(theta) = c, from the energy integral t = int dphi / sqrt(2 g sin phi) (phi = pi/2 - theta)
/// with phi = u^2 (composite Simpson, 2*10^5 intervals; converged to 1e-13).
double pendulumTime(double c, double g) {
  const double top = std::sqrt(std::asin(c));
  const int n = 200000;
  auto f = [&](double u) { return u > 0 ? 2 / std::sqrt(2 * g * std::sin(u * u) / (u * u)) : 2 / std::sqrt(2 * g); };
  const double h = top / n;
  double s = f(0) + f(top);
  for (int i = 1; i < n; ++i)
    s += (i % 2 ? 4 : 2) * f(i * h);
  return s * h / 3;
}

} // namespace

// The index-3 pendulum with an error on the height and a warning on the rod force lambda
// (lambda = 3 g cos(theta) for a unit mass and length): both are found where they first fail,
// within 1e-8 of the quadrature, by dummy derivatives and by the ODE with invariants (projection
// and Baumgarte); the run stops with status 5 and keeps its results.
TEST(Assertions, PendulumFailsWhereTheQuadratureSays) {
  std::string dir = scratchDir("assert_pendulum");
  writeFile(dir + "/p.eq", R"(model Pendulum
  parameter Real L = 1, g = 9.81;
  Real x(start = 1, fixed = true), y(start = 0);
  Real vx(start = 0, fixed = true), vy;
  Real lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  assert(y > -0.9, "y = " + String(y) + " below -0.9");
  assert(lambda < 25, "rod force " + String(lambda), AssertionLevel.warning);
  annotation(experiment(StopTime = 10, Tolerance = 1e-10, Interval = 0.01));
end Pendulum;
)");
  const double g = 9.81, errorTime = pendulumTime(0.9, g), warningTime = pendulumTime(25 / (3 * g), g);
  EXPECT_NEAR(errorTime, 0.4883451319086827, 1e-12); // the quadrature itself
  for (const char *reduction : {"dummy", "invariants --stabilize projection", "invariants --stabilize baumgarte"}) {
    RunResult r = runEqc(std::string("simulate p.eq -o p.csv --reduction ") + reduction, dir);
    EXPECT_EQ(r.exitCode, 5) << reduction << "\n" << r.stderrText;
    EXPECT_NEAR(failureTime(r.stderrText, "error", "y = -0.9 below -0.9"), errorTime, 1e-8) << reduction << "\n" << r.stderrText;
    EXPECT_NEAR(failureTime(r.stderrText, "warning", "rod force 25"), warningTime, 1e-8) << reduction << "\n" << r.stderrText;
    EXPECT_EQ(count(r.stderrText, "warning:"), 1u) << r.stderrText;
    EXPECT_NE(r.stderrText.find("p.eq:10:3: error: at time "), std::string::npos) << r.stderrText;
    EXPECT_FALSE(std::filesystem::exists(dir + "/p.csv"));
    Csv partial = readCsv(dir + "/p.csv.partial");
    ASSERT_GT(partial.rows.size(), 40u);
    EXPECT_GE(partial.rows.back()[0], 0.48);
  }
}

// Assertions after events: the ball's counter fails at the third bounce (an event, where the
// assertion is checked after the event iteration), the velocity warning at v = -4 before the
// first bounce, once, although v passes -4 again later.
TEST(Assertions, BouncingBallFailsAtTheThirdBounce) {
  std::string dir = scratchDir("assert_ball");
  writeFile(dir + "/ball.eq", R"(model BouncingBall
  parameter Real e = 0.8, g = 9.81, h0 = 1;
  Real h(start = h0, fixed = true), v(start = 0, fixed = true);
  Integer bounces(start = 0);
equation
  der(h) = v;
  der(v) = -g;
  when h < 0 then
    reinit(v, -e*pre(v));
    bounces = pre(bounces) + 1;
  end when;
  assert(bounces < 3, "bounce " + String(bounces) + " at v = " + String(v, format = ".4f"));
  assert(v > -4, "fast", level = AssertionLevel.warning);
  annotation(experiment(StopTime = 4, Tolerance = 1e-10, Interval = 0.01));
end BouncingBall;
)");
  const double g = 9.81, e = 0.8, v1 = std::sqrt(2 * g * 1.0), t1 = v1 / g;
  const double t3 = t1 + 2 * e * v1 / g + 2 * e * e * v1 / g;
  for (const char *method : {"dopri5", "radau5", "dop853"}) {
    RunResult r = runEqc(std::string("simulate ball.eq -o ball.csv --method ") + method, dir);
    EXPECT_EQ(r.exitCode, 5) << method << "\n" << r.stderrText;
    EXPECT_NEAR(failureTime(r.stderrText, "error", "bounce 3 at v = "), t3, 1e-8) << method << "\n" << r.stderrText;
    char v3[32];
    std::snprintf(v3, sizeof v3, "%.4f", e * e * e * v1);
    EXPECT_NE(r.stderrText.find(std::string("bounce 3 at v = ") + v3), std::string::npos) << r.stderrText;
    EXPECT_NEAR(failureTime(r.stderrText, "warning", "fast"), 4 / g, 1e-8) << method << "\n" << r.stderrText;
    EXPECT_EQ(count(r.stderrText, "warning:"), 1u) << r.stderrText;
  }
}
