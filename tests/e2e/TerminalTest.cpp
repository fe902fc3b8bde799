// terminal() (MLS 3.5, 3.7.2) and assert() inside when-clauses (8.3.7, 11.2.7) end to end: the
// terminal event after the last step of a successful run (its changes are one more row at the
// stop time), and assertions taken when their branch fires.
#include "Run.h"

using namespace eqc::test;

TEST(Terminal, TerminalEventRunsWhenClausesOnceAtTheStopTime) {
  std::string dir = scratchDir("terminal_event");
  writeFile(dir + "/m.mo", R"(model Term
  Real x(start = 0, fixed = true);
  discrete Real finalX(start = -1);
  Integer n(start = 0);
equation
  der(x) = 1;
  when terminal() then
    finalX = x;
  end when;
algorithm
  when terminal() then
    n := pre(n) + 1;
    assert(x > 1.5, "x = " + String(x) + " is too small at the end");
  end when;
end Term;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 2 --interval 0.5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t last = csv.rows.size() - 1;
  ASSERT_EQ(csv.rows.size(), 6u); // 0, 0.5, ..., 2, and the terminal event's row at 2
  EXPECT_EQ(csv.rows[last][0], 2.0);
  EXPECT_EQ(csv.rows[last - 1][0], 2.0);
  EXPECT_EQ(csv.at(last - 1, "finalX"), -1);
  EXPECT_NEAR(csv.at(last, "finalX"), 2.0, 1e-12);
  EXPECT_EQ(csv.at(last, "n"), 1);
  for (size_t i = 0; i < last; ++i)
    EXPECT_EQ(csv.at(i, "n"), 0) << "terminal() is false before the end";

  // Stopped at 1, the assertion of the terminal event fails there, with its message.
  r = runEqc("simulate m.mo -o short.csv --t-end 1 --interval 0.5", dir);
  EXPECT_EQ(r.exitCode, 5) << r.stderrText;
  EXPECT_NE(r.stderrText.find("m.mo:13:5: error: at time 1: assertion failed: x = 1 is too small at the end"),
            std::string::npos)
      << r.stderrText;
}

// An assert in a sampled when-clause (equation and algorithm forms) holds at the samples until the
// one at t = 0.7, where x = 0.7 > 0.65: the run stops at that event.
TEST(Terminal, AssertInsideWhenClauseIsCheckedWhenItsBranchFires) {
  std::string dir = scratchDir("when_assert");
  writeFile(dir + "/m.mo", R"(model Sampled
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when sample(0.1, 0.1) then
    assert(x < 0.65, "sampled x too large");
  end when;
end Sampled;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 2", dir);
  EXPECT_EQ(r.exitCode, 5);
  EXPECT_NE(r.stderrText.find("m.mo:6:5: error: at time 0.7: assertion failed: sampled x too large"), std::string::npos)
      << r.stderrText;
  writeFile(dir + "/a.mo", R"(model SampledAlgorithm
  Real x(start = 0, fixed = true);
  Integer k(start = 0);
equation
  der(x) = 1;
algorithm
  when sample(0.1, 0.1) then
    k := pre(k) + 1;
    assert(k < 7, "sample " + String(k) + " is one too many", AssertionLevel.warning);
  end when;
end SampledAlgorithm;
)");
  r = runEqc("simulate a.mo -o a.csv --t-end 1", dir);
  EXPECT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("warning: at time 0.7: assertion failed: sample 7 is one too many"), std::string::npos)
      << r.stderrText;
}

// The terminal event of a run whose states the dummy derivatives select (an index-3 pendulum,
// MLS 3.5, 3.7.2): held finalY takes y's value at the stop time in one more row.
TEST(Terminal, TerminalEventRunsUnderDummyDerivatives) {
  std::string dir = scratchDir("terminal_dummy_derivatives");
  writeFile(dir + "/m.mo", R"(model PendulumEnd
  parameter Real L = 1, g = 9.81;
  Real x(start = 1, fixed = true), y(start = 0), vx(start = 0, fixed = true), vy, F;
  discrete Real finalY(start = 1);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -F*x;
  der(vy) = -F*y - g;
  x^2 + y^2 = L^2;
  when terminal() then
    finalY = y;
  end when;
end PendulumEnd;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 1 --interval 0.5 --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  ASSERT_NE(r.stderrText.find("dummy derivatives:"), std::string::npos) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t last = csv.rows.size() - 1;
  ASSERT_EQ(csv.rows.size(), 4u); // 0, 0.5, 1, and the terminal event's row at 1
  EXPECT_EQ(csv.at(last, "time"), 1.0);
  EXPECT_EQ(csv.at(last - 1, "finalY"), 1.0);
  EXPECT_EQ(csv.at(last, "finalY"), csv.at(last, "y"));
  EXPECT_LT(csv.at(last, "y"), 0.0);
}
