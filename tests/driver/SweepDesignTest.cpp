// The study designs of eqc sweep: factors, their product, the sampler's quantile function.
#include "driver/SweepDesign.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace eqc {
namespace {

TEST(SweepDesign, NormalQuantileInvertsTheCdfOfLibm) {
  // Phi(z) = erfc(-z / sqrt 2) / 2 from the C library: an independent reference for AS 241, on
  // the lower half, where p is represented accurately down to the tail.
  for (double z = -37; z <= 0; z += 0.01) {
    double p = 0.5 * std::erfc(-z / std::sqrt(2.0));
    EXPECT_NEAR(normalQuantile(p), z, 2e-14 * std::max(1.0, std::fabs(z))) << "p = " << p;
  }
  // The upper half by symmetry (1 - p is exact for p >= 1/2).
  for (double p = 0.5; p < 1; p += 0.0123)
    EXPECT_NEAR(normalQuantile(p), -normalQuantile(1 - p), 1e-14 * std::max(1.0, std::fabs(normalQuantile(p))));
  EXPECT_NEAR(normalQuantile(0.975), 1.959963984540054, 1e-15);
  EXPECT_EQ(normalQuantile(0.5), 0.0);
  EXPECT_EQ(normalQuantile(0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(normalQuantile(1.5)));
}

TEST(SweepDesign, FactorsParse) {
  Factor f;
  std::string error;
  ASSERT_TRUE(parseFactor("k=0:0.1:1", f, error)) << error;
  EXPECT_EQ(f.name, "k");
  ASSERT_EQ(f.values.size(), 11u);
  EXPECT_EQ(f.values.back(), 1.0);
  ASSERT_TRUE(parseFactor("n=3:1", f, error) == false);
  EXPECT_NE(error.find("empty or endless"), std::string::npos) << error;
  ASSERT_TRUE(parseFactor("n=1:3", f, error));
  EXPECT_EQ(f.values, (std::vector<double>{1, 2, 3}));
  ASSERT_TRUE(parseFactor("m.c=0.1, 0.2,0.4", f, error)) << error;
  EXPECT_EQ(f.name, "m.c");
  EXPECT_EQ(f.values, (std::vector<double>{0.1, 0.2, 0.4}));
  ASSERT_TRUE(parseFactor("k~lognormal(0, 0.25)", f, error)) << error;
  EXPECT_TRUE(f.random);
  EXPECT_EQ(f.distribution, Distribution::LogNormal);
  EXPECT_EQ(f.b, 0.25);
  EXPECT_FALSE(parseFactor("k~uniform(2,1)", f, error));
  EXPECT_FALSE(parseFactor("k=1,x", f, error));
  EXPECT_FALSE(parseFactor("=1", f, error));
  EXPECT_FALSE(parseFactor("k", f, error));
}

TEST(SweepDesign, BlocksMultiplyTheLastFastest) {
  DesignOptions o;
  std::string error;
  Factor a, b;
  ASSERT_TRUE(parseFactor("a=1,2", a, error));
  ASSERT_TRUE(parseFactor("b=10,20,30", b, error));
  o.factors = {a, b};
  Design d;
  std::ostringstream err;
  ASSERT_TRUE(makeDesign(o, d, err)) << err.str();
  EXPECT_EQ(d.names, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(d.runs.size(), 6u);
  EXPECT_EQ(d.runs[1], (std::vector<double>{1, 20}));
  EXPECT_EQ(d.runs[5], (std::vector<double>{2, 30}));
  // Random factors: N joint samples per grid point.
  Factor r;
  ASSERT_TRUE(parseFactor("r~uniform(0,1)", r, error));
  o.factors = {a, r};
  o.samples = 5;
  ASSERT_TRUE(makeDesign(o, d, err)) << err.str();
  ASSERT_EQ(d.runs.size(), 10u);
  for (size_t k = 0; k < 5; ++k)
    EXPECT_EQ(d.runs[k][1], d.runs[k + 5][1]); // the same samples at each grid point
}

} // namespace
} // namespace eqc
