// MSL 4.0.0's Mechanics.MultiBody and Electrical.QuasiStatic (part 2 of the library issue):
// overdetermined connectors (MLS 3.5, 9.4) in the library's own models, checked against
// solutions computed here (skipped where the library is absent).
#include "Msl.h"
#include "Run.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>

using namespace eqc::test;

namespace {

/// The physical pendulum J phi'' = -m g L cos(phi) - d phi' (phi from the horizontal), by
/// classical Runge-Kutta with a step of 1e-5 s: {phi, w} at time `t`.
std::pair<double, double> pendulum(double m, double L, double J, double d, double g, double t) {
  double phi = 0, w = 0;
  const double h = 1e-5;
  auto f = [&](double p, double v) { return (-m * g * L * std::cos(p) - d * v) / J; };
  for (long k = 0, n = std::lround(t / h); k < n; ++k) {
    const double a1 = f(phi, w), p1 = w;
    const double a2 = f(phi + h / 2 * p1, w + h / 2 * a1), p2 = w + h / 2 * a1;
    const double a3 = f(phi + h / 2 * p2, w + h / 2 * a2), p3 = w + h / 2 * a2;
    const double a4 = f(phi + h * p3, w + h * a3), p4 = w + h * a3;
    phi += h / 6 * (p1 + 2 * p2 + 2 * p3 + p4);
    w += h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
  }
  return {phi, w};
}

} // namespace

// Examples.Elementary.Pendulum: World, a Revolute joint about z with a rotational damper
// (d = 0.1 N m s/rad) on its axis, and a Body of 1 kg at 0.5 m (I_33 = 0.001 kg m^2), released
// horizontally. The World's frame is the root of the connection graph; the body's orientation
// follows through the joint's branch. Its angle is the physical pendulum's, g = 9.80665.
TEST(MslMultiBody, PendulumSwingsAsThePhysicalPendulum) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_mb_pendulum");
  RunResult r = runEqc("simulate Modelica.Mechanics.MultiBody.Examples.Elementary.Pendulum --lib '" + msl +
                           "' --rtol 1e-9 -o out.csv --vars rev.phi,rev.w",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t n = csv.rows.size();
  EXPECT_DOUBLE_EQ(csv.at(n - 1, "time"), 5.0);
  for (size_t i = 0; i < n; i += n / 5) {
    const double t = csv.at(i, "time");
    auto [phi, w] = pendulum(1.0, 0.5, 1.0 * 0.25 + 0.001, 0.1, 9.80665, t);
    EXPECT_NEAR(csv.at(i, "rev.phi"), phi, 1e-6) << "t = " << t;
    EXPECT_NEAR(csv.at(i, "rev.w"), w, 1e-5) << "t = " << t;
  }
}

// Examples.Elementary.SpringDamperSystem: body2 hangs on a prismatic joint along -y with a
// line-force spring (c = 30 N/m, unstretched 0.1 m) parallel to it, released at s = 0.1 m at
// rest: s(t) = 0.1 + (m g/c)(1 - cos(sqrt(c/m) t)). Beside it, body1 is free in space (its
// own subgraph, whose potential root it is) on a spring and a damper: its orientation matrix
// starts at zero, where the damper's line direction cannot be evaluated until the other
// constraints have moved the start point.
TEST(MslMultiBody, BodyOnASpringOscillatesHarmonically) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_mb_springdamper");
  RunResult r = runEqc("simulate Modelica.Mechanics.MultiBody.Examples.Elementary.SpringDamperSystem --lib '" + msl +
                           "' --rtol 1e-8 --atol 1e-10 -o out.csv --vars p2.s,p2.v",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t n = csv.rows.size();
  EXPECT_DOUBLE_EQ(csv.at(n - 1, "time"), 10.0);
  const double omega = std::sqrt(30.0), amplitude = 9.80665 / 30;
  for (size_t i = 0; i < n; ++i) {
    const double t = csv.at(i, "time");
    ASSERT_NEAR(csv.at(i, "p2.s"), 0.1 + amplitude * (1 - std::cos(omega * t)), 5e-7) << "t = " << t;
    ASSERT_NEAR(csv.at(i, "p2.v"), amplitude * omega * std::sin(omega * t), 5e-6) << "t = " << t;
  }
}

// Electrical.QuasiStatic.SinglePhase.Examples.SeriesResonance: phasors of a series R-L-C
// circuit (R = 0.1, omega L = f, 1/(omega C) = 1/f) fed with 1 V while f ramps from 1e-6 to
// 2 Hz. The reference angle's graph has the source as its root and the ground as a potential
// root (Connections.isRoot decides which fixes the angle); the current is 1/(R + j(f - 1/f)).
TEST(MslQuasiStatic, SeriesResonanceCurrentIsThePhasorOfOhmsLaw) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_qs_resonance");
  RunResult r = runEqc("simulate Modelica.Electrical.QuasiStatic.SinglePhase.Examples.SeriesResonance --lib '" + msl +
                           "' -o out.csv --vars I_abs,I_arg",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t n = csv.rows.size();
  ASSERT_GT(n, 100u);
  for (size_t i = 1; i < n; ++i) {
    const double t = csv.at(i, "time"), f = 1e-6 + 2 * t;
    const std::complex<double> current = 1.0 / std::complex<double>(0.1, f - 1 / f);
    ASSERT_NEAR(csv.at(i, "I_abs"), std::abs(current), 1e-9 * (1 + std::abs(current))) << "t = " << t;
    ASSERT_NEAR(csv.at(i, "I_arg"), std::arg(current), 1e-8) << "t = " << t;
  }
}

// Electrical.QuasiStatic.Polyphase.Examples.BalancingStar (arrays of Complex records: plugs of
// pins, polyphase sources, sensors summing Complex vectors): a symmetric 100 V source (phases
// 0, -2pi/3, -4pi/3) feeds an inductor (phase 1), a capacitor (phase 2) and a 10 Ohm resistor
// (phase 3) in star, with omega L = 1/(omega C) = sqrt(3) R so that the neutral current
// vanishes (the example's documentation, after Vaske 1973). The currents are Ohm's law of each
// phase; the total power is the resistor's 1000 W, the reactive powers of L and C cancel.
TEST(MslQuasiStatic, BalancingStarCurrentsAreOhmsLawPerPhase) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_qs_balancing_star");
  RunResult r =
      runEqc("simulate Modelica.Electrical.QuasiStatic.Polyphase.Examples.BalancingStar --lib '" + msl +
                 "' -o out.csv --vars i[1].re,i[1].im,i[2].re,i[2].im,i[3].re,i[3].im,"
                 "powerSensor.apparentPower.re,powerSensor.apparentPower.im,currentSensor0.i.re,"
                 "currentSensor0.i.im",
             dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_GT(csv.rows.size(), 100u);
  const double pi = std::acos(-1.0), R = 10, X = std::sqrt(3.0) * R;
  auto phase = [&](int k) { return std::polar(100.0, -2 * pi * (k - 1) / 3); };
  const std::complex<double> j(0, 1);
  const std::complex<double> expected[3] = {phase(3) / R, phase(1) / (j * X), phase(2) / (-j * X)};
  const size_t last = csv.rows.size() - 1;
  for (int k = 0; k < 3; ++k) {
    const std::string name = "i[" + std::to_string(k + 1) + "]";
    EXPECT_NEAR(csv.at(last, name + ".re"), expected[k].real(), 1e-9) << name;
    EXPECT_NEAR(csv.at(last, name + ".im"), expected[k].imag(), 1e-9) << name;
  }
  EXPECT_NEAR(csv.at(last, "currentSensor0.i.re"), 0, 1e-9);
  EXPECT_NEAR(csv.at(last, "currentSensor0.i.im"), 0, 1e-9);
  EXPECT_NEAR(csv.at(last, "powerSensor.apparentPower.re"), 100.0 * 100.0 / R, 1e-7);
  EXPECT_NEAR(csv.at(last, "powerSensor.apparentPower.im"), 0, 1e-7);
}

// Magnetic.QuasiStatic.FundamentalWave.Examples.BasicMachines.InductionMachines.IMC_DOL: a
// quasi-static induction machine (phasors: arrays of Complex records through plugs, windings and
// the air gap; its switch network one linear block of 922 unknowns, torn to a few dozen) and a
// transient one, both switched on at 0.1 s against the load torque T_Load (w/w_Load)^2 with
// T_Load = 161.4 N m at w_Load = 1440.45 rpm. At 1 s both run at the load point: their speed is
// w_Load where their torque is T_Load, and the quasi-static machine agrees with the transient one.
TEST(MslQuasiStatic, InductionMachineStartsToTheLoadPointAsTheTransientOne) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_qs_imc_dol");
  RunResult r = runEqc("simulate Modelica.Magnetic.QuasiStatic.FundamentalWave.Examples.BasicMachines."
                       "InductionMachines.IMC_DOL --lib '" +
                           msl +
                           "' -o out.csv --vars "
                           "imc.wMechanical,imcQS.wMechanical,imc.tauElectrical,imcQS.tauElectrical",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t last = csv.rows.size() - 1;
  ASSERT_DOUBLE_EQ(csv.at(last, "time"), 1.0);
  const double wLoad = 1440.45 * 2 * M_PI / 60, tLoad = 161.4;
  for (const char *machine : {"imc", "imcQS"}) {
    const std::string m = machine;
    const double w = csv.at(last, m + ".wMechanical"), tau = csv.at(last, m + ".tauElectrical");
    EXPECT_NEAR(w, wLoad, 1e-3 * wLoad) << m;
    EXPECT_NEAR(tau, tLoad * (w / wLoad) * (w / wLoad), 1e-3 * tLoad) << m;
  }
  EXPECT_NEAR(csv.at(last, "imcQS.wMechanical"), csv.at(last, "imc.wMechanical"), 1e-4 * wLoad);
  // Before the switch both stand still.
  EXPECT_NEAR(csv.at(1, "imcQS.wMechanical"), 0, 1e-9);
}

// MultiBody.Examples.Elementary.PointGravityWithPointMasses2: six point masses (1 kg each) held
// rigidly by fixed translations (no orientation states: their frames' orientations are computed,
// and the hidden constraints that read them are evaluated where calls use them) fall in the point
// gravity field mu = 5 of the world. The distances between them stay those of the translations
// (2 and sqrt(2)), the energy sum(v^2/2 - mu/|r|) is conserved, and the example's reference
// system, the same masses as Bodies with zero inertia, moves the same way (the example's check).
TEST(MslMultiBody, PointMassesStayRigidAndMatchTheirReferenceSystem) {
  EQC_REQUIRE_MSL();
  std::string vars;
  for (int k = 1; k <= 6; ++k)
    for (const char *what : {"pointMass", "referenceSystem.pointMass"})
      vars += std::string(vars.empty() ? "" : ",") + what + std::to_string(k) + ".r_0," + what +
              std::to_string(k) + ".v_0";
  const Csv csv =
      simulateExample(msl, "Modelica.Mechanics.MultiBody.Examples.Elementary.PointGravityWithPointMasses2",
                      "--vars " + vars, 3);
  ASSERT_FALSE(csv.rows.empty());
  auto vec = [&](size_t row, const std::string &what) {
    return std::array<double, 3>{csv.at(row, what + "[1]"), csv.at(row, what + "[2]"),
                                 csv.at(row, what + "[3]")};
  };
  auto distance = [](const std::array<double, 3> &a, const std::array<double, 3> &b) {
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                     (a[2] - b[2]) * (a[2] - b[2]));
  };
  auto energy = [&](size_t row) {
    double e = 0;
    for (int k = 1; k <= 6; ++k) {
      const auto r = vec(row, "pointMass" + std::to_string(k) + ".r_0");
      const auto v = vec(row, "pointMass" + std::to_string(k) + ".v_0");
      e += 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) - 5 / distance(r, {0, 0, 0});
    }
    return e;
  };
  const double e0 = energy(0);
  double worstReference = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    EXPECT_NEAR(distance(vec(row, "pointMass1.r_0"), vec(row, "pointMass2.r_0")), 2, 1e-9) << row;
    EXPECT_NEAR(distance(vec(row, "pointMass3.r_0"), vec(row, "pointMass5.r_0")), std::sqrt(2.0), 1e-9)
        << row;
    EXPECT_NEAR(energy(row) / e0, 1, 1e-4) << "time " << csv.at(row, "time");
    for (int k = 1; k <= 6; ++k)
      worstReference = std::max(worstReference,
                                distance(vec(row, "pointMass" + std::to_string(k) + ".r_0"),
                                         vec(row, "referenceSystem.pointMass" + std::to_string(k) + ".r_0")));
  }
  EXPECT_LT(worstReference, 1e-3); // the two systems integrate the same motion (rtol 1e-6 each)
  EXPECT_NEAR(csv.at(0, "pointMass1.r_0[1]"), 3, 1e-12);
}
