// delay() (MLS 3.5, 3.7.2) end to end, against solutions computed independently: the delay
// differential equation x' = -x(t - 1) by the method of steps, a variable delay of a known
// signal, a jump carried over by the delay, and the rules (parameter expressions, bounds,
// vectorization, no derivative of a delay) reported at their place.
#include "Run.h"

#include <cmath>

using namespace eqc::test;

// x' = -x(t - 1), x = 1 before the start (delay is x(time.start) there): the method of steps
// gives x = 1 - t on [0, 1], x = -(2 (t - 1) - (t^2 - 1) / 2) on [1, 2], x(3) = -1/6.
TEST(Delay, DelayDifferentialEquationMatchesTheMethodOfSteps) {
  std::string dir = scratchDir("delay_dde");
  writeFile(dir + "/m.mo", R"(model Dde
  parameter Real tau = 1;
  Real x(start = 1, fixed = true);
equation
  der(x) = -delay(x, tau);
end Dde;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 3 --interval 0.25 --method dopri5 --rtol 1e-10 --atol 1e-10", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.rows[i][0], x = csv.at(i, "x");
    if (t <= 1)
      EXPECT_NEAR(x, 1 - t, 1e-8) << "t = " << t;
    else if (t <= 2)
      EXPECT_NEAR(x, -(2 * (t - 1) - (t * t - 1) / 2), 1e-8) << "t = " << t;
  }
  EXPECT_NEAR(csv.at(csv.rows.size() - 1, "x"), -1.0 / 6.0, 1e-7);
}

// A delay time that changes in time (it needs delayMax): y = s(t - d(t)) with s = sin(t) a state,
// d = 0.5 + 0.25 sin(3t); s(0) = 0 while t - d(t) <= 0. A vectorized delay of a constant vector
// of expressions gives each element its own history.
TEST(Delay, VariableDelayTimeReadsTheSignalAtTheShiftedTime) {
  std::string dir = scratchDir("delay_variable");
  writeFile(dir + "/m.mo", R"(model VariableDelay
  Real s(start = 0, fixed = true);
  Real d = 0.5 + 0.25*sin(3*time);
  Real y = delay(s, d, 1);
  Real v[2] = delay({s, 2*s}, 0.5);
equation
  der(s) = cos(time);
end VariableDelay;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 5 --interval 0.05 --method dopri5 --rtol 1e-10 --atol 1e-10", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.rows[i][0], d = 0.5 + 0.25 * std::sin(3 * t);
    EXPECT_NEAR(csv.at(i, "y"), t - d > 0 ? std::sin(t - d) : 0.0, 2e-6) << "t = " << t;
    EXPECT_NEAR(csv.at(i, "v[1]"), t > 0.5 ? std::sin(t - 0.5) : 0.0, 2e-6) << "t = " << t;
    EXPECT_NEAR(csv.at(i, "v[2]"), t > 0.5 ? 2 * std::sin(t - 0.5) : 0.0, 4e-6) << "t = " << t;
  }
}

// A step at t = 1 (an event: both limits are kept) reaches the delayed output at 1.5 exactly.
TEST(Delay, JumpIsDelayedWithoutSmearing) {
  std::string dir = scratchDir("delay_jump");
  writeFile(dir + "/m.mo", R"(model DelayedStep
  Real x(start = 0, fixed = true);
  Real u = if time < 1 then 0 else 1;
  Real y = delay(u, 0.5);
equation
  der(x) = y;
end DelayedStep;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 3 --interval 0.01 --rtol 1e-9 --atol 1e-9", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.rows[i][0];
    if (std::fabs(t - 1.5) > 1e-9)
      EXPECT_EQ(csv.at(i, "y"), t < 1.5 ? 0.0 : 1.0) << "t = " << t;
  }
  // x = integral of y = t - 1.5 after 1.5 (the integrator steps over the delayed jump).
  EXPECT_NEAR(csv.at(csv.rows.size() - 1, "x"), 1.5, 1e-6);
}

// MLS 3.5, 3.7.2: 0 <= delayTime <= delayMax, else an error (here at run time, with the time).
TEST(Delay, DelayTimeBeyondDelayMaxStopsTheRun) {
  std::string dir = scratchDir("delay_bound");
  writeFile(dir + "/m.mo", R"(model TooLong
  Real x(start = 0, fixed = true);
  Real y = delay(x, 0.5*time, 1);
equation
  der(x) = 1;
end TooLong;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 3", dir);
  EXPECT_EQ(r.exitCode, 5) << r.stderrText;
  EXPECT_NE(r.stderrText.find("m.mo:3:12: error: at time 2"), std::string::npos) << r.stderrText;
  EXPECT_NE(r.stderrText.find("of delay() is not between 0 and delayMax = 1"), std::string::npos) << r.stderrText;
}

TEST(Delay, RulesAreReportedAtTheirPlace) {
  std::string dir = scratchDir("delay_rules");
  struct Case {
    const char *body, *message;
  } cases[] = {
      {"  Real y = delay(x, time);\n", "m.mo:3:21: error: a delay time that changes in time needs delayMax"},
      {"  Real y = delay(x, 2, 1);\n", "m.mo:3:21: error: the delay time 2 of delay() is larger than its delayMax 1"},
      {"  Real y = delay(x, -1);\n", "m.mo:3:21: error: the delay time of delay() must be 0 or more, not -1"},
      {"  Real y = delay(x, 1, time);\n", "m.mo:3:24: error: delayMax of delay() must be a parameter expression"},
      {"  Real y = delay(x);\n", "m.mo:3:12: error: function 'delay' takes 2 or 3 arguments"},
      {"  parameter Real y = delay(1, 1);\n", "m.mo:3:22: error: delay() can only be used in equations"},
      {"  Real y = delay(x > 1, 1);\n", "m.mo:3:18: error: delay() delays a Real expression, not a Boolean"},
  };
  for (const Case &c : cases) {
    writeFile(dir + "/m.mo", std::string("model M\n  Real x(start = 0, fixed = true);\n") + c.body +
                                 "equation\n  der(x) = 1;\nend M;\n");
    RunResult r = runEqc("check m.mo", dir);
    EXPECT_NE(r.exitCode, 0) << c.body;
    EXPECT_NE(r.stderrText.find(c.message), std::string::npos) << c.body << r.stderrText;
  }
}

// An equation with a delay that the index reduction must differentiate: eqc has no derivative
// of a delay, and says where.
TEST(Delay, IndexReductionThroughADelayIsReported) {
  std::string dir = scratchDir("delay_index");
  writeFile(dir + "/m.mo", R"(model Tracking
  Real x, v;
equation
  der(x) = v;
  x = delay(sin(time) + v, 0.5);
end Tracking;
)");
  RunResult r = runEqc("check m.mo", dir);
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.stderrText.find("m.mo:5:7: error: the index reduction differentiates an equation that contains this delay()"),
            std::string::npos)
      << r.stderrText;
}
