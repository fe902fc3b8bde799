// MSL 4.0.0's Modelica.Math.Nonlinear: functions passed as arguments (MLS 3.5, 12.4.2) to its
// quadrature and root finder, checked against closed forms (skipped where the library is absent).
#include "Msl.h"
#include "Run.h"

#include <cmath>
#include <complex>

using namespace eqc::test;

// Math.Nonlinear.Examples.QuadratureLobatto3: s = quadratureLobatto(function fun7(A = A, w = ws),
// 0, 1) = A (1 - cos ws)/ws with A = 1, ws = 2, computed when the model is compiled; the oscillator
// q'' + wq q = 0 (wq = 3) from q = 1: x = s cos(sqrt(3) t).
TEST(MslMath, QuadratureLobattoOfAPartialApplicationInAModel) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_quadrature_lobatto3");
  RunResult r = runEqc("simulate Modelica.Math.Nonlinear.Examples.QuadratureLobatto3 --lib '" + msl +
                           "' -o out.csv --rtol 1e-9 --atol 1e-11",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double s = (1 - std::cos(2.0)) / 2;
  ASSERT_GT(csv.rows.size(), 10u);
  for (size_t row = 0; row < csv.rows.size(); row += csv.rows.size() / 10) {
    const double t = csv.at(row, "time");
    EXPECT_NEAR(csv.at(row, "x"), s * std::cos(std::sqrt(3.0) * t), 1e-6) << "t = " << t;
  }
}

// Math.Nonlinear.solveOneNonlinearEquation (Brent's method) and quadratureLobatto with partial
// applications whose bound inputs change in time: the root of 3u - sin(w u) - 1 (fun2) against
// its residual, and the integral of sin(w u) over [0, pi/2] (fun5) = (1 - cos(w pi/2))/w (not near
// zero, where its relative tolerance would ask for ever finer intervals).
TEST(MslMath, SolverAndQuadratureWithBoundInputsThatChangeInTime) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_nonlinear_time");
  writeFile(dir + "/m.mo", R"(model NonlinearInTime
  import Modelica.Math.Nonlinear;
  import Modelica.Math.Nonlinear.Examples.UtilityFunctions;
  Real w = 1 + time;
  Real u = Nonlinear.solveOneNonlinearEquation(function UtilityFunctions.fun2(w = w), 0, 5, 1e-13);
  Real I = Nonlinear.quadratureLobatto(function UtilityFunctions.fun5(w = w), 0, Modelica.Constants.pi / 2, 1e-12);
end NonlinearInTime;
)");
  RunResult r = runEqc("simulate m.mo --lib '" + msl + "' -o out.csv --t-end 2", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t row = 0; row < csv.rows.size(); row += std::max<size_t>(1, csv.rows.size() / 8)) {
    const double w = 1 + csv.at(row, "time"), u = csv.at(row, "u");
    EXPECT_NEAR(3 * u - std::sin(w * u) - 1, 0, 1e-11) << "w = " << w;
    EXPECT_NEAR(csv.at(row, "I"), (1 - std::cos(w * M_PI / 2)) / w, 1e-9) << "w = " << w;
  }
}

// MSL's Complex (an operator record, MLS 3.5, 14) and Modelica.ComplexMath: operators, the
// constructor with a default imaginary part, conversion of Reals (2 * z, z + 1), the package
// constant j, and ComplexMath's functions (which use the operators inside functions) against
// std::complex at every output point.
TEST(MslMath, ComplexOperatorsAndComplexMathAgreeWithStdComplex) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_complex");
  writeFile(dir + "/m.mo", R"(model ComplexNumbers
  import Modelica.ComplexMath;
  import Modelica.ComplexMath.j;
  Complex z = Complex(1 + time, -0.5);
  Complex a = 2 * z + 1 - j * z / Complex(3);
  Complex s = ComplexMath.sin(z);
  Complex r = ComplexMath.sqrt(z * z * z);
  Complex e = ComplexMath.exp(-z) ^ Complex(0.5, 1);
  Complex t = ComplexMath.tanh(z);
  Real m = ComplexMath.abs(a - ComplexMath.conj(z));
  annotation(experiment(StopTime = 2));
end ComplexNumbers;
)");
  RunResult r = runEqc("simulate m.mo --lib '" + msl + "' -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_GT(csv.rows.size(), 10u);
  using C = std::complex<double>;
  auto at = [&](size_t row, const std::string &name) { return C(csv.at(row, name + ".re"), csv.at(row, name + ".im")); };
  for (size_t row = 0; row < csv.rows.size(); row += csv.rows.size() / 10) {
    const double time = csv.at(row, "time");
    const C z(1 + time, -0.5), j(0, 1);
    const C a = 2.0 * z + 1.0 - j * z / 3.0;
    EXPECT_LT(std::abs(at(row, "a") - a), 1e-12) << "t = " << time;
    EXPECT_LT(std::abs(at(row, "s") - std::sin(z)), 1e-12) << "t = " << time;
    EXPECT_LT(std::abs(at(row, "r") - std::sqrt(z * z * z)), 1e-12) << "t = " << time;
    EXPECT_LT(std::abs(at(row, "e") - std::pow(std::exp(-z), C(0.5, 1))), 1e-12) << "t = " << time;
    EXPECT_LT(std::abs(at(row, "t") - std::tanh(z)), 1e-12) << "t = " << time;
    EXPECT_NEAR(csv.at(row, "m"), std::abs(a - std::conj(z)), 1e-12) << "t = " << time;
  }
}

// Modelica.Utilities.Strings on Strings a function computes when it runs (its C functions from
// ModelicaStrings.c: length, substring, scanReal, isEqual): "value: " + String(x, format = ".4f")
// + " m" has 15 characters for 1 <= x < 10, and scanning characters 8..n-2 gives x back to 4
// decimals (x = 2t + 1, so 1 to 3).
TEST(MslMath, StringUtilitiesOnStringsComputedWhenTheModelRuns) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_string_utilities");
  writeFile(dir + "/m.mo", R"(model StringUtilities
  import Modelica.Utilities.Strings;
  function parse
    input Real x;
    output Real y;
    output Integer n;
  protected
    String s = "value: " + String(x, format = ".4f") + " m";
    String number;
  algorithm
    n := Strings.length(s);
    number := Strings.substring(s, 8, n - 2);
    y := Strings.scanReal(number);
    if not Strings.isEqual(Strings.substring(s, n, n), "m") then
      y := -1;
    end if;
  end parse;
  Real y;
  Integer n;
equation
  (y, n) = parse(2*time + 1);
end StringUtilities;
)");
  RunResult r = runEqc("simulate m.mo --lib '" + msl + "' -o out.csv --t-end 1 --interval 0.125", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_EQ(csv.rows.size(), 9u);
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double x = 2 * csv.at(row, "time") + 1;
    EXPECT_EQ(csv.at(row, "n"), 15);
    EXPECT_NEAR(csv.at(row, "y"), x, 5e-5) << "at x = " << x;
  }
}
