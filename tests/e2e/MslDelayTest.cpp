// MSL 4.0.0 components against physics computed here: components built on delay() (MLS 3.5,
// 3.7.2) — a lossless transmission line (Electrical.Analog.Lines.TLine1) and the delay blocks of
// Blocks.Nonlinear — and the saturating inductor's implicit fixed = false parameter (8.6).
#include "Msl.h"
#include "Run.h"

#include <cmath>

using namespace eqc::test;

// A 1 V step at 0.1 ms into a line of Z0 = 50 Ohm and delay TD = 1 ms, matched at the source
// (Rs = Z0) and loaded with 150 Ohm: the incident wave is 0.5 V; it reaches the load at 1.1 ms,
// where Gamma = (150 - 50)/(150 + 50) = 0.5 gives 0.75 V; the reflection reaches the source at
// 2.1 ms (0.5 + 0.25 = 0.75 V) and is absorbed there, so both ends stay at 0.75 V.
TEST(MslDelay, TransmissionLineWavesAndReflections) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_tline");
  writeFile(dir + "/Line.mo", R"(model Line
  Modelica.Electrical.Analog.Lines.TLine1 line(Z0 = 50, TD = 1e-3);
  Modelica.Electrical.Analog.Sources.StepVoltage source(V = 1, startTime = 1e-4);
  Modelica.Electrical.Analog.Basic.Resistor rs(R = 50);
  Modelica.Electrical.Analog.Basic.Resistor load(R = 150);
  Modelica.Electrical.Analog.Basic.Ground ground;
equation
  connect(source.p, rs.p);
  connect(rs.n, line.p1);
  connect(line.p2, load.p);
  connect(load.n, line.n2);
  connect(line.n1, source.n);
  connect(source.n, ground.p);
  connect(line.n2, ground.p);
  annotation(experiment(StopTime = 4e-3));
end Line;
)");
  RunResult r = runEqc("simulate Line.mo --lib '" + msl + "' -o out.csv --interval 1e-5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.rows[i][0];
    auto away = [&](double edge) { return std::fabs(t - edge) > 2e-6; };
    if (away(1e-4) && away(2.1e-3))
      EXPECT_NEAR(csv.at(i, "line.v1"), t < 1e-4 ? 0.0 : t < 2.1e-3 ? 0.5 : 0.75, 1e-9) << "t = " << t;
    if (away(1.1e-3))
      EXPECT_NEAR(csv.at(i, "load.v"), t < 1.1e-3 ? 0.0 : 0.75, 1e-9) << "t = " << t;
  }
}

// FixedDelay and VariableDelay of a sine: y = sin(w (t - d)) once t > d, sin(0) = 0 before.
TEST(MslDelay, DelayBlocksDelayASine) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_delay_blocks");
  writeFile(dir + "/Delays.mo", R"(model Delays
  Modelica.Blocks.Sources.Sine sine(f = 0.5);
  Modelica.Blocks.Nonlinear.FixedDelay fixed(delayTime = 0.3);
  Modelica.Blocks.Nonlinear.VariableDelay variable(delayMax = 1);
  Modelica.Blocks.Sources.Ramp d(height = 0.5, duration = 2, offset = 0.2);
equation
  connect(sine.y, fixed.u);
  connect(sine.y, variable.u);
  connect(d.y, variable.delayTime);
  annotation(experiment(StopTime = 4));
end Delays;
)");
  RunResult r = runEqc("simulate Delays.mo --lib '" + msl + "' -o out.csv --interval 0.01 --rtol 1e-9 --atol 1e-9", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double w = 2 * M_PI * 0.5;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.rows[i][0];
    const double d = 0.2 + 0.5 * std::min(t / 2, 1.0);
    EXPECT_NEAR(csv.at(i, "fixed.y"), t > 0.3 ? std::sin(w * (t - 0.3)) : 0.0, 1e-6) << "t = " << t;
    EXPECT_NEAR(csv.at(i, "variable.y"), t > d ? std::sin(w * (t - d)) : 0.0, 1e-6) << "t = " << t;
  }
}

// Electrical.Analog.Examples.ShowSaturatingInductor: Ipar (fixed = false) solves
// (Lnom - Linf)/(Lzer - Linf) = Ipar/Inom*(pi/2 - atan(Ipar/Inom)); found here by bisection, the
// inductance Lact = Linf + (Lzer - Linf)*atan(i/Ipar)/(i/Ipar) of every row follows from it.
TEST(MslAnalog, SaturatingInductorSolvesItsImplicitParameter) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_saturating");
  RunResult r = runEqc("simulate Modelica.Electrical.Analog.Examples.ShowSaturatingInductor --lib '" + msl +
                           "' -o out.csv",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  const double Lzer = 2, Lnom = 1, Inom = 1, Linf = 0.5;
  auto g = [&](double ipar) { return ipar / Inom * (M_PI / 2 - std::atan(ipar / Inom)) - (Lnom - Linf) / (Lzer - Linf); };
  double lo = 1e-6, hi = 10; // g(lo) < 0 < g(hi)
  for (int k = 0; k < 200; ++k)
    (g(0.5 * (lo + hi)) < 0 ? lo : hi) = 0.5 * (lo + hi);
  const double ipar = 0.5 * (lo + hi);
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double current = csv.at(i, "SaturatingInductance1.i");
    const double expected = std::fabs(current / ipar) < 1e-10 ? Lzer : Linf + (Lzer - Linf) * std::atan(current / ipar) / (current / ipar);
    EXPECT_NEAR(csv.at(i, "SaturatingInductance1.Lact"), expected, 1e-9) << "i = " << current;
  }
}
