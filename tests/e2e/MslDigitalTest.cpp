// MSL 4.0.0's Electrical.Digital: nine-valued logic (an enumeration) through the gates' truth
// tables (constant tables indexed by signals, MLS 3.5, 10.5) and inertial delays (a when-statement
// whose elsewhen fires at a scheduled time, 11.2.7), checked against Boolean algebra (skipped where
// the library is absent).
#include "Msl.h"
#include "Run.h"

#include <cmath>
#include <set>

using namespace eqc::test;

namespace {
/// The value of column `name` at the output point nearest to `t`.
double at(const Csv &csv, const std::string &name, double t) {
  size_t best = 0;
  for (size_t row = 0; row < csv.rows.size(); ++row)
    if (std::fabs(csv.at(row, "time") - t) < std::fabs(csv.at(best, "time") - t))
      best = row;
  return csv.at(best, name);
}
} // namespace

// Digital.Examples.HalfAdder: a = 1, 0, 1, 0 from t = 1, 2, 3, 4; b = 1 on [2, 4); sum s = a xor b
// and carry c = a and b through gates with an inertial delay of 0.3 s. Logic values: '0' = 3,
// '1' = 4 (the enumeration's literals in order U, X, 0, 1, ...); before the first delay both are
// 'U' = 1 (the delays' start value), then '0'.
TEST(MslDigital, HalfAdderAddsWithItsGateDelays) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_digital_halfadder");
  RunResult r = runEqc("simulate Modelica.Electrical.Digital.Examples.HalfAdder --lib '" + msl + "' -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double zero = 3, one = 4;
  EXPECT_EQ(at(csv, "Adder.s", 0.1), 1);
  struct Case {
    double t, a, b;
  } cases[] = {{0.5, 0, 0}, {1.5, 1, 0}, {2.5, 0, 1}, {3.5, 1, 1}, {4.5, 0, 0}};
  for (const Case &k : cases) {
    const bool a = k.a != 0, b = k.b != 0;
    EXPECT_EQ(at(csv, "a.y", k.t), a ? one : zero) << "t = " << k.t;
    EXPECT_EQ(at(csv, "b.y", k.t), b ? one : zero) << "t = " << k.t;
    EXPECT_EQ(at(csv, "Adder.s", k.t), (a != b) ? one : zero) << "t = " << k.t;
    EXPECT_EQ(at(csv, "Adder.c", k.t), (a && b) ? one : zero) << "t = " << k.t;
  }
  // The sum of 1 + 0 appears 0.3 s after a rises at t = 1, not before.
  EXPECT_EQ(at(csv, "Adder.s", 1.2), zero);
  EXPECT_EQ(at(csv, "Adder.s", 1.4), one);
}

// Digital.Examples.MUX2x1: a multiplexer (its table MUX2x1Table[R, R, R] a matrix constructor of
// one three-dimensional item, MLS 3.5, 10.4.2) passes in0 while sel = '0' (until 7 s), then in1;
// the inputs step through '1', 'X', '0', ... every 2 s from 2 s and end at 'U' from 12 s; no delay.
// Logic values: 'U' = 1, 'X' = 2, '0' = 3, '1' = 4.
TEST(MslDigital, MultiplexerPassesTheSelectedInput) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_digital_mux");
  RunResult r = runEqc("simulate Modelica.Electrical.Digital.Examples.MUX2x1 --lib '" + msl + "' -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double U = 1, X = 2, zero = 3, one = 4;
  struct Case {
    double t, out;
  } cases[] = {{3, one}, {5, X}, {6.5, zero}, {7.5, one}, {9, zero}, {11, X}, {13, U}};
  for (const Case &k : cases) {
    const double selected = at(csv, k.t < 7 ? "Mux2x1.in0" : "Mux2x1.in1", k.t);
    EXPECT_EQ(at(csv, "Mux2x1.sel", k.t), k.t < 7 ? zero : one) << "t = " << k.t;
    EXPECT_EQ(selected, k.out) << "t = " << k.t;
    EXPECT_EQ(at(csv, "Mux2x1.out", k.t), k.out) << "t = " << k.t;
  }
}

// Digital.Examples.FullAdder: a counter drives a, b and c_in through every combination; two half
// adders and an or-gate with transport delays of 1 ms (Digital.Delay.TransportDelay: delay() of a
// signal that changes only at events) give s = a xor b xor c_in and c_out = majority(a, b, c_in).
// Checked at every output point where the inputs have held for 10 ms (the gates' delays add up to
// less). The run used to stop at t = 6, where a delayed jump was read as not yet there.
TEST(MslDigital, FullAdderAddsEveryCombinationOfItsInputs) {
  EQC_REQUIRE_MSL();
  const Csv csv = simulateExample(msl, "Modelica.Electrical.Digital.Examples.FullAdder", "", 10);
  ASSERT_FALSE(csv.rows.empty());
  const double zero = 3, one = 4;
  double since = 0, a0 = -1, b0 = -1, c0 = -1;
  size_t checked = 0;
  std::set<int> combinations;
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "time"), a = csv.at(row, "Adder1.a"), b = csv.at(row, "Adder1.b"),
                 c = csv.at(row, "Adder1.c_in");
    if (a != a0 || b != b0 || c != c0) {
      a0 = a, b0 = b, c0 = c;
      since = t;
    }
    const bool logic = (a == zero || a == one) && (b == zero || b == one) && (c == zero || c == one);
    if (t - since < 0.01 || !logic)
      continue;
    const int ones = (a == one) + (b == one) + (c == one);
    combinations.insert((a == one) + 2 * (b == one) + 4 * (c == one));
    EXPECT_EQ(csv.at(row, "s.y[1]"), ones % 2) << "t = " << t;
    EXPECT_EQ(csv.at(row, "c_out.y[1]"), ones >= 2 ? 1 : 0) << "t = " << t;
    ++checked;
  }
  EXPECT_EQ(combinations.size(), 8u);
  EXPECT_GT(checked, 400u);
}

// Digital.Examples.RAM: DLATRAM reads its initial memory from the library's Memory_Matrix.txt at
// initialization (Streams.readLine and Strings.scanInteger: Strings computed when the model
// runs), lines 1..4 "0 0", "1 0", "0 1", "1 1" (lowest bit left). Write enable is '1' with data
// '0', '0': each address the inputs select without an 'X' (addr in {0, 1, L, H}^2) is written
// with '0', '0' (an assignment `mem[int_addr, 1:2] := ...` whose subscript changes at events) and
// read back at once (read enable '1'); an address with an 'X' reads 'X', 'X' (= 2).
TEST(MslDigital, RamReadsItsFileAndWritesTheAddressedWord) {
  EQC_REQUIRE_MSL();
  const std::string mem =
      "dLATRAM.mem[1,1],dLATRAM.mem[1,2],dLATRAM.mem[2,1],dLATRAM.mem[2,2],dLATRAM.mem[3,1],"
      "dLATRAM.mem[3,2],dLATRAM.mem[4,1],dLATRAM.mem[4,2]";
  const Csv csv = simulateExample(msl, "Modelica.Electrical.Digital.Examples.RAM",
                                  "--vars " + mem + ",dLATRAM.dataOut[1],dLATRAM.dataOut[2]", 400);
  ASSERT_FALSE(csv.rows.empty());
  const double zero = 3, one = 4, unknown = 2;
  const double file[4][2] = {{zero, zero}, {one, zero}, {zero, one}, {one, one}};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 2; ++b) {
      const std::string name = "dLATRAM.mem[" + std::to_string(a + 1) + "," + std::to_string(b + 1) + "]";
      EXPECT_EQ(csv.at(0, name), file[a][b]) << name << " from the file";
      EXPECT_EQ(csv.at(csv.rows.size() - 1, name), zero) << name << " written";
    }
  // addr_0 steps through U X 0 1 Z W L H - every 45 s, addr_1 every 5 s: at t = 107 addr =
  // ('0', '1') selects word 3 (written '0', '0'); at t = 112 ('0', 'Z') has an 'X'.
  EXPECT_EQ(at(csv, "dLATRAM.dataOut[1]", 107), zero);
  EXPECT_EQ(at(csv, "dLATRAM.dataOut[2]", 107), zero);
  EXPECT_EQ(at(csv, "dLATRAM.dataOut[1]", 112), unknown);
  EXPECT_EQ(at(csv, "dLATRAM.dataOut[2]", 112), unknown);
}
