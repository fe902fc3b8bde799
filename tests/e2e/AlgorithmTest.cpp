// Algorithm sections of models and blocks (MLS 3.5, chapter 11) end to end: each section one
// block whose unknowns are the variables it assigns, checked against analytic solutions.
#include "Run.h"

using namespace eqc::test;

namespace {

/// The row of `csv` nearest to time t.
size_t rowAt(const Csv &csv, double t) {
  size_t best = 0;
  for (size_t r = 0; r < csv.rows.size(); ++r)
    if (std::fabs(csv.rows[r][0] - t) < std::fabs(csv.rows[best][0] - t))
      best = r;
  return best;
}

} // namespace

// MLS 3.5, 11.1 and 11.2: assignments in order, if/elseif (an if-expression of the values each
// branch leaves), a for-loop over a range known at compilation (unrolled), Integer and Boolean
// variables assigned from relations (discrete, changing at events), reading a variable before the
// section assigns it (its start value, 11.1.2), and a component of a block with an algorithm, one
// section per instance. x = exp(-2 t).
TEST(Algorithms, StatementsInOrderGiveOneBlock) {
  std::string dir = scratchDir("algorithm_statements");
  writeFile(dir + "/alg.eq", R"(model Alg
  block Clamp "y = u limited to [-limit, limit]"
    input Real u;
    output Real y;
    parameter Real limit = 1;
  algorithm
    y := u;
    if y > limit then
      y := limit;
    elseif y < -limit then
      y := -limit;
    end if;
  end Clamp;
  parameter Real k = 2;
  Real x(start = 1, fixed = true);
  Real y, z, w[3];
  Integer mode(start = 0);
  Boolean high;
  Real s(start = 5);
  Clamp c1(u = 3 * x), c2(limit = 0.5, u = -x);
equation
  der(x) = -k * y;
algorithm
  y := x;
  z := y^2;
  if x > 0.5 then
    z := z + 1;
  elseif x > 0.25 then
    z := z + 2;
  end if;
  for i in 1:3 loop
    w[i] := i * x;
  end for;
  w := {w[2], w[1], w[3]};
  mode := if x > 0.5 then 1 else 2;
  high := x > 0.7;
  s := s + 1;
  annotation(experiment(StopTime = 1, Tolerance = 1e-10, Interval = 0.05));
end Alg;
)");
  RunResult r = runEqc("simulate alg.eq -o alg.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/alg.csv");
  ASSERT_GT(csv.rows.size(), 20u);
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.rows[row][0], x = std::exp(-2 * t);
    EXPECT_NEAR(csv.at(row, "x"), x, 1e-8) << t;
    EXPECT_NEAR(csv.at(row, "y"), x, 1e-8);
    // At an event row the relation may hold its value from before; compare away from switches.
    if (std::fabs(x - 0.5) > 1e-6 && std::fabs(x - 0.25) > 1e-6)
      EXPECT_NEAR(csv.at(row, "z"), x * x + (x > 0.5 ? 1 : x > 0.25 ? 2 : 0), 1e-8) << t;
    EXPECT_NEAR(csv.at(row, "w[1]"), 2 * x, 1e-8);
    EXPECT_NEAR(csv.at(row, "w[2]"), x, 1e-8);
    EXPECT_NEAR(csv.at(row, "w[3]"), 3 * x, 1e-8);
    if (std::fabs(x - 0.5) > 1e-6)
      EXPECT_EQ(csv.at(row, "mode"), x > 0.5 ? 1 : 2) << t;
    if (std::fabs(x - 0.7) > 1e-6)
      EXPECT_EQ(csv.at(row, "high"), x > 0.7 ? 1 : 0) << t;
    EXPECT_EQ(csv.at(row, "s"), 6); // start 5, plus 1
    EXPECT_NEAR(csv.at(row, "c1.y"), std::min(3 * x, 1.0), 1e-8);
    EXPECT_NEAR(csv.at(row, "c2.y"), std::max(-x, -0.5), 1e-8);
  }
  // mode changes from 1 to 2 where x = 0.5: t = ln(2)/2, an event (the time occurs twice).
  std::vector<double> events = eventTimes(csv);
  ASSERT_FALSE(events.empty());
  bool found = false;
  for (double te : events)
    found = found || std::fabs(te - std::log(2.0) / 2) < 1e-9;
  EXPECT_TRUE(found) << "no event at ln(2)/2";
}

// MLS 3.5, 11.2.7: a when-statement is a when-clause (reinit, discrete assignments that read
// pre-values); an initial algorithm gives initial equations (y(0) = 2 h(0) + 0.5 = 2.5, then
// y = 1 + 1.5 exp(-t)); bounce times of the ball against its flight times.
TEST(Algorithms, WhenStatementsAndInitialAlgorithms) {
  std::string dir = scratchDir("algorithm_when");
  writeFile(dir + "/ball.eq", R"(model Ball
  parameter Real e = 0.8, g = 9.81;
  Real h(start = 1, fixed = true), v(start = 0, fixed = true);
  Integer bounces(start = 0);
  Real lastImpact(start = -1);
  Real y(start = 0);
equation
  der(h) = v;
  der(v) = -g;
  der(y) = 1 - y;
algorithm
  when h < 0 then
    reinit(v, -e*pre(v));
    bounces := bounces + 1;
    lastImpact := time;
  end when;
initial algorithm
  y := 2 * h;
  y := y + 0.5;
  annotation(experiment(StopTime = 2, Tolerance = 1e-10, Interval = 0.01));
end Ball;
)");
  RunResult r = runEqc("simulate ball.eq -o ball.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/ball.csv");
  const double g = 9.81, e = 0.8, v1 = std::sqrt(2 * g), t1 = v1 / g, t2 = t1 + 2 * e * v1 / g,
               t3 = t2 + 2 * e * e * v1 / g;
  std::vector<double> events = eventTimes(csv);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_NEAR(events[0], t1, 1e-9);
  EXPECT_NEAR(events[1], t2, 1e-9);
  EXPECT_NEAR(events[2], t3, 1e-9);
  const Csv &c = csv;
  EXPECT_EQ(c.at(c.rows.size() - 1, "bounces"), 3);
  EXPECT_NEAR(c.at(c.rows.size() - 1, "lastImpact"), t3, 1e-9);
  EXPECT_NEAR(c.at(rowAt(c, 1.0), "lastImpact"), t1, 1e-9);
  EXPECT_EQ(c.at(0, "y"), 2.5);
  EXPECT_NEAR(c.at(rowAt(c, 1.5), "y"), 1 + 1.5 * std::exp(-1.5), 1e-8);
}

// A function's outputs assigned by a tuple, and a loop whose body reads what the previous
// iteration assigned: p = x^4 by repeated products, (q, r) = (div, rem) of a function.
TEST(Algorithms, TupleAssignmentsAndLoopsThatAccumulate) {
  std::string dir = scratchDir("algorithm_tuple");
  writeFile(dir + "/acc.eq", R"(model Acc
  function split
    input Real a;
    output Real whole;
    output Real rest;
  algorithm
    whole := floor(a);
    rest := a - whole;
  end split;
  Real x(start = 0.5, fixed = true);
  Real p, q, r;
equation
  der(x) = 1;
algorithm
  p := 1;
  for i in 1:4 loop
    p := p * x;
  end for;
  (q, r) := split(3 * x);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Acc;
)");
  RunResult r = runEqc("simulate acc.eq -o acc.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/acc.csv");
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double x = 0.5 + csv.rows[row][0];
    EXPECT_NEAR(csv.at(row, "p"), std::pow(x, 4), 1e-9);
    EXPECT_NEAR(csv.at(row, "q") + csv.at(row, "r"), 3 * x, 1e-9);
  }
}
