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

// Media.Examples.TwoPhaseWater.TestTwoPhaseStates: IAPWS-IF97 water (a package that extends
// StandardWater, itself a short class of WaterIF97_ph, whose fluid constants are a record with
// String fields) from p = 2 kPa, h = 800 kJ/kg, both ramped. At the start the state is in the
// two-phase region: the saturation temperature at 2 kPa is 290.645 K (17.495 degC, the IAPWS
// tables), the saturated liquid's density 998.64 kg/m^3, and the mixture's density follows from
// the steam quality x and the two saturated densities, 1/d = x/d_dew + (1 - x)/d_bubble.
TEST(MslMedia, TwoPhaseWaterStatesFollowTheSaturationLine) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Media.Examples.TwoPhaseWater.TestTwoPhaseStates",
                                  "--vars medium.p,medium.h,medium.d,medium.x,medium.sat.Tsat,medium.dew.d,"
                                  "medium.bubble.d,medium.phase",
                                  22);
  ASSERT_FALSE(csv.rows.empty());
  EXPECT_EQ(csv.at(0, "medium.p"), 2000);
  EXPECT_NEAR(csv.at(0, "medium.sat.Tsat"), 290.645, 0.002);
  EXPECT_NEAR(csv.at(0, "medium.bubble.d"), 998.64, 0.02);
  EXPECT_EQ(csv.at(0, "medium.phase"), 2);
  for (size_t row : {size_t(0), csv.rows.size() / 4}) {
    const double x = csv.at(row, "medium.x");
    ASSERT_GT(x, 0) << row;
    ASSERT_LT(x, 1) << row;
    const double d = 1 / (x / csv.at(row, "medium.dew.d") + (1 - x) / csv.at(row, "medium.bubble.d"));
    // (to 1e-4: the density comes from IF97's backward equations in p and h, the saturated
    // states from its saturation line; they agree to a few 1e-5 here)
    EXPECT_NEAR(csv.at(row, "medium.d") / d, 1, 1e-4) << "time " << csv.at(row, "time");
  }
  // p = 2 kPa + 1 MPa/s t, h = 800 kJ/kg + 80 kJ/(kg s) t.
  const size_t last = csv.rows.size() - 1;
  EXPECT_NEAR(csv.at(last, "medium.p"), 2000 + 22e6, 1e-3);
  EXPECT_NEAR(csv.at(last, "medium.h"), 8e5 + 22 * 8e4, 1e-3);
}

// Media.Examples.IdealGasH2O: steam as an ideal gas with NASA polynomials (SingleGasNasa, whose
// constants - the data record - H2O gives through its extends clause, read also in SingleGasNasa's
// modifications of inherited types) at 1 bar from 200 K to 1200 K. An ideal gas has
// cp - cv = R_s = R/M (M = 0.01801528 kg/mol), isobaric expansion 1/T, isothermal
// compressibility 1/p and speed of sound sqrt(kappa R_s T); cp at 700 K is 2081 J/(kg K)
// (NASA Glenn's coefficients: cp/R = 4.509).
TEST(MslMedia, IdealGasSteamHasTheIdealGasIdentities) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Media.Examples.IdealGasH2O",
                                  "--vars state.T,state.p,cp,cv,k,a,beta,gamma", 1);
  ASSERT_FALSE(csv.rows.empty());
  const double Rs = 8.314462618 / 0.01801528;
  for (size_t row = 0; row < csv.rows.size(); row += 50) {
    const double T = csv.at(row, "state.T"), p = csv.at(row, "state.p");
    EXPECT_NEAR(csv.at(row, "cp") - csv.at(row, "cv"), Rs, 1e-3) << "T = " << T;
    EXPECT_NEAR(csv.at(row, "beta") * T, 1, 1e-12) << "T = " << T;
    EXPECT_NEAR(csv.at(row, "gamma") * p, 1, 1e-12) << "T = " << T;
    EXPECT_NEAR(csv.at(row, "a"), std::sqrt(csv.at(row, "k") * Rs * T), 1e-3) << "T = " << T;
  }
  const size_t mid = csv.rows.size() / 2;
  ASSERT_NEAR(csv.at(mid, "state.T"), 700, 1e-9);
  EXPECT_NEAR(csv.at(mid, "cp"), 2081, 2);
}

// Media.Examples.SolveOneNonlinearEquation.Inverse_sine: experiment(StopTime = 0), a run that is
// its initialization (MLS 3.5, 18.4: StopTime = StartTime); x_zero solves A sin(w x) = y_zero
// with Modelica.Math.Nonlinear.solveOneNonlinearEquation (Brent's method, tolerance 100 eps):
// A = 1, w = 1, y_zero = 0.5 give x_zero = asin(0.5) = pi/6.
TEST(MslMedia, InitializationOnlyRunSolvesItsEquation) {
  EQC_REQUIRE_MSL();
  const Csv csv =
      simulateExample(msl, "Modelica.Media.Examples.SolveOneNonlinearEquation.Inverse_sine", "", 0);
  ASSERT_EQ(csv.rows.size(), 1u);
  EXPECT_NEAR(csv.at(0, "x_zero"), M_PI / 6, 1e-12);
}

// Media.Examples.MixtureGases: CombustionAir (80 % N2, 20 % O2 by mass, NASA polynomials; the
// medium package's `data[:]` array of records takes its size from its value, and its viscosity
// function reads `fluidConstants[i].molarMass` with i a loop index) in 1 m^3 starting at 1 bar and
// 300 K, filled with 0.01 kg/s and 5 kW. Its molar mass is 1/(0.8/M_N2 + 0.2/M_O2) with M_N2 =
// 28.0134 g/mol and M_O2 = 31.9988 g/mol, and it is an ideal gas: d = p MM/(R T), R = 8.314462618
// J/(mol K); the volume's mass grows by 0.01 kg and its internal energy by 5 kJ in the 1 s. Air's
// viscosity at 300 K is 1.85e-5 Pa s (Sutherland's law), within the Chung et al. method's few
// percent.
TEST(MslMedia, GasMixtureIsAnIdealGasOfItsComponents) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Media.Examples.MixtureGases",
                                  "--vars medium1.p,medium1.T,medium1.d,medium1.MM,m1,U1,eta1", 1);
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  const double MM = 1 / (0.8 / 0.0280134 + 0.2 / 0.0319988), R = 8.314462618;
  EXPECT_NEAR(csv.at(0, "medium1.T"), 300, 1e-9);
  EXPECT_NEAR(csv.at(0, "medium1.p"), 1e5, 1e-6);
  for (size_t i : {size_t{0}, last}) {
    EXPECT_NEAR(csv.at(i, "medium1.MM"), MM, 1e-9);
    // (the library's gas data carry their own specific gas constants, from an older R: 1e-6)
    const double d = csv.at(i, "medium1.p") * MM / (R * csv.at(i, "medium1.T"));
    EXPECT_NEAR(csv.at(i, "medium1.d"), d, 1e-5 * d);
  }
  EXPECT_NEAR(csv.at(last, "m1") - csv.at(0, "m1"), 0.01, 1e-9);
  EXPECT_NEAR(csv.at(last, "U1") - csv.at(0, "U1"), 5000, 1e-6);
  EXPECT_NEAR(csv.at(0, "eta1"), 1.85e-5, 0.05e-5);
}

// Media.Examples.ReferenceAir.MoistAir: ReferenceMoistAir (Lemmon et al.'s dry air and IAPWS
// water; its Xsaturation sizes `X[:]` by an assignment, massFractionSaturation its output by one
// that reads a later variable, and a function holds X[2] of a one-element X in a branch that does
// not run) heated at 90 K/s from 274 K at 1 bar with 5 % water. At the end, 364 K, the air is
// far from saturation and an ideal gas: R_s = 0.95 R_air + 0.05 R_w with R_air = 287.117 J/(kg
// K) (Lemmon et al. 2000) and R_w = 461.526 J/(kg K) (IAPWS-95), d = p/(R_s T).
TEST(MslMedia, ReferenceMoistAirIsAnIdealGasFarFromSaturation) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Media.Examples.ReferenceAir.MoistAir",
                                  "--vars medium.p,medium.T,medium.d,medium.R_s,medium.X[2],medium.phi", 1);
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  const double Rs = 0.95 * 287.117 + 0.05 * 461.526;
  EXPECT_NEAR(csv.at(last, "medium.T"), 364, 1e-9);
  EXPECT_NEAR(csv.at(last, "medium.p"), 1e5, 1e-6);
  EXPECT_NEAR(csv.at(last, "medium.X[2]"), 0.95, 1e-12);
  EXPECT_NEAR(csv.at(last, "medium.R_s"), Rs, 1e-5 * Rs);
  const double d = 1e5 / (Rs * 364);
  EXPECT_NEAR(csv.at(last, "medium.d"), d, 1e-3 * d);
  EXPECT_LT(csv.at(last, "medium.phi"), 0.2);
}

// Media.Incompressible.Examples.TestGlycol: Glycol47, a TableBased medium whose properties are
// polynomials fitted to its tables when the model is translated (Polynomials.fitting: LAPACK's
// dgelsy through `dgelsy_vec`, whose protected `Integer ncol = size(A, 2)`, passed to FORTRAN,
// sizes `zeros(ncol)` in a binding), heated from T_min = -30 degC by 1 K/s. Its density table
// reads 1066 kg/m^3 at -30 degC and 1062 at -20 degC, its heat capacity 3450 and 3490 J/(kg K):
// the fits agree with the tables within a kg/m^3 and 10 J/(kg K).
TEST(MslMedia, TableBasedGlycolFollowsItsTables) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Media.Incompressible.Examples.TestGlycol",
                                  "--vars medium.T,medium.d,medium.p", 1.01);
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  EXPECT_NEAR(csv.at(0, "medium.T"), 243.15, 1e-9);
  EXPECT_NEAR(csv.at(last, "medium.T"), 244.16, 1e-9);
  EXPECT_NEAR(csv.at(0, "medium.d"), 1066, 1);
  EXPECT_NEAR(csv.at(last, "medium.d"), 1066 - 0.4 * 1.01, 1);
  EXPECT_NEAR(csv.at(last, "medium.p"), 1.013e5, 1e-6);
}
