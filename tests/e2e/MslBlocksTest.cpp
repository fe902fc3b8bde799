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
