// MSL 4.0.0's Electrical.PowerConverters (part 2 of the library issue), checked against what the
// circuit theory says (skipped where the library is absent).
#include "Msl.h"
#include "Run.h"

#include <algorithm>
#include <cmath>

using namespace eqc::test;

// ACDC.RectifierBridge2mPulse.DiodeBridge2mPulse: a 6-pulse diode bridge (m = 3) fed by a
// symmetric 110 V rms three-phase source into 20 ohm. With ideal diodes the DC voltage is the
// upper envelope of the line-to-line voltages: between V_LL,peak cos(30 deg) and V_LL,peak
// (V_LL,peak = sqrt(6) 110 V); its mean over a pulse is (3/pi) V_LL,peak = 257.30 V and its rms
// V_LL,peak sqrt(1/2 + 3 sqrt(3)/(4 pi)); the mean current is the mean voltage over 20 ohm. The
// diodes' 1e-5 ohm and 1e-5 S move these by less than 1e-4 relative.
TEST(MslPowerConverters, DiodeBridgeGivesTheSixPulseMeanAndRipple) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_diode_bridge");
  RunResult r = runEqc("simulate Modelica.Electrical.PowerConverters.Examples.ACDC.RectifierBridge2mPulse.DiodeBridge2mPulse "
                       "--lib '" + msl + "' -o out.csv --vars voltagesensor.v,meanVoltage.y,rootMeanSquareVoltage.y,meanCurrent.y",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t n = csv.rows.size();
  ASSERT_GT(n, 100u);
  EXPECT_DOUBLE_EQ(csv.at(n - 1, "time"), 0.1);
  const double peak = std::sqrt(6.0) * 110, mean = 3 / M_PI * peak;
  const double rms = peak * std::sqrt(0.5 + 3 * std::sqrt(3.0) / (4 * M_PI));
  EXPECT_NEAR(csv.at(n - 1, "meanVoltage.y"), mean, 1e-4 * mean);
  EXPECT_NEAR(csv.at(n - 1, "rootMeanSquareVoltage.y"), rms, 1e-4 * rms);
  EXPECT_NEAR(csv.at(n - 1, "meanCurrent.y"), mean / 20, 1e-4 * mean / 20);
  double lo = 1e9, hi = -1e9;
  for (size_t i = 0; i < n; ++i)
    if (csv.at(i, "time") > 0.09) {
      lo = std::min(lo, csv.at(i, "voltagesensor.v"));
      hi = std::max(hi, csv.at(i, "voltagesensor.v"));
    }
  EXPECT_NEAR(hi, peak, 1e-3 * peak);
  EXPECT_NEAR(lo, peak * std::cos(M_PI / 6), 1e-3 * peak);
}
