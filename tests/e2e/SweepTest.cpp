// eqc sweep end to end: grids, Monte Carlo samples, Latin hypercubes, CSV parameter sets, failed
// runs, interrupt and --resume; the HDF5 file read back with HDF5's C API and every run checked
// against the analytic solution of its parameters.
#include "Hdf5.h"
#include "Run.h"

#include <algorithm>
#include <cmath>
#include <fstream>

namespace eqc::test {
namespace {

// x'' = -w^2 x with k = w^2 a dependent parameter and x's start value the parameter A:
// x = A cos(w t), v = -A w sin(w t).
const char *kOscillator = R"(model Osc
  parameter Real w = 1;
  parameter Real k = w*w;
  parameter Real A = 1;
  Real x(start = A, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -k*x;
  annotation(experiment(StopTime = 5, Interval = 0.05, Tolerance = 1e-10));
end Osc;
)";

std::string writeModel(const std::string &dir, const std::string &name, const char *text) {
  std::ofstream(dir + "/" + name) << text;
  return name;
}

TEST(Sweep, GridOfParametersAndDependentOnesFollow) {
  std::string dir = scratchDir("sweep_grid");
  writeModel(dir, "osc.mo", kOscillator);
  RunResult r = runEqc("sweep osc.mo -p w=1:0.5:2 -p A=0.5,2 -o grid.h5 -j 2", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  H5File f(dir + "/grid.h5");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.strings("runs/parameter_names"), (std::vector<std::string>{"w", "A"}));
  std::vector<hsize_t> dims;
  std::vector<double> params = f.doubles("runs/parameters", &dims);
  ASSERT_EQ(dims, (std::vector<hsize_t>{6, 2}));
  // The Cartesian product, the last factor fastest.
  const double expected[6][2] = {{1, 0.5}, {1, 2}, {1.5, 0.5}, {1.5, 2}, {2, 0.5}, {2, 2}};
  for (int run = 0; run < 6; ++run)
    for (int j = 0; j < 2; ++j)
      EXPECT_EQ(params[run * 2 + j], expected[run][j]);
  std::vector<double> time = f.doubles("time");
  ASSERT_EQ(time.size(), 101u);
  EXPECT_DOUBLE_EQ(time.back(), 5.0);
  std::vector<double> x = f.doubles("trajectories/x", &dims), v = f.doubles("trajectories/v");
  ASSERT_EQ(dims, (std::vector<hsize_t>{6, 101}));
  double worst = 0;
  for (int run = 0; run < 6; ++run) {
    double w = expected[run][0], A = expected[run][1];
    for (size_t t = 0; t < time.size(); ++t) {
      worst = std::max(worst, std::fabs(x[run * 101 + t] - A * std::cos(w * time[t])));
      worst = std::max(worst, std::fabs(v[run * 101 + t] + A * w * std::sin(w * time[t])));
    }
    EXPECT_NEAR(f.doubles("final/x")[run], A * std::cos(5 * w), 1e-7);
  }
  EXPECT_LT(worst, 1e-7); // Tolerance 1e-10: the dependent k = w^2 and the start x = A followed
  for (signed char s : f.bytes("runs/state"))
    EXPECT_EQ(s, 1);
  for (const std::string &m : f.strings("runs/message"))
    EXPECT_EQ(m, "");
  EXPECT_FALSE(std::filesystem::exists(dir + "/grid.h5.partial"));
}

TEST(Sweep, StartValuesOfStatesVaryLikeParameters) {
  std::string dir = scratchDir("sweep_start");
  writeModel(dir, "osc.mo", kOscillator);
  RunResult r = runEqc("sweep osc.mo -p w=2 -p x=0.5,3 --final-only -o start.h5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  H5File f(dir + "/start.h5");
  EXPECT_FALSE(f.exists("trajectories"));
  std::vector<double> x = f.doubles("final/x");
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[0], 0.5 * std::cos(10.0), 1e-7);
  EXPECT_NEAR(x[1], 3.0 * std::cos(10.0), 1e-7);
}

TEST(Sweep, MonteCarloSamplesAreReproducibleAndSummarized) {
  std::string dir = scratchDir("sweep_mc");
  writeModel(dir, "osc.mo", kOscillator);
  const std::string args = "sweep osc.mo -p 'w~uniform(1,2)' --samples 64 --vars x --final-only --quantiles 0.25,0.5 ";
  RunResult r = runEqc(args + "--seed 7 --summary -j 2 -o a.h5", dir, dir + "/summary.txt");
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  ASSERT_EQ(runEqc(args + "--seed 7 -j 1 -o b.h5", dir).exitCode, 0);
  ASSERT_EQ(runEqc(args + "--seed 8 -o c.h5", dir).exitCode, 0);
  H5File a(dir + "/a.h5"), b(dir + "/b.h5"), c(dir + "/c.h5");
  std::vector<double> w = a.doubles("runs/parameters"), x = a.doubles("final/x");
  ASSERT_EQ(w.size(), 64u);
  for (size_t i = 0; i < w.size(); ++i) {
    EXPECT_TRUE(w[i] > 1 && w[i] < 2) << w[i];
    EXPECT_NEAR(x[i], std::cos(5 * w[i]), 1e-7);
  }
  // The same seed gives the same runs (and any number of workers the same bits); another seed others.
  EXPECT_EQ(b.doubles("runs/parameters"), w);
  EXPECT_EQ(b.doubles("final/x"), x);
  EXPECT_NE(c.doubles("runs/parameters"), w);
  // The summary against statistics computed here from the runs' end values.
  std::vector<double> sorted = x;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double v : x)
    mean += v / 64;
  double var = 0;
  for (double v : x)
    var += (v - mean) * (v - mean) / 63;
  EXPECT_NEAR(a.doubles("summary/x/mean")[0], mean, 1e-14);
  EXPECT_NEAR(a.doubles("summary/x/std")[0], std::sqrt(var), 1e-14);
  EXPECT_EQ(a.doubles("summary/x/min")[0], sorted.front());
  EXPECT_EQ(a.doubles("summary/x/max")[0], sorted.back());
  std::vector<double> q = a.doubles("summary/x/quantiles");
  ASSERT_EQ(q.size(), 2u);
  EXPECT_NEAR(q[0], sorted[15] + 0.75 * (sorted[16] - sorted[15]), 1e-15); // h = 63 * 0.25 = 15.75
  EXPECT_NEAR(q[1], 0.5 * (sorted[31] + sorted[32]), 1e-15);
  EXPECT_EQ(a.doubles("summary/x/count")[0], 64);
  std::ifstream in(dir + "/summary.txt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("runs: 64 (64 ok, 0 failed)"), std::string::npos) << text;
  EXPECT_NE(text.find("q0.25"), std::string::npos) << text;
}

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

TEST(Sweep, LatinHypercubeFillsEveryBinOnce) {
  std::string dir = scratchDir("sweep_lhs");
  writeModel(dir, "osc.mo", kOscillator);
  RunResult r =
      runEqc("sweep osc.mo -p 'w~uniform(0,1)' -p 'A~normal(0,1)' --lhs --samples 40 --final-only -o lhs.h5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  H5File f(dir + "/lhs.h5");
  std::vector<double> p = f.doubles("runs/parameters");
  ASSERT_EQ(p.size(), 80u);
  std::vector<double> w, u;
  for (size_t i = 0; i < 40; ++i) {
    w.push_back(p[2 * i]);
    u.push_back(normalCdf(p[2 * i + 1])); // back to the probability scale
  }
  std::sort(w.begin(), w.end());
  std::sort(u.begin(), u.end());
  for (size_t i = 0; i < 40; ++i) {
    EXPECT_GE(w[i], i / 40.0) << i;
    EXPECT_LT(w[i], (i + 1) / 40.0) << i;
    EXPECT_GE(u[i], i / 40.0 - 1e-12) << i;
    EXPECT_LT(u[i], (i + 1) / 40.0 + 1e-12) << i;
  }
}

TEST(Sweep, NormalAndLogNormalSamplesHaveTheirMoments) {
  std::string dir = scratchDir("sweep_moments");
  writeModel(dir, "osc.mo", kOscillator);
  RunResult r = runEqc(
      "sweep osc.mo -p 'w~normal(1.5,0.1)' -p 'A~lognormal(0,0.5)' --samples 4000 --final-only --vars x -o n.h5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  H5File f(dir + "/n.h5");
  std::vector<double> p = f.doubles("runs/parameters");
  ASSERT_EQ(p.size(), 8000u);
  double mean = 0, sq = 0, logMean = 0;
  std::vector<double> a;
  for (size_t i = 0; i < 4000; ++i) {
    mean += p[2 * i] / 4000;
    sq += p[2 * i] * p[2 * i] / 4000;
    logMean += std::log(p[2 * i + 1]) / 4000;
    a.push_back(p[2 * i + 1]);
  }
  double sd = std::sqrt(sq - mean * mean);
  EXPECT_NEAR(mean, 1.5, 4 * 0.1 / std::sqrt(4000.0)); // four standard errors
  EXPECT_NEAR(sd, 0.1, 0.005);
  EXPECT_NEAR(logMean, 0.0, 4 * 0.5 / std::sqrt(4000.0));
  std::nth_element(a.begin(), a.begin() + 2000, a.end());
  EXPECT_NEAR(a[2000], 1.0, 0.05); // the median of exp(N(0, 0.5^2)) is 1
}

TEST(Sweep, FailedRunsAreRecordedAndTheOthersGoOn) {
  std::string dir = scratchDir("sweep_failed");
  writeModel(dir, "grow.mo", R"(model Grow
  parameter Real k = 1;
  Real x(start = 1, fixed = true);
equation
  der(x) = k*x;
  assert(x < 10, "x grew past 10");
  annotation(experiment(StopTime = 2, Interval = 0.1, Tolerance = 1e-10));
end Grow;
)");
  RunResult r = runEqc("sweep grow.mo -p k=0.5,1,1.2,1.5 -o g.h5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("2 of 4 runs failed"), std::string::npos) << r.stderrText;
  EXPECT_NE(r.stderrText.find("x grew past 10"), std::string::npos) << r.stderrText;
  H5File f(dir + "/g.h5");
  std::vector<signed char> state = f.bytes("runs/state");
  EXPECT_EQ(state, (std::vector<signed char>{1, 1, 2, 2}));
  std::vector<int> status = f.ints("runs/status");
  EXPECT_EQ(status[2], 10); // EQC_ERR_ASSERTION
  std::vector<std::string> messages = f.strings("runs/message");
  EXPECT_EQ(messages[0], "");
  EXPECT_NE(messages[3].find("x grew past 10"), std::string::npos) << messages[3];
  // The failed runs' trajectories up to the failure (x = e^(k t) < 10 until t = ln(10)/k), NaN after.
  std::vector<double> x = f.doubles("trajectories/x"), time = f.doubles("time");
  ASSERT_EQ(time.size(), 21u);
  const double k[4] = {0.5, 1, 1.2, 1.5};
  for (int run = 0; run < 4; ++run)
    for (size_t t = 0; t < time.size(); ++t) {
      double value = x[run * 21 + t];
      if (time[t] < std::log(10.0) / k[run] - 1e-9)
        EXPECT_NEAR(value, std::exp(k[run] * time[t]), 1e-6) << run << " " << time[t];
      else
        EXPECT_TRUE(std::isnan(value)) << run << " " << time[t];
    }
  std::vector<double> stats = f.doubles("runs/statistics");
  // Where the run ended: the step on which the assertion failed, at most one step past ln(10)/k.
  EXPECT_GT(stats[2 * 6 + 5], 1.9);
  EXPECT_LT(stats[2 * 6 + 5], std::log(10.0) / 1.2 + 0.1);
  // The summary is over the successful runs.
  EXPECT_EQ(f.doubles("summary/x/count").back(), 2);
  EXPECT_NEAR(f.doubles("summary/x/max").back(), std::exp(2.0), 1e-6);
}

TEST(Sweep, ParameterSetsFromACsvFileTimesAGrid) {
  std::string dir = scratchDir("sweep_csv");
  writeModel(dir, "osc.mo", kOscillator);
  std::ofstream(dir + "/sets.csv") << "# amplitudes\nA\n0.5\n\n3\n";
  RunResult r = runEqc("sweep osc.mo -p w=1,2 --runs sets.csv --final-only -o s.h5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  H5File f(dir + "/s.h5");
  EXPECT_EQ(f.doubles("runs/parameters"), (std::vector<double>{1, 0.5, 1, 3, 2, 0.5, 2, 3}));
  std::vector<double> x = f.doubles("final/x");
  EXPECT_NEAR(x[3], 3 * std::cos(10.0), 1e-7);
}

TEST(Sweep, BadStudiesAreRefusedBeforeAnyRun) {
  std::string dir = scratchDir("sweep_errors");
  writeModel(dir, "osc.mo", kOscillator);
  std::ofstream(dir + "/bad.csv") << "w\n1\nx\n";
  struct Case {
    const char *args;
    int exit;
    const char *message;
  } cases[] = {
      {"-p q=1,2", 1, "model 'Osc' has no parameter or state 'q'"},
      {"-p 'w~normal(1,0.1)'", 1, "random parameters need --samples N"},
      {"-p 'w~normal(1,-0.1)' --samples 3", 1, "the standard deviation must be positive"},
      {"-p 'w~gamma(1,2)' --samples 3", 1, "lognormal(mu, sigma)"},
      {"-p w=1:-1:2", 1, "is empty or endless"},
      {"-p w=1 -p w=2", 1, "'w' is given more than once"},
      {"--runs bad.csv", 1, "bad.csv:3: error: 'x' (column 'w') is not a finite number"},
      {"-p w=1 --resume", 6, "cannot be opened as the HDF5 file of an interrupted study"},
      {"-p w=1 --quantiles 0.5,1", 1, "--quantiles: 1 is not in (0, 1)"},
  };
  for (const Case &c : cases) {
    RunResult r = runEqc(std::string("sweep osc.mo -o e.h5 ") + c.args, dir);
    EXPECT_EQ(r.exitCode, c.exit) << c.args << "\n" << r.stderrText;
    EXPECT_NE(r.stderrText.find(c.message), std::string::npos) << c.args << "\n" << r.stderrText;
    EXPECT_FALSE(std::filesystem::exists(dir + "/e.h5")) << c.args;
  }
}

TEST(Sweep, AnInterruptedStudyResumesToTheSameResults) {
  std::string dir = scratchDir("sweep_resume");
  writeModel(dir, "osc.mo", R"(model Osc
  parameter Real w = 1;
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -w*w*x;
  annotation(experiment(StopTime = 400, Interval = 0.5, Tolerance = 1e-10));
end Osc;
)");
  const std::string study = "-p w=1:0.01:3.99 --vars x -j 2 --quiet";
  ASSERT_EQ(runEqc("sweep osc.mo " + study + " -o whole.h5", dir).exitCode, 0);
  // SIGINT once the study has started (its file exists): wherever it lands, the finished runs are
  // kept in a valid file.
  std::string cmd = "cd '" + dir + "' && ('" EQC_BINARY "' sweep osc.mo " + study +
                    " -o part.h5 2>err.txt & pid=$!; for i in $(seq 600); do [ -e part.h5.partial ] && break; "
                    "sleep 0.1; done; sleep 0.2; kill -INT $pid; wait $pid; echo $? > rc.txt)";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  int rc = -1;
  std::ifstream(dir + "/rc.txt") >> rc;
  if (rc == 130) {
    ASSERT_TRUE(std::filesystem::exists(dir + "/part.h5.partial"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/part.h5"));
    {
      H5File partial(dir + "/part.h5.partial");
      ASSERT_TRUE(partial.ok());
      std::vector<signed char> state = partial.bytes("runs/state");
      EXPECT_EQ(state.size(), 300u);
      EXPECT_LT(std::count(state.begin(), state.end(), 1), 300);
    }
    RunResult resumed = runEqc("sweep osc.mo " + study + " -o part.h5 --resume", dir);
    ASSERT_EQ(resumed.exitCode, 0) << resumed.stderrText;
  } else {
    ASSERT_EQ(rc, 0) << "the study ended neither whole nor interrupted";
  }
  H5File whole(dir + "/whole.h5"), part(dir + "/part.h5");
  EXPECT_EQ(part.doubles("final/x"), whole.doubles("final/x"));
  EXPECT_EQ(part.doubles("trajectories/x"), whole.doubles("trajectories/x"));
  EXPECT_EQ(part.doubles("summary/x/mean"), whole.doubles("summary/x/mean"));
  // A study that differs is not resumed from another's file.
  std::filesystem::copy_file(dir + "/whole.h5", dir + "/other.h5.partial");
  RunResult other = runEqc("sweep osc.mo -p w=1:0.01:2 --vars x -o other.h5 --resume", dir);
  EXPECT_EQ(other.exitCode, 6);
  EXPECT_NE(other.stderrText.find("holds another study"), std::string::npos) << other.stderrText;
}

} // namespace
} // namespace eqc::test

namespace eqc::test {
namespace {

/// The sweep's trajectories of run `run` against `eqc simulate -p` of the same parameters: the
/// CSV's first row at each grid time (at an event on the grid, the left limit, as the sweep).
void expectSameAsSimulate(const std::string &dir, const std::string &model, const std::string &options,
                          const std::string &parameters, int run, const std::vector<std::string> &vars) {
  ASSERT_EQ(runEqc("simulate " + model + " " + options + " " + parameters + " -o one.csv --quiet", dir).exitCode, 0);
  Csv csv = readCsv(dir + "/one.csv");
  H5File f(dir + "/s.h5");
  std::vector<double> time = f.doubles("time");
  for (const std::string &v : vars) {
    std::vector<hsize_t> dims;
    std::vector<double> x = f.doubles("trajectories/" + v, &dims);
    ASSERT_EQ(dims.size(), 2u);
    size_t row = 0, matched = 0;
    for (size_t t = 0; t < time.size(); ++t) {
      while (row < csv.rows.size() && csv.rows[row][0] < time[t] - 1e-9)
        ++row;
      ASSERT_LT(row, csv.rows.size());
      ASSERT_NEAR(csv.rows[row][0], time[t], 1e-9);
      double expected = csv.at(row, v);
      EXPECT_NEAR(x[run * dims[1] + t], expected, 1e-12 * (1 + std::fabs(expected))) << v << " at " << time[t];
      ++matched;
    }
    EXPECT_EQ(matched, time.size());
  }
}

TEST(Sweep, RunsEqualEqcSimulateOfTheSameParameters) {
  std::string dir = scratchDir("sweep_same");
  std::string examples = std::string(EQC_SOURCE_DIR) + "/examples/";
  // Events (the bouncing ball's bounces, when-clauses and reinit).
  ASSERT_EQ(runEqc("sweep " + examples + "bouncing_ball.eq -p e=0.8,0.85 -p h0=1,2 -o s.h5 --quiet", dir).exitCode, 0);
  expectSameAsSimulate(dir, examples + "bouncing_ball.eq", "", "-p e=0.85 -p h0=2", 3, {"h", "v", "bounces"});
  // An index-3 DAE as the ODE with invariants, projected after every step.
  ASSERT_EQ(runEqc("sweep " + examples + "pendulum.eq --reduction invariants -p g=9.81,1.62 -o s.h5 --quiet", dir).exitCode,
            0);
  expectSameAsSimulate(dir, examples + "pendulum.eq", "--reduction invariants", "-p g=1.62", 1, {"x", "y"});
  // A stiff model (auto switches to radau5 and its Jacobian).
  ASSERT_EQ(runEqc("sweep " + examples + "vdpol.eq -p eps=1e-3,1e-2 -o s.h5 --quiet", dir).exitCode, 0);
  expectSameAsSimulate(dir, examples + "vdpol.eq", "", "-p eps=1e-2", 1, {"y1", "y2"});
}

} // namespace
} // namespace eqc::test

namespace eqc::test {
namespace {

TEST(Sweep, ASummaryBeyondTheMemoryBudgetIsReadBackFromTheFile) {
  // 720 runs x 6,001 points = 4.3 M values, beyond the 32 MB kept in memory: the summary reads
  // the trajectories back in blocks; the same statistics as computed here from them.
  std::string dir = scratchDir("sweep_budget");
  std::ofstream(dir + "/decay.mo") << R"(model Decay
  parameter Real k = 1;
  Real x(start = 1, fixed = true);
equation
  der(x) = -k*x;
  annotation(experiment(StopTime = 6, Interval = 0.001, Tolerance = 1e-8));
end Decay;
)";
  RunResult r = runEqc("sweep decay.mo -p 'k~uniform(0.5,1.5)' --samples 720 --quantiles 0.1,0.5 -o d.h5 --quiet", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  H5File f(dir + "/d.h5");
  std::vector<hsize_t> dims;
  std::vector<double> x = f.doubles("trajectories/x", &dims), k = f.doubles("runs/parameters");
  ASSERT_EQ(dims, (std::vector<hsize_t>{720, 6001}));
  std::vector<double> mean = f.doubles("summary/x/mean"), q = f.doubles("summary/x/quantiles");
  for (size_t t : {size_t(0), size_t(1023), size_t(1024), size_t(3000), size_t(6000)}) {
    std::vector<double> column;
    double sum = 0;
    for (size_t run = 0; run < 720; ++run) {
      column.push_back(x[run * 6001 + t]);
      sum += column.back();
    }
    EXPECT_NEAR(x[5 * 6001 + t], std::exp(-k[5] * 0.001 * static_cast<double>(t)), 1e-6);
    EXPECT_NEAR(mean[t], sum / 720, 1e-13) << t;
    std::sort(column.begin(), column.end());
    double h = 719 * 0.1;
    size_t lo = static_cast<size_t>(h);
    EXPECT_NEAR(q[t], column[lo] + (h - static_cast<double>(lo)) * (column[lo + 1] - column[lo]), 1e-15) << t;
    EXPECT_NEAR(q[6001 + t], 0.5 * (column[359] + column[360]), 1e-15) << t;
  }
}

} // namespace
} // namespace eqc::test

namespace eqc::test {
namespace {

TEST(Sweep, InputsAreHeldAtTheirSweptValueAndOtherNamesAreRefused) {
  std::string dir = scratchDir("sweep_inputs");
  std::ofstream(dir + "/ramp.mo") << R"(model Ramp
  input Real u(start = 1);
  parameter Integer n = 2;
  Real x[n](each start = 0, each fixed = true);
  Real y;
equation
  for i in 1:n loop
    der(x[i]) = i*u;
  end for;
  y = x[1] + x[2];
  annotation(experiment(StopTime = 2, Interval = 0.5));
end Ramp;
)";
  RunResult r = runEqc("sweep ramp.mo -p u=0.5,3 --final-only -o r.h5", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  H5File f(dir + "/r.h5");
  std::vector<double> y = f.doubles("final/y");
  ASSERT_EQ(y.size(), 2u);
  EXPECT_NEAR(y[0], 3 * 0.5 * 2, 1e-9); // y = (1 + 2) u t
  EXPECT_NEAR(y[1], 3 * 3.0 * 2, 1e-9);
  r = runEqc("sweep ramp.mo -p y=1,2 -o e.h5", dir);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.stderrText.find("'y' of model 'Ramp' is neither a parameter nor a state"), std::string::npos)
      << r.stderrText;
  r = runEqc("sweep ramp.mo -p n=3,4 -o e.h5", dir);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.stderrText.find("parameter 'n' cannot vary in a sweep: it fixes array sizes"), std::string::npos)
      << r.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/e.h5"));
}

} // namespace
} // namespace eqc::test
