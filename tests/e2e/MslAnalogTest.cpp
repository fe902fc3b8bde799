// MSL 4.0.0's Electrical.Analog examples whose algebraic loops need tearing, checked against the
// physics their documentation states (skipped where the library is absent).
#include "Msl.h"
#include "Run.h"

#include <array>
#include <cmath>
#include <tuple>

using namespace eqc::test;

// Analog.Examples.Resistor: a resistor (R = 100 Ohm at 20 degC, alpha = 1e-3/K) on a sine of 220 V,
// 1 Hz, cooled through a thermal conductor (G = 50 W/K) to 20 degC, with no heat capacity: its
// temperature is T = 293.15 + P/G with P = v^2/R(T), a nonlinear loop (10 unknowns, 5 after the
// connections' aliases are substituted) that Newton cannot start from zero (v = R_actual*i is
// singular at R_actual = i = 0); torn, it iterates on two. Checked at every output point: the quadratic P (1
// + alpha P/G) = v^2/R and Ohm's law.
TEST(MslAnalog, ResistorHeatedByItsCurrentThroughATornLoop) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_analog_resistor");
  RunResult r = runEqc("simulate Modelica.Electrical.Analog.Examples.Resistor --lib '" + msl + "' -o out.csv --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("loops (simulation): 1 nonlinear loop of 5 unknowns -> 2 tearing variables"),
            std::string::npos)
      << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_GT(csv.rows.size(), 100u);
  const double R = 100, alpha = 1e-3, G = 50, a = alpha / G;
  double hottest = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "time"), v = 220 * std::sin(2 * M_PI * t);
    const double power = (-1 + std::sqrt(1 + 4 * a * v * v / R)) / (2 * a);
    EXPECT_NEAR(csv.at(row, "resistor.v"), v, 1e-9 * 220) << "t = " << t;
    EXPECT_NEAR(csv.at(row, "resistor.LossPower"), power, 1e-7 * (1 + power)) << "t = " << t;
    EXPECT_NEAR(csv.at(row, "resistor.T_heatPort"), 293.15 + power / G, 1e-8) << "t = " << t;
    EXPECT_NEAR(csv.at(row, "resistor.i") * csv.at(row, "resistor.R_actual"), v, 1e-8 * 220) << "t = " << t;
    hottest = std::max(hottest, csv.at(row, "resistor.T_heatPort"));
  }
  // At the peaks (v = 220 V): P = 479.4 W, T = 302.74 K.
  EXPECT_NEAR(hottest, 293.15 + (-1 + std::sqrt(1 + 4 * a * 220 * 220 / R)) / (2 * a) / G, 1e-3);
}

// Analog.Examples.OpAmps.ControlCircuit: the same control loop twice, A of op-amp circuits (PI,
// two first-order lags, an adder) and B of Blocks: a step of 10 at 0.1 s and a disturbance of 1
// at 0.5 s. The op-amp circuits fix their output voltages at 0 (`v2(fixed = true)` on algebraic
// variables: initial equations, MLS 3.5, 8.6; they are what leaves no state free). The loop's
// integral action brings the output to the set point 10 and, after the disturbance, the PI
// output to 10 - 1 = 9 (A's PI is inverting: -9); A's op-amps have a finite gain, so A matches B
// to a few parts in 10^4.
TEST(MslAnalog, ControlCircuitOfOpAmpsMatchesTheOneOfBlocks) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_control_circuit");
  RunResult r = runEqc("simulate Modelica.Electrical.Analog.Examples.OpAmps.ControlCircuit --lib '" + msl +
                           "' -o out.csv --vars firstOrder2A.v2,firstOrder2B.y,PIA.v2,PIB.y",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t n = csv.rows.size();
  ASSERT_GT(n, 100u);
  EXPECT_EQ(csv.at(0, "firstOrder2A.v2"), 0);
  EXPECT_EQ(csv.at(0, "PIA.v2"), 0);
  EXPECT_NEAR(csv.at(n - 1, "firstOrder2B.y"), 10, 1e-6);
  EXPECT_NEAR(csv.at(n - 1, "PIB.y"), 9, 1e-6);
  EXPECT_NEAR(csv.at(n - 1, "firstOrder2A.v2"), 10, 1e-3);
  EXPECT_NEAR(csv.at(n - 1, "PIA.v2"), -9, 1e-2);
  double worst = 0;
  for (size_t i = 0; i < n; ++i)
    worst = std::max(worst, std::fabs(csv.at(i, "firstOrder2A.v2") - csv.at(i, "firstOrder2B.y")));
  EXPECT_LT(worst, 5e-3);
}

namespace {

/// Classical RK4 on y' = f(t, y) from t = 0 with step h to each of `times` (increasing).
template <typename F>
std::vector<std::array<double, 2>> rk4(F f, std::array<double, 2> y, const std::vector<double> &times, double h) {
  std::vector<std::array<double, 2>> out;
  double t = 0;
  auto add = [](std::array<double, 2> a, std::array<double, 2> b, double k) {
    return std::array<double, 2>{a[0] + k * b[0], a[1] + k * b[1]};
  };
  for (double target : times) {
    while (t < target - 1e-15) {
      const double step = std::min(h, target - t);
      auto k1 = f(t, y), k2 = f(t + step / 2, add(y, k1, step / 2)), k3 = f(t + step / 2, add(y, k2, step / 2)),
           k4 = f(t + step, add(y, k3, step));
      for (int i = 0; i < 2; ++i)
        y[i] += step / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
      t += step;
    }
    out.push_back(y);
  }
  return out;
}

} // namespace

// Analog.Examples.ResonanceCircuits: two circuits whose components are joined only through
// signal adaptors (VoltageToCurrent/CurrentToVoltage, with derivatives passed as signals: MSL's
// state1 functions and their derivative annotations, MLS 3.5, 12.7.1) must behave as if joined
// directly. (1) A current source sin(w t), w = 1/sqrt(L C) = 100/s, into L = C = 0.01, G = 1 in
// parallel: C v' = i_s - G v - i_L, L i_L' = v. (2) A voltage source sin(w t) into L, R = 1, C in
// series: L i' = v_s - R i - v_C, C v_C' = i. Both from rest, against RK4 (h = 1e-5) of those
// equations.
TEST(MslAnalog, ResonanceCircuitsThroughSignalAdaptorsMatchTheDirectCircuits) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_resonance");
  RunResult r = runEqc("simulate Modelica.Electrical.Analog.Examples.ResonanceCircuits --lib '" + msl +
                           "' -o out.csv --interval 0.01 --rtol 1e-8 --vars capacitor1.v,inductor1.i,inductor2.i,capacitor2.v",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  std::vector<double> times;
  for (size_t i = 0; i < csv.rows.size(); ++i)
    if (times.empty() || csv.at(i, "time") > times.back())
      times.push_back(csv.at(i, "time"));
  ASSERT_GE(times.size(), 100u);
  const double L = 0.01, C = 0.01, G = 1, R = 1, w = 100;
  auto parallel = rk4([&](double t, std::array<double, 2> y) {
    return std::array<double, 2>{(std::sin(w * t) - G * y[0] - y[1]) / C, y[0] / L};
  }, {0, 0}, times, 1e-5);
  auto series = rk4([&](double t, std::array<double, 2> y) {
    return std::array<double, 2>{(std::sin(w * t) - R * y[0] - y[1]) / L, y[0] / C};
  }, {0, 0}, times, 1e-5);
  size_t k = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    while (times[k] < csv.at(i, "time"))
      ++k;
    EXPECT_NEAR(csv.at(i, "capacitor1.v"), parallel[k][0], 1e-5) << "t = " << times[k];
    EXPECT_NEAR(csv.at(i, "inductor1.i"), parallel[k][1], 1e-5) << "t = " << times[k];
    EXPECT_NEAR(csv.at(i, "inductor2.i"), series[k][0], 1e-5) << "t = " << times[k];
    EXPECT_NEAR(csv.at(i, "capacitor2.v"), series[k][1], 1e-5) << "t = " << times[k];
  }
}

// Analog.Examples.OpAmps.SignalGenerator (after Tietze and Schenk, ch. 14.5.2): a Schmitt trigger
// and an integrator of IdealizedOpAmpLimited (gain 1e6, +-15 V, smooth(0, if ...) without
// events) sized by the example for a rectangle of +-Vps = 15 V and a triangle of amplitude VAmp =
// 10 V at f = 10 Hz: the trigger flips when the triangle reaches -+10 V, first at 1/(4 f) =
// 0.025 s, then every 1/(2 f) = 0.05 s. (Newton used to fail in the integrator's loop at 11 ms,
// and the trigger flipped early where a rejected trial step had left it.)
TEST(MslAnalog, SignalGeneratorGivesItsDesignedTriangleAndRectangle) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Electrical.Analog.Examples.OpAmps.SignalGenerator",
                                  "--vars vOutTriangle.v,vOutRectangle.v", 1);
  ASSERT_FALSE(csv.rows.empty());
  const std::vector<double> flips = csv.signChanges("vOutRectangle.v");
  const auto [lo, hi] = csv.range("vOutTriangle.v");
  for (size_t row = 0; row < csv.rows.size(); ++row)
    EXPECT_NEAR(std::fabs(csv.at(row, "vOutRectangle.v")), 15, 1e-6) << "t = " << csv.at(row, "time");
  ASSERT_EQ(flips.size(), 20u);
  for (size_t k = 0; k < flips.size(); ++k)
    EXPECT_NEAR(flips[k], 0.025 + 0.05 * static_cast<double>(k), 1.5e-3) << k; // the output interval is 1 ms
  EXPECT_NEAR(hi, 10, 0.05);
  EXPECT_NEAR(lo, -10, 0.05);
}

// Analog.Examples.ThyristorBehaviourTest: a thyristor on a 30 V, 10 kHz sine through 10 ohm (and
// 2 uH), fired by gate pulses of 5 mA from 20 us every 100 us. Its gate characteristic vGK(iGK)
// (VGT = 0.7 V, IGT = 5 mA: VGT/IGT iGK below 0.65 V, 0.65^2/VGT + iGK (VGT - 0.65)/IGT above)
// holds at every point; it blocks before the first pulse and conducts nearly the source's
// 3 A at the half-wave's crest (t = 25 us) and again after the second pulse. (Newton used to fail
// on the characteristic, whose unknown vGK appears on both sides, at 30 us.)
TEST(MslAnalog, ThyristorFiresOnItsGatePulses) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Electrical.Analog.Examples.ThyristorBehaviourTest",
                                  "--vars thyristor_v4_1.iGK,thyristor_v4_1.vGK,thyristor_v4_1.Anode.i", 2e-4);
  ASSERT_FALSE(csv.rows.empty());
  const double VGT = 0.7, IGT = 5e-3;
  double crest = 0, second = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "time"), i = csv.at(row, "thyristor_v4_1.iGK");
    const double v = VGT / IGT * i < 0.65 ? VGT / IGT * i : 0.65 * 0.65 / VGT + i * (VGT - 0.65) / IGT;
    EXPECT_NEAR(csv.at(row, "thyristor_v4_1.vGK"), v, 1e-9) << "t = " << t;
    const double anode = csv.at(row, "thyristor_v4_1.Anode.i");
    if (t < 2e-5)
      EXPECT_LT(std::fabs(anode), 1e-3) << "t = " << t;
    if (std::fabs(t - 2.5e-5) < 1e-6)
      crest = std::max(crest, anode);
    if (t > 1.2e-4 && t < 1.5e-4)
      second = std::max(second, anode);
  }
  EXPECT_GT(crest, 2.9);
  EXPECT_LT(crest, 3.0);
  EXPECT_GT(second, 2.5);
}

// Analog.Examples.OpAmps.Multivibrator (Tietze and Schenk, ch. 6.5.3): a Schmitt trigger of an
// IdealizedOpAmpLimited (+-15 V, thresholds +-15 R1/(R1 + R2) = +-7.5 V) charging C through R, C
// sized for f = 10 Hz: C = 1/(2 f R ln(1 + 2 R1/R2)), so tau = RC = 1/(20 ln 3). From c.v = 1 with
// the output at -15 V, c.v reaches -7.5 V at tau ln(16/7.5) = 0.034484 s; then the output flips
// every tau ln 3 = 0.05 s. Each flip is an attempted step that crosses the threshold: a rejected
// attempt must not leave the trigger flipped (it flipped early), and the accepted one must keep
// it flipped (else the state creeps towards the threshold without crossing it).
TEST(MslAnalog, MultivibratorFlipsAtItsDesignedThresholds) {
  EQC_REQUIRE_MSL();
  const Csv csv =
      simulateExample(msl, "Modelica.Electrical.Analog.Examples.OpAmps.Multivibrator", "--vars opAmp.v_out,c.v", 1);
  ASSERT_FALSE(csv.rows.empty());
  const double tau = 1 / (20 * std::log(3.0)), first = tau * std::log(16 / 7.5);
  const std::vector<double> flips = csv.signChanges("opAmp.v_out");
  ASSERT_EQ(flips.size(), 20u);
  for (size_t k = 0; k < flips.size(); ++k)
    EXPECT_NEAR(flips[k], first + 0.05 * static_cast<double>(k), 1.5e-3) << k; // the output interval is 1 ms
  const auto [lo, hi] = csv.range("c.v");
  EXPECT_NEAR(lo, -7.5, 0.1);
  EXPECT_NEAR(hi, 7.5, 0.1);
}

// Analog.Examples.HeatingNPN_NORGate and HeatingPNP_NORGate: two Ebers-Moll transistors (NPN;
// PNP with every voltage negated) form a NOR gate of the inputs V1, V2 (trapezoids of 6 V from
// 55 s and 65 s, period 50 s); their losses heat HeatCapacitor1 (C = 0.1 J/K) through two thermal
// conductors. The examples set every capacitance and transit time to the parameters CapVal = 0
// and tauVal = 0, annotated Evaluate = true and passed on by `final` modifiers (MLS 3.5, 18.3 and
// 7.2.6): folded, they remove every der() term of the transistors and capacitors (with them
// structural analysis wrongly made them states, and the derivative system was singular at t = 0).
// Checked: the NOR truth table at the output C2.v; the PNP gate mirrors the NPN one (C2.v
// negated, the same temperature); the heat stored, C (T(200) - T(0)), equals the transistors'
// losses integrated over the run (the trapezoid rule on the output grid, 1%).
TEST(MslAnalog, HeatingNorGatesFollowTheTruthTableAndStoreTheirLosses) {
  EQC_REQUIRE_MSL();
  const std::string vars = "--vars V1.v,V2.v,C2.v,HeatCapacitor1.T,T1.LossPower,T2.LossPower";
  const Csv npn = simulateExample(msl, "Modelica.Electrical.Analog.Examples.HeatingNPN_NORGate", vars, 200);
  const Csv pnp = simulateExample(msl, "Modelica.Electrical.Analog.Examples.HeatingPNP_NORGate", vars, 200);
  ASSERT_FALSE(npn.rows.empty());
  ASSERT_FALSE(pnp.rows.empty());
  auto at = [](const Csv &csv, double t, const std::string &name) {
    size_t best = 0;
    for (size_t row = 0; row < csv.rows.size(); ++row)
      if (std::fabs(csv.at(row, "time") - t) < std::fabs(csv.at(best, "time") - t))
        best = row;
    return csv.at(best, name);
  };
  // (t, V1 high, V2 high): the output is high only when both inputs are low.
  const std::array<std::tuple<double, bool, bool>, 7> table{{{30, false, false},
                                                             {62, true, false},
                                                             {75, true, true},
                                                             {90, false, false},
                                                             {110, true, false},
                                                             {130, false, true},
                                                             {150, false, false}}};
  for (auto [t, a, b] : table) {
    EXPECT_NEAR(at(npn, t, "V1.v"), a ? 6 : 0, 1e-9) << t;
    EXPECT_NEAR(at(npn, t, "V2.v"), b ? 6 : 0, 1e-9) << t;
    const double out = at(npn, t, "C2.v");
    if (a || b)
      EXPECT_LT(out, 0.2) << "t = " << t;
    else
      EXPECT_NEAR(out, 6, 1e-6) << "t = " << t;
    EXPECT_NEAR(at(pnp, t, "C2.v"), -out, 1e-6) << "t = " << t;
    EXPECT_NEAR(at(pnp, t, "HeatCapacitor1.T"), at(npn, t, "HeatCapacitor1.T"), 1e-6) << "t = " << t;
  }
  double losses = 0;
  for (size_t row = 1; row < npn.rows.size(); ++row) {
    const double dt = npn.at(row, "time") - npn.at(row - 1, "time");
    auto power = [&](size_t r) { return npn.at(r, "T1.LossPower") + npn.at(r, "T2.LossPower"); };
    losses += 0.5 * dt * (power(row) + power(row - 1));
  }
  const double stored =
      0.1 * (npn.at(npn.rows.size() - 1, "HeatCapacitor1.T") - npn.at(0, "HeatCapacitor1.T"));
  EXPECT_GT(stored, 3.0); // about 39 K warmer
  EXPECT_NEAR(stored, losses, 0.01 * losses);
}

// Analog.Examples.OpAmps.DifferentialAmplifier: an IdealizedOpAmpLimited (gain V0 = 1e4, supplies
// +-15 V about its own ground node) with R1 = R2 = 100 kOhm, R3 = R4 = 1 kOhm measures the
// line-to-line voltage of two sources of 400 V (RMS, line to line) at 50 Hz, phases +-60 deg,
// attenuated 100 times; its ground node floats on RGround = 100 kOhm and the instrument loads the
// output with 100 kOhm. Its supply current i_s = p_s/(vps - vns) enters one supply pin and leaves
// the other: with the connections' aliases substituted the two cancel, and the voltages are one
// small loop (Newton used to cycle between the op-amp's two saturations on the 62-unknown one).
// Reference: the nodal equations of the four potentials in_n, in_p, out, g (linear region),
//   (v1 - in_n)/R1 + (out - in_n)/R3 = 0,  (v2 - in_p)/R2 + (g - in_p)/R4 = 0,
//   out = V0 (in_p - in_n),  (in_p - g)/R4 + (out - g)/RI - g/RG = 0,
// solved by Cramer's rule at every output point; the sensor reads out - g, and 1/100 of the
// line-to-line voltage to 0.4% (the finite gain, the loads and the common mode): its RMS is
// about 4 V.
TEST(MslAnalog, DifferentialAmplifierMatchesItsNodalEquations) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Electrical.Analog.Examples.OpAmps.DifferentialAmplifier",
                                  "--vars voltageSensor.v,gain.y,rootMeanSquare.y", 0.2);
  ASSERT_FALSE(csv.rows.empty());
  const double V = std::sqrt(2.0 / 3.0) * 400, R1 = 100e3, R3 = 1e3, RI = 100e3, RG = 100e3, V0 = 1e4;
  auto det3 = [](const std::array<std::array<double, 3>, 3> &m) {
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
           m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  };
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "time");
    const double v1 = V * std::sin(2 * M_PI * 50 * t + M_PI / 3),
                 v2 = V * std::sin(2 * M_PI * 50 * t - M_PI / 3);
    // in_p = (v2 + g R2/R4)/(1 + R2/R4) (R2 = R1, R4 = R3); eliminated, three unknowns in_n, out, g.
    const double k = R1 / R3;
    const std::array<std::array<double, 3>, 3> A{
        {{-1 / R1 - 1 / R3, 1 / R3, 0},
         {V0, 1, -V0 * k / (1 + k)},
         {0, 1 / RI, 1 / R3 / (1 + k) * k - 1 / R3 - 1 / RI - 1 / RG}}};
    const std::array<double, 3> b{-v1 / R1, V0 * v2 / (1 + k), -v2 / R3 / (1 + k)};
    const double d = det3(A);
    std::array<double, 3> x{};
    for (size_t j = 0; j < 3; ++j) {
      auto m = A;
      for (size_t i = 0; i < 3; ++i)
        m[i][j] = b[i];
      x[j] = det3(m) / d;
    }
    EXPECT_NEAR(csv.at(row, "voltageSensor.v"), x[1] - x[2], 1e-9 * V) << "t = " << t;
    EXPECT_NEAR(csv.at(row, "voltageSensor.v"), csv.at(row, "gain.y"), 4e-3 * 5.66) << "t = " << t;
  }
  EXPECT_NEAR(csv.at(csv.rows.size() - 1, "rootMeanSquare.y"), 4, 0.02);
}
