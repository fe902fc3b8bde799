// MSL 4.0.0's Thermal.HeatTransfer, checked against what the physics says (skipped where the
// library is absent).
#include "Msl.h"
#include "Run.h"

#include <cmath>

using namespace eqc::test;

// Thermal.HeatTransfer.Examples.Motor: a winding (2500 J/K) and a core (25000 J/K) heated by
// losses from a periodic CombiTimeTable (constant segments: 100 W, 1000 W from 360 s to 600 s
// of every 600 s; the winding's grow with its temperature, alpha = 3.03e-3/K) and cooled by
// convection to 20 degC. Over the example's 7200 s the heat stored is the losses' energy less the
// convection's (trapezoidal sums of the output, exact at the losses' jumps, which the output
// holds on both sides), and the table repeats its period.
TEST(MslThermal, MotorStoresTheEnergyItsPeriodicLossesBringLessConvection) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_motor");
  RunResult r = runEqc("simulate Modelica.Thermal.HeatTransfer.Examples.Motor --lib '" + msl +
                           "' -o out.csv --interval 1 --vars lossTable.y[1],lossTable.y[2],windingLosses.port.Q_flow,"
                           "coreLosses.port.Q_flow,convection.Q_flow,winding.T,core.T",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t n = csv.rows.size();
  ASSERT_GT(n, 7200u);
  EXPECT_DOUBLE_EQ(csv.at(n - 1, "time"), 7200);
  auto net = [&](size_t i) {
    return -csv.at(i, "windingLosses.port.Q_flow") - csv.at(i, "coreLosses.port.Q_flow") - csv.at(i, "convection.Q_flow");
  };
  double energy = 0;
  for (size_t i = 1; i < n; ++i)
    energy += (csv.at(i, "time") - csv.at(i - 1, "time")) * 0.5 * (net(i) + net(i - 1));
  const double stored = 2500 * (csv.at(n - 1, "winding.T") - csv.at(0, "winding.T")) +
                        25000 * (csv.at(n - 1, "core.T") - csv.at(0, "core.T"));
  EXPECT_GT(stored, 1e6);
  EXPECT_NEAR(energy / stored, 1.0, 1e-5);
  auto lossAt = [&](double t) {
    size_t i = 0;
    while (i + 1 < n && csv.at(i + 1, "time") <= t)
      ++i;
    return csv.at(i, "lossTable.y[1]");
  };
  for (double t : {100.0, 700.0, 6100.0}) // 100 W before 360 s of each period
    EXPECT_EQ(lossAt(t), 100) << t;
  for (double t : {400.0, 1000.0, 7100.0}) // 1000 W from 360 s to 600 s
    EXPECT_EQ(lossAt(t), 1000) << t;
  EXPECT_EQ(csv.at(n / 2, "lossTable.y[2]"), 500);
}

// Thermal.HeatTransfer.Examples.GenerationOfFMUs: capacities and a conductor cut into
// input/output blocks through heat-flow/temperature adaptors (as for FMU export), which must
// behave as the components joined directly. The direct (C = 1.1) and inverse (C = 2.2)
// capacities, the inverse one driven by the direct one's temperature and its derivative (MSL's
// state1 with its derivative annotation), are one body of 3.3 J/K heated by 1000 sin(4 pi t) W
// from 293.15 K: T = 293.15 + 1000 / (3.3 * 4 pi) (1 - cos(4 pi t)). The two capacitors
// (1.1, 2.2) joined through the exported conduction law hold, with the same heating, the energy
// 1.1 T3a + 2.2 T3b = 3.3 * 293.15 + 1000 / (4 pi) (1 - cos(4 pi t)).
TEST(MslThermal, GenerationOfFMUsAdaptorsBehaveAsTheDirectComponents) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_thermal_fmus");
  RunResult r = runEqc("simulate Modelica.Thermal.HeatTransfer.Examples.GenerationOfFMUs --lib '" + msl +
                           "' -o out.csv --vars directCapacity.heatCapacitor.T,inverseCapacity.mass.T,capacitor3a.T,capacitor3b.T",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_GT(csv.rows.size(), 1000u);
  const double pi = 3.141592653589793;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.at(i, "time"), heat = 1 - std::cos(4 * pi * t);
    const double T = 293.15 + 1000 / (3.3 * 4 * pi) * heat;
    EXPECT_NEAR(csv.at(i, "directCapacity.heatCapacitor.T"), T, 1e-6) << t;
    EXPECT_NEAR(csv.at(i, "inverseCapacity.mass.T"), T, 1e-6) << t;
    EXPECT_NEAR(1.1 * csv.at(i, "capacitor3a.T") + 2.2 * csv.at(i, "capacitor3b.T"),
                3.3 * 293.15 + 1000 / (4 * pi) * heat, 1e-6)
        << t;
  }
  EXPECT_GT(std::fabs(csv.at(250, "capacitor3a.T") - csv.at(250, "capacitor3b.T")), 1.0); // heated on one side
}
