// MSL 4.0.0's Magnetic, checked against what the physics says (skipped where the library is
// absent).
#include "Msl.h"
#include "Run.h"

#include <cmath>

using namespace eqc::test;

// Magnetic.FluxTubes.Examples.BasicExamples.QuadraticCoreAirgap: an iron core (mu_r = 1000, square
// cross-section a = 1 cm, outer length l = 10 cm) with a 1 mm airgap, excited by N = 500 turns
// whose current ramps to I = 1.5 A; a leakage element with coefficient sigma = 0.1 lies across
// the airgap (its reluctance 9 times the airgap's). Each tube's cross-section A = a*b is a
// variable that its equation fixes from parameters: computed with them (index reduction used to
// differentiate it into a state starting at A = 0, B = Phi/A infinite at t = 0). The magnetic
// circuit, with R = length/(mu_0 mu_r a^2): the legs and yokes in series (three of l - a, the
// right leg l - a - delta) and the airgap parallel to the leakage (0.9 of the airgap's
// reluctance), so the coil's flux is N I / R_total, and the magnetic potential differences along
// the core add up to the coil's mmf N I (the documentation's statement).
TEST(MslMagnetic, QuadraticCoreAirgapCarriesTheFluxItsReluctancesGive) {
  EQC_REQUIRE_MSL();
  const Csv csv =
      simulateExample(msl, "Modelica.Magnetic.FluxTubes.Examples.BasicExamples.QuadraticCoreAirgap",
                      "--stats --vars rampCurrent.i,magFluxSensor.Phi,airGap.A,leftLeg.V_m,upperYoke.V_m,"
                      "rightLeg.V_m,airGap.V_m,lowerYoke.V_m",
                      0.05);
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  const double pi = 3.141592653589793, mu0 = 4e-7 * pi, a = 0.01, l = 0.1, delta = 0.001, N = 500, I = 1.5;
  auto core = [&](double length) { return length / (mu0 * 1000 * a * a); };
  const double total = 3 * core(l - a) + core(l - a - delta) + 0.9 * delta / (mu0 * a * a);
  EXPECT_NEAR(csv.at(last, "rampCurrent.i"), I, 1e-12);
  EXPECT_NEAR(csv.at(last, "airGap.A"), a * a, 1e-18);
  // MSL's mu_0 is CODATA 2018's (1.25663706212e-6), 4 pi 1e-7 to 5e-10.
  EXPECT_NEAR(csv.at(last, "magFluxSensor.Phi") / (N * I / total), 1, 1e-8);
  double mmf = 0;
  for (const char *tube : {"leftLeg", "upperYoke", "rightLeg", "airGap", "lowerYoke"})
    mmf += csv.at(last, std::string(tube) + ".V_m");
  EXPECT_NEAR(mmf, N * I, 1e-9 * N * I);
  // At the start, no current and no flux (finite: the cross-sections are not 0).
  EXPECT_EQ(csv.at(0, "magFluxSensor.Phi"), 0);
}
