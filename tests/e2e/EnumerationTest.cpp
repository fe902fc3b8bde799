// Enumeration types (MLS 3.5, 4.8.5) end to end: literals, variables and parameters of the type,
// arrays indexed by it, for-loops over it, Integer(), min/max, comparisons and String() in
// messages; against the piecewise solution the model integrates.
#include "Run.h"

using namespace eqc::test;

TEST(Enumerations, LiteralsVariablesArraysAndLoops) {
  std::string dir = scratchDir("enumerations");
  writeFile(dir + "/enum.mo", R"(package Plant
  type Mode = enumeration(off "switched off", low, high "full power");
  model Heater
    parameter Mode m0 = Mode.low;
    Mode mode;
    Real power[Mode] "W per mode";
    Real x(start = 0, fixed = true);
    Integer k = Integer(mode);
    Integer highest = Integer(max(Mode));
    Real total;
    Boolean lowest;
    Mode last(start = Mode.off);
  equation
    mode = if time < 0.5 then Mode.off elseif time < 1 then m0 else Mode.high;
    for e in Mode loop
      power[e] = if e == Mode.off then 0 else Integer(e) * 10;
    end for;
    der(x) = if mode == Mode.off then power[Mode.off] elseif mode == Mode.low then power[Mode.low] else power[Mode.high];
    total = sum(power[e] for e in Mode);
    lowest = mode == min(Mode);
    when x > 12 then
      last = mode;
    end when;
    assert(mode < Mode.high or x < 30, "mode " + String(mode) + " at x = " + String(x));
    annotation(experiment(StopTime = 1.5, Tolerance = 1e-10, Interval = 0.125));
  end Heater;
end Plant;
)");
  RunResult r = runEqc("simulate enum.mo --model Plant.Heater -o enum.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/enum.csv");
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.rows[row][0];
    const bool left = row + 1 < csv.rows.size() && csv.rows[row + 1][0] == t; // the left limit at an event
    const int mode = t < 0.5 || (t == 0.5 && left) ? 1 : t < 1 || (t == 1 && left) ? 2 : 3;
    EXPECT_EQ(csv.at(row, "mode"), mode) << t;
    EXPECT_EQ(csv.at(row, "k"), mode);
    EXPECT_EQ(csv.at(row, "highest"), 3);
    EXPECT_EQ(csv.at(row, "lowest"), mode == 1 ? 1 : 0) << t;
    EXPECT_EQ(csv.at(row, "power[1]"), 0);
    EXPECT_EQ(csv.at(row, "power[2]"), 20);
    EXPECT_EQ(csv.at(row, "power[3]"), 30);
    EXPECT_EQ(csv.at(row, "total"), 50);
    const double x = t < 0.5 ? 0 : t < 1 ? 20 * (t - 0.5) : 10 + 30 * (t - 1);
    EXPECT_NEAR(csv.at(row, "x"), x, 1e-8) << t;
    // x passes 12 at t = 1 + 2/30, in mode high.
    const double te = 1 + 2.0 / 30;
    EXPECT_EQ(csv.at(row, "last"), t > te + 1e-9 || (std::fabs(t - te) < 1e-9 && !left) ? 3 : 1) << t;
  }
  // The same model past x = 30 (t = 5/3): the assertion names the mode by its literal.
  r = runEqc("simulate enum.mo --model Plant.Heater -o enum.csv --t-end 2", dir);
  EXPECT_EQ(r.exitCode, 5);
  EXPECT_NE(r.stderrText.find("assertion failed: mode high at x = 30"), std::string::npos) << r.stderrText;
}
