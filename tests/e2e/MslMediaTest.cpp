// MSL 4.0.0's Media, checked against what the physics says (skipped where the library is absent).
#include "Msl.h"
#include "Run.h"

#include <cmath>

using namespace eqc::test;

// Media.Examples.SimpleLiquidWater: 1 m^3 of ConstantPropertyLiquidWater (d = 995.586 kg/m^3,
// cp = cv = 4184 J/(kg K), h = cp (T - 273.15)) at 1 bar, starting at T = 300 K, heated by a
// constant H_flow = 1 MW with no mass flow: U grows by 1e8 J in the 100 s, and
// T(100) = 300 + 1e8/(m cv) = 324.0065 K; the medium's functions (its BaseProperties, the
// dynamicViscosity 1e-3 Pa s and specificHeatCapacityCv the medium package inherits and
// redeclares) see the medium's ThermodynamicState. medium2 is at T = 330 K with p = 1e4 t.
TEST(MslMedia, SimpleLiquidWaterHeatsAsItsHeatCapacitySays) {
  EQC_REQUIRE_MSL();
  const Csv csv =
      simulateExample(msl, "Modelica.Media.Examples.SimpleLiquidWater",
                      "--vars medium.T,medium.h,medium.u,m,U,eta,cv,medium2.T,medium2.p,medium2.h", 100);
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  const double d = 995.586, cp = 4184, m = d * 1.0;
  EXPECT_NEAR(csv.at(0, "medium.T"), 300, 1e-9);
  EXPECT_NEAR(csv.at(0, "medium.h"), cp * (300 - 273.15), 1e-6);
  EXPECT_NEAR(csv.at(last, "m"), m, 1e-9);
  EXPECT_NEAR(csv.at(last, "U") - csv.at(0, "U"), 1e8, 1e-3);
  EXPECT_NEAR(csv.at(last, "medium.T"), 300 + 1e8 / (m * cp), 1e-6);
  EXPECT_NEAR(csv.at(last, "medium.u"), csv.at(last, "U") / m, 1e-6);
  EXPECT_EQ(csv.at(last, "eta"), 1e-3);
  EXPECT_EQ(csv.at(last, "cv"), cp);
  EXPECT_EQ(csv.at(last, "medium2.T"), 330);
  EXPECT_NEAR(csv.at(last, "medium2.p"), 1e6, 1e-6);
  EXPECT_NEAR(csv.at(last, "medium2.h"), cp * (330 - 273.15), 1e-6);
}
