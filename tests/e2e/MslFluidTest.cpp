// MSL 4.0.0's Fluid, checked against what the physics says (skipped where the library is absent):
// stream connectors, media and vessels together.
#include "Msl.h"
#include "Run.h"

#include <cmath>

using namespace eqc::test;

namespace {
/// ConstantPropertyLiquidWater's density (kg/m^3).
constexpr double kWaterDensity = 995.586;
} // namespace

// Fluid.Examples.AST_BatchPlant.Test.TwoTanks: two open tanks of 1 m^2 (levels 3 m and 1 m, their
// ports at the bottom) joined by a pipe: a closed system, so the water's mass stays what it was,
// 4 m^3 of it, and at rest the levels are equal, 2 m each (communicating vessels). The vessels
// start from their levels and temperatures (the stateSelect = prefer variables: their states U
// and m have no start values).
TEST(MslFluid, TwoTanksLevelOutAndKeepTheirWater) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Fluid.Examples.AST_BatchPlant.Test.TwoTanks",
                                  "--vars tank1.level,tank2.level,tank1.m,tank2.m", 100);
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  EXPECT_EQ(csv.at(0, "tank1.level"), 3);
  EXPECT_EQ(csv.at(0, "tank2.level"), 1);
  for (size_t row = 0; row < csv.rows.size(); row += 50)
    EXPECT_NEAR(csv.at(row, "tank1.m") + csv.at(row, "tank2.m"), 4 * kWaterDensity, 1e-6)
        << "time " << csv.at(row, "time");
  EXPECT_NEAR(csv.at(last, "tank1.level"), 2, 1e-6);
  EXPECT_NEAR(csv.at(last, "tank2.level"), 2, 1e-6);
}

// Fluid.Examples.Tanks.ThreeTanks: tanks of 1 m^2 at 8, 3 and 3 m joined at one point by three
// pipes (a connection set of three inside stream connectors). Pipes 1 and 2 rise 2 m from tank 1
// and tank 2 to the junction, pipe 3 falls 1 m from the junction to tank 3: tank 3's bottom is
// 3 m below the others'. At rest the heads are equal, level3 = level1 + 3 and level1 = level2,
// with the 14 m^3 of water: level1 = level2 = 11/3 m, level3 = 20/3 m; the mass never changes,
// and the water keeps its 20 degC (no heat enters).
TEST(MslFluid, ThreeTanksReachTheirHydrostaticHeads) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(
      msl, "Modelica.Fluid.Examples.Tanks.ThreeTanks",
      "--vars tank1.level,tank2.level,tank3.level,tank1.m,tank2.m,tank3.m,tank3.medium.T", 200);
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  for (size_t row = 0; row < csv.rows.size(); row += 50)
    EXPECT_NEAR(csv.at(row, "tank1.m") + csv.at(row, "tank2.m") + csv.at(row, "tank3.m"), 14 * kWaterDensity,
                1e-6)
        << "time " << csv.at(row, "time");
  EXPECT_NEAR(csv.at(last, "tank1.level"), 11.0 / 3, 1e-6);
  EXPECT_NEAR(csv.at(last, "tank2.level"), 11.0 / 3, 1e-6);
  EXPECT_NEAR(csv.at(last, "tank3.level"), 20.0 / 3, 1e-6);
  EXPECT_NEAR(csv.at(last, "tank3.medium.T"), 293.15, 0.01);
}
