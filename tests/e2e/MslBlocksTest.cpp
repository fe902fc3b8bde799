// MSL 4.0.0's Blocks, checked against what their documentation and the physics say (skipped
// where the library is absent): the Continuous.Filter example's four analog filters and MSL's
// error() in functions.
#include "Msl.h"
#include "Run.h"

#include <cmath>

using namespace eqc::test;

// Blocks.Examples.Filter: critical damping, Bessel, Butterworth and Chebyshev I low passes of
// order 3 (coefficients computed by MSL's own functions), initialized in steady state on a step
// from 0.1 to 1.1 at t = 0.1: every output starts at 0.1 and settles at the DC gain 1 times 1.1.
TEST(MslBlocks, FilterExampleStartsInSteadyStateAndSettlesAtItsDcGain) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_filter");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.Filter --lib '" + msl + "' -o out.csv --t-end 6", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t last = csv.rows.size() - 1;
  for (const char *filter : {"CriticalDamping", "Bessel", "Butterworth", "ChebyshevI"}) {
    const std::string y = std::string(filter) + ".y";
    EXPECT_NEAR(csv.at(0, y), 0.1, 1e-9) << filter;
    EXPECT_NEAR(csv.at(last, y), 1.1, 1e-4) << filter;
  }
}

// Modelica.Utilities.Streams.error(message) in a function is a failing assertion: the run stops
// with the message (values the function shows with String(x) read as their names) and the time.
TEST(MslBlocks, StreamsErrorInAFunctionStopsTheRun) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_streams_error");
  writeFile(dir + "/m.mo", R"(model Guarded
  function checked
    input Real x;
    output Real y;
  algorithm
    if x > 1 then
      Modelica.Utilities.Streams.error("x = " + String(x) + " is above 1");
    end if;
    y := x;
  end checked;
  Real y = checked(time);
end Guarded;
)");
  RunResult r = runEqc("simulate m.mo --lib '" + msl + "' -o out.csv --t-end 2", dir);
  EXPECT_EQ(r.exitCode, 5) << r.stderrText;
  EXPECT_NE(r.stderrText.find("x = {x} is above 1"), std::string::npos) << r.stderrText;
  EXPECT_NE(r.stderrText.find("at time 1"), std::string::npos) << r.stderrText;
}

// Blocks.Examples.InverseModel: the inverse of a first-order plant (T = 0.3) driven through a
// critical-damping filter (n = 1, f = 100 Hz) by a sine of 2 Hz around 1 that starts at 0.2 s,
// both first orders initialized in steady state (der(y) = 0, with the sine still at its offset 1:
// every output starts at 1). The plant's copy then reproduces the filtered sine, so the feedback
// error is the filter's: |1 - 1/(1 + j w/wc)| = 0.02/sqrt(1.0004) = 0.019996 at most.
TEST(MslBlocks, InverseModelStartsInSteadyStateAndTracks) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_inverse_model");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.InverseModel --lib '" + msl + "' -o out.csv --rtol 1e-8 --atol 1e-8", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (const char *y : {"firstOrder1.y", "firstOrder2.y", "criticalDamping.y"})
    EXPECT_NEAR(csv.at(0, y), 1.0, 1e-9) << y;
  double worst = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    worst = std::max(worst, std::fabs(csv.at(i, "feedback.y")));
    EXPECT_NEAR(csv.at(i, "firstOrder1.y"), csv.at(i, "criticalDamping.y"), 1e-9);
  }
  EXPECT_NEAR(worst, 0.02 / std::sqrt(1.0004), 2e-4);
}
