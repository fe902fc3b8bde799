// sample() (MLS 3.5, 3.7.5) end to end: a sampled-data system against its exact zero-order-hold
// discretization, the sample instants, and MSL's Discrete.Sampler pattern
// `when {sampleTrigger, initial()}`.
#include "Run.h"

using namespace eqc::test;

// x' = -x + u with u held at cos(t_k) from each sample t_k = k h: exactly (ZOH)
// x(t_{k+1}) = e^-h x(t_k) + (1 - e^-h) cos(t_k), x(0) = 0 (u is set at initialization through
// initial(), and again by the sample at 0, the event after initialization). Every event is at
// k h (to 1e-12), and the states match to 1e-9.
TEST(Sample, ZeroOrderHoldMatchesItsExactDiscretization) {
  std::string dir = scratchDir("sample_zoh");
  writeFile(dir + "/m.mo", R"(model Zoh
  parameter Real h = 0.1;
  Real x(start = 0, fixed = true);
  discrete Real u(start = 0);
  Boolean sampleTrigger = sample(0, h);
  Integer k(start = 0);
equation
  der(x) = -x + u;
  when {sampleTrigger, initial()} then
    u = cos(time);
  end when;
  when sampleTrigger then
    k = pre(k) + 1;
  end when;
end Zoh;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 5 --interval 0.05 --method dopri5 --rtol 1e-11", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  std::vector<double> events = eventTimes(csv);
  ASSERT_EQ(events.size(), 50u); // 0.1, 0.2, ..., 5.0 (the one at 0 is initialization)
  for (size_t i = 0; i < events.size(); ++i)
    EXPECT_NEAR(events[i], 0.1 * static_cast<double>(i + 1), 1e-12);
  const double h = 0.1, decay = std::exp(-h);
  double x = 0;
  size_t row = 0;
  for (int step = 0; step < 50; ++step) {
    x = decay * x + (1 - decay) * std::cos(step * h);
    while (row + 1 < csv.rows.size() && csv.rows[row][0] < (step + 1) * h - 1e-9)
      ++row;
    // The left limit row at the event: u still the previous sample.
    EXPECT_NEAR(csv.at(row, "x"), x, 1e-9) << "t = " << (step + 1) * h;
    EXPECT_NEAR(csv.at(row, "u"), std::cos(step * h), 1e-12);
    EXPECT_EQ(csv.at(row + 1, "k"), step + 2);
    EXPECT_NEAR(csv.at(row + 1, "u"), std::cos((step + 1) * h), 1e-9);
  }
  EXPECT_EQ(csv.at(0, "k"), 1); // the sample at the start time, after initialization
  EXPECT_EQ(csv.at(0, "u"), 1);
}
