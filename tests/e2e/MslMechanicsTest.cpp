// MSL 4.0.0's Mechanics.Rotational, checked against what the physics says (skipped where the
// library is absent).
#include "Msl.h"
#include "Run.h"

#include <cmath>
#include <set>

using namespace eqc::test;

// Rotational.Examples.Friction: a motor drives inertia3 (J = 1, w0 = 100) through a clutch
// (fn = 160 N, mu = 0.5: 80 N m while slipping) into inertia2 (J = 0.05), a spring-damper
// (c = 160, d = 1) and a braked inertia1; at 0.5 s the motor stops and the brake (800 N m)
// holds inertia1. Every stop of a friction element is an event whose discrete unknowns (the
// start flags, locked, mode) and continuous ones (sa, the accelerations) form one loop, solved
// with pre() fixed (MLS 3.5, 8.6). The physics: while the clutch slips, inertia3 decelerates at
// exactly 80 rad/s^2; once the brake holds, inertia1 stays at rest; once the clutch sticks,
// inertia2 and inertia3 turn together, a damped oscillator of J = 1.05 on the spring:
// period 2 pi / sqrt(c / J - (d / (2 J))^2).
TEST(MslMechanics, FrictionClutchAndBrakeStickAndSlipAsTheirTorquesSay) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_friction");
  RunResult r = runEqc("simulate Modelica.Mechanics.Rotational.Examples.Friction --lib '" + msl +
                           "' -o out.csv --interval 1e-3 --vars inertia1.w,inertia2.w,inertia3.w,clutch.mode,brake.mode",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t n = csv.rows.size();
  ASSERT_GT(n, 3000u);
  EXPECT_DOUBLE_EQ(csv.at(n - 1, "time"), 3);
  auto rowAt = [&](double t) {
    size_t i = 0;
    while (i + 1 < n && csv.at(i + 1, "time") <= t)
      ++i;
    return i;
  };
  // Slipping clutch: inertia3's speed falls by 80 rad/s^2 (backward slip: clutch.mode = -1).
  const size_t a = rowAt(0.8), b = rowAt(1.5);
  EXPECT_EQ(csv.at(a, "clutch.mode"), -1);
  EXPECT_NEAR((csv.at(b, "inertia3.w") - csv.at(a, "inertia3.w")) / (csv.at(b, "time") - csv.at(a, "time")), -80, 1e-6);
  // The brake holds inertia1 from about 0.67 s; the clutch sticks from about 1.66 s.
  double rest = 0, together = 0;
  for (size_t i = rowAt(0.7); i < n; ++i)
    rest = std::max(rest, std::fabs(csv.at(i, "inertia1.w")));
  for (size_t i = rowAt(1.7); i < n; ++i)
    together = std::max(together, std::fabs(csv.at(i, "inertia2.w") - csv.at(i, "inertia3.w")));
  EXPECT_LT(rest, 1e-9);
  EXPECT_LT(together, 1e-9);
  EXPECT_EQ(csv.at(n - 1, "clutch.mode"), 0);
  EXPECT_EQ(csv.at(n - 1, "brake.mode"), 0);
  // The stuck pair's oscillation: upward zero crossings of inertia3.w, linearly interpolated.
  std::vector<double> up;
  for (size_t i = rowAt(1.7) + 1; i < n; ++i) {
    const double w0 = csv.at(i - 1, "inertia3.w"), w1 = csv.at(i, "inertia3.w");
    if (w0 < 0 && w1 >= 0)
      up.push_back(csv.at(i - 1, "time") + (csv.at(i, "time") - csv.at(i - 1, "time")) * (-w0) / (w1 - w0));
  }
  ASSERT_GE(up.size(), 2u);
  const double J = 1.05, c = 160, d = 1, pi = 3.141592653589793;
  const double period = 2 * pi / std::sqrt(c / J - (d / (2 * J)) * (d / (2 * J)));
  EXPECT_NEAR(up[1] - up[0], period, 1e-4);
}

// Rotational.Examples.SimpleGearShift and LossyGearDemo3: clutches and a lossy gear whose
// stick/slip decisions are mixed systems at events; both run to their stop times.
TEST(MslMechanics, GearShiftAndLossyGearRunThroughTheirStickSlipEvents) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_gearshift");
  for (const char *example : {"SimpleGearShift", "LossyGearDemo3"}) {
    RunResult r = runEqc(std::string("simulate Modelica.Mechanics.Rotational.Examples.") + example + " --lib '" + msl +
                             "' -o out.csv --stats",
                         dir);
    ASSERT_EQ(r.exitCode, 0) << example << ": " << r.stderrText;
    EXPECT_NE(r.stderrText.find("state events"), std::string::npos) << r.stderrText;
  }
}

// Rotational and Translational Examples.GenerationOfFMUs: a direct body (1.1) and an inverse
// one (2.2) exported as input/output blocks, the inverse one driven by the direct one's
// position, speed and acceleration (Sources.Move's position function and its first and second
// derivative annotations, MLS 3.5, 12.7.1: index reduction differentiates the coupling twice
// and takes the supplied derivatives). Joined, they are one body of 3.3 pushed by
// 10 sin(4 pi t) from rest: w = 10 / (3.3 * 4 pi) (1 - cos(4 pi t)),
// phi = 10 / (3.3 * 4 pi) (t - sin(4 pi t) / (4 pi)).
TEST(MslMechanics, GenerationOfFMUsDirectAndInverseBodiesMoveAsOne) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_mechanics_fmus");
  struct Case {
    const char *example, *direct, *inverse;
  };
  for (const Case &c : {Case{"Rotational", "directInertia.inertia", "inverseInertia.inertia"},
                        Case{"Translational", "directMass.mass", "inverseMass.mass"}}) {
    const bool rotational = std::string(c.example) == "Rotational";
    const std::string w = rotational ? ".w" : ".v", phi = rotational ? ".phi" : ".s";
    RunResult r = runEqc(std::string("simulate Modelica.Mechanics.") + c.example + ".Examples.GenerationOfFMUs --lib '" +
                             msl + "' -o out.csv --vars " + c.direct + w + "," + c.direct + phi + "," + c.inverse + w +
                             "," + c.inverse + phi,
                         dir);
    ASSERT_EQ(r.exitCode, 0) << c.example << ": " << r.stderrText;
    Csv csv = readCsv(dir + "/out.csv");
    ASSERT_GT(csv.rows.size(), 1000u);
    const double pi = 3.141592653589793, k = 10 / (3.3 * 4 * pi);
    for (size_t i = 0; i < csv.rows.size(); ++i) {
      const double t = csv.at(i, "time");
      for (const char *body : {c.direct, c.inverse}) {
        EXPECT_NEAR(csv.at(i, body + w), k * (1 - std::cos(4 * pi * t)), 1e-6) << body << w << " at " << t;
        EXPECT_NEAR(csv.at(i, body + phi), k * (t - std::sin(4 * pi * t) / (4 * pi)), 1e-6) << body << phi << " at " << t;
      }
    }
  }
}

// Rotational.Examples.LossyGearDemo2: a lossy gear and a bearing friction in series; "if both
// friction models are stuck, there is no unique solution. Still a reliable Modelica simulator
// should be able to handle this situation" (the example's documentation). Both get stuck at
// t = 0.308; of the torque splits, the one nearest the torques before is taken, and it must keep
// each element within its stuck limits. Checked at every output point: a stuck element does not
// move and its friction torque sa stays within its limits (the bearing: |sa| <= tau0_max; the
// gear: tauLossMin_m <= sa <= tauLossMax_p); and each element is in every mode (-1, 0, 1) during
// the 0.5 s, as the documentation says. (The event iteration used to cycle at 0.308 s: the
// minimum-norm split put the bearing past its limit.)
TEST(MslMechanics, LossyGearAndBearingFrictionStuckTogetherStayWithinTheirLimits) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Mechanics.Rotational.Examples.LossyGearDemo2",
                                  "--vars gear.mode,bearingFriction.mode,gear.sa,bearingFriction.sa,Inertia1.w,"
                                  "bearingFriction.tau0_max,gear.tauLossMax_p,gear.tauLossMin_m",
                                  0.5);
  ASSERT_FALSE(csv.rows.empty());
  std::set<int> gearModes, bearingModes;
  size_t bothStuck = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const int gear = static_cast<int>(csv.at(row, "gear.mode")), bearing = static_cast<int>(csv.at(row, "bearingFriction.mode"));
    gearModes.insert(gear);
    bearingModes.insert(bearing);
    const double t = csv.at(row, "time");
    if (gear == 0) {
      EXPECT_LE(csv.at(row, "gear.sa"), csv.at(row, "gear.tauLossMax_p") + 1e-9) << "t = " << t;
      EXPECT_GE(csv.at(row, "gear.sa"), csv.at(row, "gear.tauLossMin_m") - 1e-9) << "t = " << t;
    }
    if (bearing == 0)
      EXPECT_LE(std::fabs(csv.at(row, "bearingFriction.sa")), csv.at(row, "bearingFriction.tau0_max") + 1e-9)
          << "t = " << t;
    if (gear == 0 && bearing == 0) {
      ++bothStuck;
      EXPECT_LT(std::fabs(csv.at(row, "Inertia1.w")), 1e-9) << "t = " << t;
    }
  }
  EXPECT_GT(bothStuck, 10u);
  EXPECT_EQ(gearModes, (std::set<int>{-1, 0, 1}));
  EXPECT_EQ(bearingModes, (std::set<int>{-1, 0, 1}));
}

// Two brakes on one inertia (J = 1), engaged at 0.05 s with 1 N m (weak: fn = 2 N, mu = 0.5) and
// 3 N m (strong: fn = 6 N), against a torque ramped from 0.1 s at 10 N m/s. Both stuck, only the
// sum of their torques is determined (the linear block is singular; the solution nearest the one
// before splits each increase evenly), so at 0.3 s (2 N m) the weak one reaches its limit: it
// slips at zero speed with 1 N m while the strong one takes the rest. Modelica's relations read
// that setting as inconsistent (sa > tau0_max is false at sa = tau0_max) and the other one too
// (stuck, the weak brake's share exceeds its limit): its condition is held on its boundary. The
// inertia starts at 0.5 s (T = 4 N m = 1 + 3): w = 5 (t - 0.5)^2 until the ramp ends at 1.1 s
// (w = 1.8), then w = 1.8 + 6 (t - 1.1). (The event iteration used to cycle at 0.3 s; before
// that, the nearest solution's consistency test read rounding as inconsistency at t = 0.)
TEST(MslMechanics, TwoStuckBrakesShareTheLoadWithinTheirLimits) {
  EQC_REQUIRE_MSL();
  const std::string dir = scratchDir("msl_two_brakes");
  writeFile(dir + "/TwoBrakes.mo", R"(model TwoBrakes
  import Modelica.Mechanics.Rotational;
  Rotational.Components.Inertia inertia(J = 1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
  Rotational.Sources.Torque torque;
  Modelica.Blocks.Sources.Ramp ramp(height = 10, duration = 1, startTime = 0.1);
  Rotational.Components.Brake weak(fn_max = 2);
  Rotational.Components.Brake strong(fn_max = 6);
  Modelica.Blocks.Sources.Step on(startTime = 0.05);
equation
  connect(ramp.y, torque.tau);
  connect(torque.flange, inertia.flange_a);
  connect(inertia.flange_b, weak.flange_a);
  connect(inertia.flange_b, strong.flange_a);
  connect(on.y, weak.f_normalized);
  connect(on.y, strong.f_normalized);
  annotation(experiment(StopTime = 1.5, Interval = 0.001));
end TwoBrakes;
)");
  RunResult r = runEqc("simulate TwoBrakes.mo --lib '" + msl +
                           "' -o out.csv --stats --vars inertia.w,weak.tau,strong.tau",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("conditions held on their boundary"), std::string::npos) << r.stderrText;
  const Csv csv = readCsv(dir + "/out.csv");
  ASSERT_GT(csv.rows.size(), 1500u);
  EXPECT_DOUBLE_EQ(csv.at(csv.rows.size() - 1, "time"), 1.5);
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "time"), w = csv.at(row, "inertia.w");
    const double exact = t < 0.5 ? 0 : t < 1.1 ? 5 * (t - 0.5) * (t - 0.5) : 1.8 + 6 * (t - 1.1);
    EXPECT_NEAR(w, exact, 1e-9 * std::max(1.0, exact)) << "t = " << t;
    EXPECT_LE(std::fabs(csv.at(row, "weak.tau")), 1 + 1e-12) << "t = " << t;
    EXPECT_LE(std::fabs(csv.at(row, "strong.tau")), 3 + 1e-12) << "t = " << t;
    if (t > 0.1 && t < 0.5) // stuck: the brakes hold the torque together
      EXPECT_NEAR(csv.at(row, "weak.tau") + csv.at(row, "strong.tau"), 10 * (t - 0.1), 1e-9) << "t = " << t;
  }
}

// Rotational.Examples.HeatLosses: a sine torque drives a chain of a damper, spring-dampers, an
// elasto-backlash, bearing friction, a lossy gear, a clutch, a one-way clutch and a brake, whose
// heat all goes to one convection; the documentation says the heat the drive train generates is
// the convection's heat flow. The physics: every element dissipates (loss power >= 0), and the
// energy balance holds: the work of the source is the kinetic energy of the six inertias, the
// potential energy of the two linear springs, the work taken by the elasto-backlash (whose model
// drops the energy of its spring when it separates: its own balance is not the library's) and
// the heat of the other elements. At 0.0377 s the brake reaches its limit while the lossy gear
// holds the chain: its condition is held on its boundary (the event iteration used to cycle).
TEST(MslMechanics, HeatLossesBalancesTheSourcesWorkWithHeatAndStoredEnergy) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Mechanics.Rotational.Examples.HeatLosses", "", 1.0);
  ASSERT_FALSE(csv.rows.empty());
  const std::vector<std::string> lossy = {
      "damper", "springDamper", "bearingFriction", "lossyGear", "clutch", "oneWayClutch", "brake"};
  double work = 0, heat = 0, backlash = 0, brakeHeat = 0, largestImbalance = 0;
  auto stored = [&](size_t row) {
    double e = 0;
    for (int i = 1; i <= 6; ++i)
      e += 0.5 * 2 * std::pow(csv.at(row, "inertia" + std::to_string(i) + ".w"), 2);
    return e + 0.5 * 1e4 * std::pow(csv.at(row, "springDamper.phi_rel"), 2) +
           0.5 * 1e4 * std::pow(csv.at(row, "spring3.phi_rel"), 2);
  };
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    for (const std::string &element : lossy)
      EXPECT_GE(csv.at(row, element + ".lossPower"), -1e-12) << element << " at t = " << csv.at(row, "time");
    if (row == 0)
      continue;
    // Trapezoidal integrals over the output grid (0.1 ms).
    const double dt = csv.at(row, "time") - csv.at(row - 1, "time");
    auto mean = [&](auto f) { return 0.5 * (f(row) + f(row - 1)) * dt; };
    work += mean([&](size_t i) { return csv.at(i, "torque.tau") * csv.at(i, "inertia1.w"); });
    backlash +=
        mean([&](size_t i) { return csv.at(i, "elastoBacklash.tau") * csv.at(i, "elastoBacklash.w_rel"); });
    for (const std::string &element : lossy)
      heat += mean([&](size_t i) { return csv.at(i, element + ".lossPower"); });
    brakeHeat += mean([&](size_t i) { return csv.at(i, "brake.lossPower"); });
    largestImbalance = std::max(largestImbalance, std::fabs(work - heat - backlash - stored(row)));
  }
  std::printf("[ msl      ] HeatLosses: work %.6f J, heat %.6f J, largest imbalance %.2g J\n", work, heat,
              largestImbalance);
  EXPECT_GT(work, 0.3);
  EXPECT_GT(brakeHeat, 1e-3); // the brake slipped
  EXPECT_LT(largestImbalance, 1e-4 * work);
}
