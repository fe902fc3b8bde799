// MSL 4.0.0's Blocks, checked against what their documentation and the physics say (skipped
// where the library is absent): the Continuous.Filter example's four analog filters and MSL's
// error() in functions.
#include "Msl.h"
#include "Run.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace eqc::test;

namespace {

/// Matrix `name` of a MATLAB v4 file (little-endian doubles, full; column-major), as rows; empty
/// (with a failure) when the file has none.
std::vector<std::vector<double>> readMat4(const std::string &path, const std::string &name) {
  std::ifstream in(path, std::ios::binary);
  int32_t header[5];
  while (in.read(reinterpret_cast<char *>(header), sizeof header)) {
    std::string matrix(static_cast<size_t>(header[4]), '\0');
    in.read(matrix.data(), header[4]);
    matrix.resize(std::strlen(matrix.c_str()));
    std::vector<double> data(static_cast<size_t>(header[1]) * static_cast<size_t>(header[2]));
    in.read(reinterpret_cast<char *>(data.data()),
            static_cast<std::streamsize>(data.size() * sizeof(double)));
    if (matrix != name || header[0] != 0 || header[3] != 0)
      continue;
    std::vector<std::vector<double>> rows(static_cast<size_t>(header[1]),
                                          std::vector<double>(static_cast<size_t>(header[2])));
    for (size_t j = 0; j < rows[0].size(); ++j)
      for (size_t i = 0; i < rows.size(); ++i)
        rows[i][j] = data[j * rows.size() + i];
    return rows;
  }
  ADD_FAILURE() << path << " has no real matrix " << name;
  return {};
}

} // namespace

// Blocks.Examples.Filter: critical damping, Bessel, Butterworth and Chebyshev I low passes of
// order 3 (coefficients computed by MSL's own functions), initialized in steady state on a step
// from 0.1 to 1.1 at t = 0.1: every output starts at 0.1 and settles at the DC gain 1 times 1.1.
TEST(MslBlocks, FilterExampleStartsInSteadyStateAndSettlesAtItsDcGain) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_filter");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.Filter --lib '" + msl + "' -o out.csv --t-end 6", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t last = csv.rows.size() - 1;
  for (const char *filter : {"CriticalDamping", "Bessel", "Butterworth", "ChebyshevI"}) {
    const std::string y = std::string(filter) + ".y";
    EXPECT_NEAR(csv.at(0, y), 0.1, 1e-9) << filter;
    EXPECT_NEAR(csv.at(last, y), 1.1, 1e-4) << filter;
  }
}

// Modelica.Utilities.Streams.error(message) in a function is a failing assertion: the run stops
// with the message as the function computes it (String(x) of the first x past 1: "1", six
// significant digits) and the time.
TEST(MslBlocks, StreamsErrorInAFunctionStopsTheRun) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_streams_error");
  writeFile(dir + "/m.mo", R"(model Guarded
  function checked
    input Real x;
    output Real y;
  algorithm
    if x > 1 then
      Modelica.Utilities.Streams.error("x = " + String(x) + " is above 1");
    end if;
    y := x;
  end checked;
  Real y = checked(time);
end Guarded;
)");
  RunResult r = runEqc("simulate m.mo --lib '" + msl + "' -o out.csv --t-end 2", dir);
  EXPECT_EQ(r.exitCode, 5) << r.stderrText;
  EXPECT_NE(r.stderrText.find("assertion failed in function 'Guarded.checked': x = 1 is above 1"), std::string::npos)
      << r.stderrText;
  EXPECT_NE(r.stderrText.find("at time 1"), std::string::npos) << r.stderrText;
}

// Blocks.Examples.InverseModel: the inverse of a first-order plant (T = 0.3) driven through a
// critical-damping filter (n = 1, f = 100 Hz) by a sine of 2 Hz around 1 that starts at 0.2 s,
// both first orders initialized in steady state (der(y) = 0, with the sine still at its offset 1:
// every output starts at 1). The plant's copy then reproduces the filtered sine, so the feedback
// error is the filter's: |1 - 1/(1 + j w/wc)| = 0.02/sqrt(1.0004) = 0.019996 at most.
TEST(MslBlocks, InverseModelStartsInSteadyStateAndTracks) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_inverse_model");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.InverseModel --lib '" + msl + "' -o out.csv --rtol 1e-8 --atol 1e-8", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (const char *y : {"firstOrder1.y", "firstOrder2.y", "criticalDamping.y"})
    EXPECT_NEAR(csv.at(0, y), 1.0, 1e-9) << y;
  double worst = 0;
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    worst = std::max(worst, std::fabs(csv.at(i, "feedback.y")));
    EXPECT_NEAR(csv.at(i, "firstOrder1.y"), csv.at(i, "criticalDamping.y"), 1e-9);
  }
  EXPECT_NEAR(worst, 0.02 / std::sqrt(1.0004), 2e-4);
}

// MSL's tables (Blocks.Sources.CombiTimeTable, Blocks.Tables.CombiTable1Ds and CombiTable2Ds)
// are external objects of MSL's C library ModelicaStandardTables (MLS 3.5, 12.9.7), built from
// the library's Resources/C-Sources with ModelicaIO, ModelicaMatIO and zlib (12.9.4). Values
// against the interpolations their documentation defines: linear segments of the time table
// (y(2.5) = 6.5 on t -> t^2 sampled at 0..3, time events at the sample points), constant segments
// (y(1.5) = 1), Akima's spline through its points (y(1) = 2), bilinear interpolation (exact for
// u1 + 2 u2), and a table read from a text file (ModelicaIO: "double tab1(4, 2)"), linear between
// its rows (y(1.5) = 2.5). ModelicaExternalC's Strings.length gives a parameter.
TEST(MslBlocks, TablesAreExternalObjectsOfTheLibrarysCCode) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_tables");
  writeFile(dir + "/tab.txt", "#1\ndouble tab1(4,2)  # x, x^2\n0 0\n1 1\n2 4\n3 9\n");
  writeFile(dir + "/m.mo", R"(model Tables
  import Modelica.Blocks.Types.Smoothness;
  Modelica.Blocks.Sources.CombiTimeTable linear(table = [0, 0; 1, 1; 2, 4; 3, 9], smoothness = Smoothness.LinearSegments);
  Modelica.Blocks.Sources.CombiTimeTable steps(table = [0, 0; 1, 1; 2, 4; 3, 9], smoothness = Smoothness.ConstantSegments);
  Modelica.Blocks.Tables.CombiTable1Ds akima(table = [0, 0; 1, 2; 2, 3; 3, 7], smoothness = Smoothness.ContinuousDerivative);
  Modelica.Blocks.Tables.CombiTable2Ds plane(table = [0, 0, 1, 2; 0, 0, 2, 4; 1, 1, 3, 5; 3, 3, 5, 7]);
  Modelica.Blocks.Tables.CombiTable1Ds file(tableOnFile = true, tableName = "tab1", fileName = "tab.txt");
  parameter Integer n = Modelica.Utilities.Strings.length("hello");
  Real y2 = plane.y;
equation
  akima.u = time;
  plane.u1 = 0.5 * time;
  plane.u2 = 0.25 * time;
  file.u = time;
end Tables;
)");
  RunResult r = runEqc("simulate m.mo --lib '" + msl + "' -o out.csv --t-end 3 --interval 0.5 --vars linear.y[1],steps.y[1],akima.y[1],y2,file.y[1],n", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  auto at = [&](double t, const std::string &name) -> double {
    for (size_t i = csv.rows.size(); i-- > 0;) // the last row at t (after its event)
      if (std::fabs(csv.at(i, "time") - t) < 1e-12)
        return csv.at(i, name);
    ADD_FAILURE() << "no row at " << t;
    return NAN;
  };
  EXPECT_NEAR(at(2.5, "linear.y[1]"), 6.5, 1e-12);
  EXPECT_NEAR(at(0.5, "linear.y[1]"), 0.5, 1e-12);
  EXPECT_NEAR(at(1.5, "steps.y[1]"), 1.0, 1e-12);
  EXPECT_NEAR(at(2.5, "steps.y[1]"), 4.0, 1e-12);
  EXPECT_NEAR(at(1.0, "akima.y[1]"), 2.0, 1e-12);
  EXPECT_NEAR(at(2.0, "akima.y[1]"), 3.0, 1e-12);
  for (double t : {0.5, 1.5, 2.5}) // bilinear reproduces f = u1 + 2 u2 exactly
    EXPECT_NEAR(at(t, "y2"), 0.5 * t + 2 * 0.25 * t, 1e-12) << t;
  EXPECT_NEAR(at(1.5, "file.y[1]"), 2.5, 1e-12);
  EXPECT_NEAR(at(3.0, "file.y[1]"), 9.0, 1e-12);
  EXPECT_EQ(at(0.0, "n"), 5);
}

// Blocks.Examples.LogicalNetwork1: BooleanTables (each an external table object behind a
// CombiTimeTable, their time instants checked by a function called as a statement) toggle at
// {2, 4, 6, 8} (table1) and {1, 3, 5, 7} (table2); Or1.y = table1 or (not table2 and pre(Or1.y))
// is a latch set by table1 and reset by table2: false until 2, true until table2 resets it at 5,
// true again from 6.
TEST(MslBlocks, LogicalNetworkLatchesOnItsBooleanTables) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_logical_network");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.LogicalNetwork1 --lib '" + msl +
                           "' -o out.csv --interval 0.5 --vars Or1.y,table1.y,table2.y",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.at(i, "time");
    if (t == std::floor(t))
      continue; // both limits of the events are rows
    const bool table1 = (t > 2 && t < 4) || (t > 6 && t < 8), table2 = (t > 1 && t < 3) || (t > 5 && t < 7);
    const bool latch = (t > 2 && t < 5) || t > 6;
    EXPECT_EQ(csv.at(i, "table1.y"), table1) << t;
    EXPECT_EQ(csv.at(i, "table2.y"), table2) << t;
    EXPECT_EQ(csv.at(i, "Or1.y"), latch) << t;
  }
}

// Blocks.Examples.Interaction1: two RadioButtonSources whose reset inputs read each other's
// output (start(reset = {stop.on}), stop(reset = {start.on})), each setting `on` in one
// when-statement and clearing it in another of the same algorithm; an IntegerTable (a
// CombiTimeTable whose first value the initial when-clause prepares) and a BooleanTable. The
// buttons are pressed at {1, 3} (start) and {2, 4} (stop): pressing one releases the other.
TEST(MslBlocks, RadioButtonsReleaseEachOtherAndTablesHoldTheirValues) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_interaction");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.Interaction1 --lib '" + msl +
                           "' -o out.csv --interval 0.5 --vars start.on,stop.on,integerTable.y,booleanTable.y",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const double integers[] = {0, 2, 4, 6, 4, 4, 2, 2, 2, 2}; // table [0, 0; 1, 2; 2, 4; 3, 6; 4, 4; 6, 2]
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.at(i, "time");
    if (t == std::floor(t))
      continue; // both limits of the events are rows
    const int second = static_cast<int>(t);
    EXPECT_EQ(csv.at(i, "start.on"), second == 1 || second == 3) << t;
    EXPECT_EQ(csv.at(i, "stop.on"), second == 2 || second >= 4) << t;
    EXPECT_EQ(csv.at(i, "integerTable.y"), integers[second]) << t;
    EXPECT_EQ(csv.at(i, "booleanTable.y"), second % 2 == 1) << t; // toggles at 1, 2, ..., 9
  }
}

// Blocks.Examples.Noise.UniformNoiseProperties and NormalNoiseProperties (20 s, 20,000 samples of
// MSL's xorshift generators, seeded from getInstanceName() and the global seed through the
// library's C code): the running mean and standard deviation the examples compute agree with the
// distributions' (uniform on [0, 6]: mean 3, sigma sqrt(3); normal: mean 3, sigma 1) within four
// standard errors of N = 20,000 samples; the uniform samples stay in their band.
TEST(MslBlocks, NoiseGeneratorsHaveTheirDistributionsMeanAndDeviation) {
  EQC_REQUIRE_MSL();
  struct Case {
    const char *example;
    double sigma, sigmaOfSigma; ///< the distribution's, and the standard error of a sample's sigma (per sqrt N)
  };
  const double n = 20000;
  for (const Case &c : {Case{"UniformNoiseProperties", std::sqrt(3.0), std::sqrt(3.0) * std::sqrt(0.8 / 4)},
                        Case{"NormalNoiseProperties", 1.0, std::sqrt(0.5)}}) {
    std::string dir = scratchDir(std::string("msl_noise_") + c.example);
    RunResult r = runEqc(std::string("simulate Modelica.Blocks.Examples.Noise.") + c.example + " --lib '" + msl +
                             "' -o out.csv --vars meanError_y,sigmaError_y,noise.y",
                         dir);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText;
    Csv csv = readCsv(dir + "/out.csv");
    ASSERT_NEAR(csv.at(csv.rows.size() - 1, "time"), 20, 1e-9);
    const size_t last = csv.rows.size() - 1;
    EXPECT_LT(std::abs(csv.at(last, "meanError_y")), 4 * c.sigma / std::sqrt(n)) << c.example;
    EXPECT_LT(std::abs(csv.at(last, "sigmaError_y")), 4 * c.sigmaOfSigma / std::sqrt(n)) << c.example;
    double lo = 1e300, hi = -1e300;
    for (size_t row = 0; row < csv.rows.size(); ++row) {
      lo = std::min(lo, csv.at(row, "noise.y"));
      hi = std::max(hi, csv.at(row, "noise.y"));
    }
    if (std::string(c.example) == "UniformNoiseProperties") {
      EXPECT_GE(lo, 0) << "below the band";
      EXPECT_LE(hi, 6) << "above the band";
    }
    EXPECT_GT(hi - lo, 2 * c.sigma) << c.example << ": the samples hardly vary";
  }
}

// Blocks.Examples.Noise.ImpureGenerator: `when {initial(), sample(0.01, 0.01)} then y =
// impureRandom(id)` draws one number of the impure generator (MLS 3.5, 12.3) at the start and at
// each of the 200 samples to t = 2, whatever the passes of the event iteration (the run failed
// with "does not settle" when every pass drew again). Uniform on (0, 1): the mean of the 201
// draws is 1/2 within 4 standard errors (sqrt(1/12)/sqrt(201) = 0.0204), and y holds between
// samples. The seed is fixed (useAutomaticSeed = false): a second run draws the same numbers.
TEST(MslBlocks, ImpureRandomNumbersAreDrawnOncePerSample) {
  EQC_REQUIRE_MSL();
  std::vector<std::vector<double>> runs;
  for (int run = 0; run < 2; ++run) {
    const Csv csv = simulateExample(msl, "Modelica.Blocks.Examples.Noise.ImpureGenerator",
                                    "--vars impureRandom.y --interval 0.0025", 2);
    ASSERT_FALSE(csv.rows.empty());
    std::vector<double> draws{csv.at(0, "impureRandom.y")};
    for (size_t row = 1; row < csv.rows.size(); ++row) {
      const double y = csv.at(row, "impureRandom.y"), t = csv.at(row, "time");
      if (y != draws.back()) {
        draws.push_back(y);
        // A new draw first shows on the first row after a sample instant k*0.01.
        const double sinceSample = t - 0.01 * std::floor(t / 0.01 + 1e-9);
        EXPECT_LT(sinceSample, 0.0025 + 1e-9) << "a change between samples at t = " << t;
      }
    }
    runs.push_back(draws);
  }
  const std::vector<double> &draws = runs[0];
  ASSERT_EQ(draws.size(), 201u);
  double mean = 0;
  for (double y : draws) {
    EXPECT_GT(y, 0);
    EXPECT_LT(y, 1);
    mean += y / static_cast<double>(draws.size());
  }
  EXPECT_NEAR(mean, 0.5, 4 * std::sqrt(1.0 / 12) / std::sqrt(201.0));
  EXPECT_EQ(runs[0], runs[1]);
}

// Modelica.Utilities.Files.loadResource (ModelicaServices', which each tool provides; MLS 3.5,
// 13.5 for the URI): `modelica://Modelica/Resources/...` is the file in the library's folder,
// resolved when the model is compiled; the library's own test table (tab1 of
// Resources/Data/Tables/test.txt: 0 0, 1 0, 1 1, 2 4, 3 9, 4 16) read through it.
TEST(MslBlocks, LoadResourceFindsTheLibrarysFiles) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_load_resource");
  writeFile(dir + "/m.mo", R"(model Resource
  parameter String file = Modelica.Utilities.Files.loadResource("modelica://Modelica/Resources/Data/Tables/test.txt");
  Modelica.Blocks.Sources.CombiTimeTable table(tableOnFile = true, tableName = "tab1", fileName = file);
end Resource;
)");
  RunResult r = runEqc("simulate m.mo --lib '" + msl + "' -o out.csv --t-end 4 --interval 0.5 --vars table.y[1]", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.at(i, "time");
    if (t >= 1.5) // past the jump at 1: 1 1, 2 4, 3 9, 4 16
      EXPECT_NEAR(csv.at(i, "table.y[1]"), t < 2 ? 1 + 3 * (t - 1) : t < 3 ? 4 + 5 * (t - 2) : 9 + 7 * (t - 3), 1e-12) << t;
  }
  writeFile(dir + "/bad.mo", R"(model Bad
  parameter String file = Modelica.Utilities.Files.loadResource("modelica://NoSuchLibrary/data.txt");
end Bad;
)");
  RunResult bad = runEqc("simulate bad.mo --lib '" + msl + "' -o bad.csv", dir);
  EXPECT_NE(bad.exitCode, 0);
  EXPECT_NE(bad.stderrText.find("bad.mo:2:65: error: 'modelica://NoSuchLibrary/data.txt' names class 'NoSuchLibrary'"),
            std::string::npos)
      << bad.stderrText;
}

// Blocks.Examples.BusUsage: expandable connectors (MLS 3.5, 9.1.3). The signals put on
// controlBus (a sine of 1 Hz, an Integer step 2 -> 3 at 0.5 s, a Boolean step at 0.5 s) and
// on part's sub-bus (time, time >= 0.5) come off the bus where they are connected; the bus's
// declared realSignal2 is connected nowhere and is not a variable of the model.
TEST(MslBlocks, BusUsageCarriesSignalsThroughExpandableConnectors) {
  EQC_REQUIRE_MSL();
  std::string dir = scratchDir("msl_bus_usage");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.BusUsage --lib '" + msl + "' -o out.csv --interval 0.01", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_EQ(std::find(csv.names.begin(), csv.names.end(), "controlBus.realSignal2"), csv.names.end());
  ASSERT_GT(csv.rows.size(), 100u);
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const double t = csv.at(i, "time");
    EXPECT_NEAR(csv.at(i, "gain.u"), std::sin(2 * M_PI * t), 1e-9) << t;
    EXPECT_NEAR(csv.at(i, "controlBus.realSignal1"), std::sin(2 * M_PI * t), 1e-9) << t;
    EXPECT_NEAR(csv.at(i, "controlBus.subControlBus.myRealSignal"), t, 1e-12) << t;
    if (std::abs(t - 0.5) > 1e-9) {
      EXPECT_EQ(csv.at(i, "controlBus.integerSignal"), t < 0.5 ? 2 : 3) << t;
      EXPECT_EQ(csv.at(i, "controlBus.booleanSignal"), t < 0.5 ? 0 : 1) << t;
      EXPECT_EQ(csv.at(i, "controlBus.subControlBus.myBooleanSignal"), t < 0.5 ? 0 : 1) << t;
    }
  }
}

// Blocks.Examples.Rectifier6pulseFFT and Rectifier12pulseFFT: RealFFT samples the line current
// into a buffer (`buf[iTick] := u`, a subscript that changes at events), computes its FFT at the
// terminal event (terminal() under the dummy derivatives' run) and writes it with
// realFFTwriteToFile: rows (f, 0, 0), (f, amplitude, phase), (f, 0, 0) of a MAT v4 file, and a
// message built from Strings computed when the function runs. A six-pulse bridge draws a current
// with the harmonics 6k +- 1 of 50 Hz (5, 7, 11, 13) and none of even or triplen order; a
// twelve-pulse bridge (two bridges fed 30 degrees apart) cancels the 5th and 7th as well.
TEST(MslBlocks, RectifierFftsShowTheHarmonicsOfSixAndTwelvePulses) {
  EQC_REQUIRE_MSL();
  struct Case {
    const char *example, *file;
    std::vector<int> present, absent;
  } cases[] = {{"Rectifier6pulseFFT", "rectifier6pulseFFTresult.mat", {5, 7, 11, 13}, {2, 3, 4, 6, 9}},
               {"Rectifier12pulseFFT", "rectifier12pulseFFTresult.mat", {11, 13, 23, 25}, {2, 3, 4, 5, 7}}};
  for (const Case &c : cases) {
    const Csv csv = simulateExample(msl, std::string("Modelica.Blocks.Examples.") + c.example,
                                    "--vars realFFT.info", 0.25);
    ASSERT_FALSE(csv.rows.empty()) << c.example;
    EXPECT_EQ(csv.at(csv.rows.size() - 1, "realFFT.info"), 0) << c.example;
    const auto fft = readMat4(
        (std::filesystem::path(EQC_SCRATCH_DIR) / (std::string("msl_") + c.example) / c.file).string(),
        "FFT");
    ASSERT_EQ(fft.size(), 3u * 401u) << c.example << ": f_max = 2000 Hz in steps of 5 Hz";
    auto amplitude = [&](int harmonic) {
      const auto &row = fft[3 * static_cast<size_t>(10 * harmonic) + 1];
      EXPECT_EQ(row[0], 50.0 * harmonic);
      return row[1];
    };
    const double fundamental = amplitude(1);
    EXPECT_GT(fundamental, 100) << c.example;
    for (int h : c.present)
      EXPECT_GT(amplitude(h), 0.005 * fundamental) << c.example << ": harmonic " << h;
    for (int h : c.absent)
      EXPECT_LT(amplitude(h), 1e-3 * fundamental) << c.example << ": harmonic " << h;
  }
}

// Blocks.Examples.Noise.ActuatorWithNoise: a position-controlled synchronous motor (commanded to
// 50 rad at 0.5 s through a slew-rate limit of 50 rad/s, its angle measured with additive noise)
// drives a lossy gearbox (ratio 10) and a rack (ratio 300) that pushes a mass against a constant
// force. Early on the gearbox's driving-side relation `tau_eta >= 0` chatters: every located
// event flipped it back, and the run used to stop after 51 events that changed nothing. Such a
// relation is now relaxed (its changes taken at step ends, with a warning), and the run ends at
// 8 s with the motor at its commanded angle (the controller's integral action), the gearbox
// output at a tenth of it and the rack at 1/300 of that.
TEST(MslBlocks, ActuatorWithNoiseSlidesThroughItsGearboxChatterAndReachesItsPosition) {
  EQC_REQUIRE_MSL();
  const std::string dir = scratchDir("msl_ActuatorWithNoise");
  RunResult r = runEqc("simulate Modelica.Blocks.Examples.Noise.ActuatorWithNoise --lib '" + msl +
                           "' -o out.csv --vars motor.smpm.phiMechanical,gearbox.flange_b.phi,mass.s",
                       dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("warning: at time 0.000305"), std::string::npos) << r.stderrText;
  EXPECT_NE(r.stderrText.find("'0 <= gearbox.lossyGear.tau_eta' changes back and forth without effect"),
            std::string::npos)
      << r.stderrText;
  const Csv csv = readCsv(dir + "/out.csv");
  ASSERT_FALSE(csv.rows.empty());
  const size_t last = csv.rows.size() - 1;
  EXPECT_DOUBLE_EQ(csv.at(last, "time"), 8);
  const double phi = csv.at(last, "motor.smpm.phiMechanical");
  EXPECT_NEAR(phi, 50, 0.01);
  EXPECT_NEAR(csv.at(last, "gearbox.flange_b.phi"), phi / 10, 2e-3);
  EXPECT_NEAR(csv.at(last, "mass.s"), csv.at(last, "gearbox.flange_b.phi") / 300, 2e-4);
}
