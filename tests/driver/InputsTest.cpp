// Top-level inputs and outputs (Modelica 3.5, 4.4.2.2; issue 16): `eqc simulate --input FILE.csv`
// (linear interpolation, jumps, errors with file:line:col), eqc_sim_set_input and input
// functions on a model table, and the FMU's inputs and outputs under both interfaces, each
// against the filter's analytic solution T x' = u - x, x(0) = 0.
#include "driver/Compile.h"
#include "driver/ModelTable.h"
#include "Fmi2Importer.h"
#include "Shell.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace eqc;
using namespace fmi2test;

namespace {

const double T = 0.5; // the filter's time constant (tests/driver/filter_input.eq)

std::string filterPath() { return std::string(EQC_SOURCE_DIR) + "/tests/driver/filter_input.eq"; }

std::filesystem::path scratch(const std::string &name) {
  std::filesystem::path dir = std::filesystem::path(EQC_SCRATCH_DIR) / ("inputs_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// The CSV's rows by column name.
std::map<std::string, std::vector<double>> readCsv(const std::filesystem::path &path) {
  std::map<std::string, std::vector<double>> columns;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  std::stringstream header(line);
  for (std::string name; std::getline(header, name, ',');)
    names.push_back(name);
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string cell;
    for (size_t k = 0; std::getline(row, cell, ','); ++k)
      columns[names[k]].push_back(std::stod(cell));
  }
  return columns;
}

/// x(t) of T x' = u - x from x(t0) = x0 with u constant.
double held(double x0, double u, double dt) { return u + (x0 - u) * std::exp(-dt / T); }

} // namespace

// u: a ramp from 0 to 1 over [0, 1], then a jump to 3 (a time given twice), held after 2.
// x on the ramp: t - T + T exp(-t/T); after the jump x relaxes to 3.
TEST(Inputs, SimulateInterpolatesTheInputFile) {
  const std::filesystem::path dir = scratch("simulate");
  std::ofstream(dir / "u.csv") << "time,u\n0,0\n1,1\n1,3\n2,3\n";
  int status = 0;
  std::string out = run("'" EQC_BINARY "' simulate '" + filterPath() + "' --input '" + (dir / "u.csv").string() +
                            "' --t-end 3 --interval 0.25 -o '" + (dir / "out.csv").string() + "'",
                        status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(out, ""); // every input is given: no note
  auto csv = readCsv(dir / "out.csv");
  ASSERT_EQ(csv["time"].size(), 13u);
  const double x1 = 1 - T + T * std::exp(-1 / T);
  for (size_t k = 0; k < csv["time"].size(); ++k) {
    const double t = csv["time"][k];
    const double x = t <= 1 ? t - T + T * std::exp(-t / T) : held(x1, 3, t - 1);
    EXPECT_NEAR(csv["x"][k], x, 1e-8) << "t = " << t;
    EXPECT_NEAR(csv["y"][k], 2 * x, 2e-8) << "t = " << t;
    EXPECT_NEAR(csv["u"][k], t < 1 ? t : 3, 1e-15) << "t = " << t; // at t = 1 the later row holds
  }
  // Without --input the input holds its start value, and the run says so.
  out = run("'" EQC_BINARY "' simulate '" + filterPath() + "' -o '" + (dir / "held.csv").string() + "'", status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_NE(out.find("input 'u' holds the start value"), std::string::npos) << out;
  csv = readCsv(dir / "held.csv");
  EXPECT_NEAR(csv["x"].back(), held(0, 2, 2), 1e-8);
}

TEST(Inputs, BadInputFilesAndUsesAreReportedWithTheirPlace) {
  const std::filesystem::path dir = scratch("errors");
  struct Case {
    std::string csv, message;
  } cases[] = {
      {"time,v\n0,1\n", "u.csv:1:6: error: 'v' is not a variable of model 'Filter'"},
      {"time,x\n0,1\n", "u.csv:1:6: error: 'x' is not an input of model 'Filter'"},
      {"t,u\n0,1\n", "u.csv:1:1: error: the first column must be 'time', not 't'"},
      {"time,u\n0,1\n1,abc\n", "u.csv:3:3: error: expected a finite number for 'u'"},
      {"time,u\n0,1\n1\n", "u.csv:3:2: error: expected 2 columns, found 1"},
      {"time,u\n1,1\n0,2\n", "u.csv:3:1: error: the times must not decrease (0 after 1)"},
      {"time,u\n", "u.csv:1:1: error: no rows of values after the header"},
      {"time,u,u\n0,1,1\n", "u.csv:1:8: error: input 'u' is named twice"},
  };
  for (const Case &c : cases) {
    std::ofstream(dir / "u.csv") << c.csv;
    int status = 0;
    std::string out = run("cd '" + dir.string() + "' && '" EQC_BINARY "' simulate '" + filterPath() +
                              "' --input u.csv -o out.csv",
                          status);
    EXPECT_NE(status, 0) << c.csv;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.csv << "\n" << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "out.csv")) << c.csv;
  }
  int status = 0;
  std::string out = run("'" EQC_BINARY "' simulate '" + filterPath() + "' -p u=3 -o '" + (dir / "o.csv").string() + "'",
                        status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("-p u=3: 'u' is an input of model 'Filter': give its values with --input FILE.csv"),
            std::string::npos)
      << out;
  // Inputs cannot be differentiated: der(u) in the source, and an index reduction that needs it.
  std::ofstream(dir / "der.eq") << "model D\n  input Real u;\n  Real x;\nequation\n  der(x) = der(u);\nend D;\n";
  out = run("'" EQC_BINARY "' simulate '" + (dir / "der.eq").string() + "' -o '" + (dir / "o.csv").string() + "'",
            status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("der.eq:5:16: error: der() of the input 'u'"), std::string::npos) << out;
  std::ofstream(dir / "index2.eq") << "model I\n  input Real u;\n  Real x, y;\nequation\n  der(x) = y;\n  x = u;\nend I;\n";
  out = run("'" EQC_BINARY "' simulate '" + (dir / "index2.eq").string() + "' -o '" + (dir / "o.csv").string() + "'",
            status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("index2.eq:2:14: error: the index reduction differentiates equations that contain the input 'u'"),
            std::string::npos)
      << out;
  std::ofstream(dir / "boolean.eq") << "model B\n  input Boolean on;\n  Real x;\nequation\n  der(x) = if on then 1 else 0;\nend B;\n";
  out = run("'" EQC_BINARY "' simulate '" + (dir / "boolean.eq").string() + "' -o '" + (dir / "o.csv").string() + "'",
            status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("boolean.eq:2:17: error: input 'on': eqc takes continuous Real inputs only (this one is Boolean)"),
            std::string::npos)
      << out;
}

namespace {
int sineInput(void *, double t, double *u) {
  u[0] = std::sin(t);
  return 0;
}
int failingInput(void *, double t, double *u) {
  u[0] = 0;
  return t > 0.5 ? 7 : 0;
}
} // namespace

// eqc_sim: a held input (eqc_sim_set_input), then an input function u = sin t, whose solution
// from x(0) = 0 is (sin t - T cos t + T exp(-t/T)) / (1 + T^2).
TEST(Inputs, EqcSimTakesHeldInputsAndInputFunctions) {
  Compilation c;
  std::ostringstream err;
  ASSERT_EQ(runPipeline(filterPath(), PipelineOptions{}, c, err), ExitOk) << err.str();
  std::unique_ptr<ModelTable> table = ModelTable::build(c, 0.0, err);
  ASSERT_TRUE(table) << err.str();
  const eqc_model &m = table->model();
  eqc_sim *sim = eqc_sim_new(&m);
  ASSERT_TRUE(sim);
  const int u = eqc_sim_param_index(sim, "u"), T_ = eqc_sim_param_index(sim, "T");
  ASSERT_GE(u, 0);
  EXPECT_EQ(m.param_kind[u], EQC_PARAM_INPUT);
  EXPECT_EQ(m.param_defaults[u], 2.0);
  EXPECT_EQ(eqc_sim_set_param(sim, u, 1.0), EQC_ERR_ARGUMENT);
  EXPECT_NE(std::string(eqc_sim_last_error(sim)).find("is an input of the model: set it with eqc_sim_set_input"),
            std::string::npos);
  EXPECT_EQ(eqc_sim_set_input(sim, T_, 1.0), EQC_ERR_ARGUMENT); // T is a parameter
  ASSERT_EQ(eqc_sim_run(sim, 0.5, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(sim);
  EXPECT_NEAR(eqc_sim_states(sim)[0], held(0, 2, 0.5), 1e-9);
  ASSERT_EQ(eqc_sim_set_input(sim, u, -1.0), EQC_OK);
  ASSERT_EQ(eqc_sim_run(sim, 1.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(sim);
  EXPECT_NEAR(eqc_sim_states(sim)[0], held(held(0, 2, 0.5), -1, 0.5), 1e-9);
  eqc_sim_free(sim);

  sim = eqc_sim_new(&m);
  ASSERT_EQ(eqc_sim_set_input_function(sim, sineInput, nullptr), EQC_OK);
  ASSERT_EQ(eqc_sim_run(sim, 2.0, nullptr, nullptr), EQC_OK) << eqc_sim_last_error(sim);
  const double t = 2.0;
  EXPECT_NEAR(eqc_sim_states(sim)[0], (std::sin(t) - T * std::cos(t) + T * std::exp(-t / T)) / (1 + T * T), 1e-9);
  // A failing input function stops the run, and the message says so.
  ASSERT_EQ(eqc_sim_set_input_function(sim, failingInput, nullptr), EQC_OK);
  eqc_sim_free(sim);
  sim = eqc_sim_new(&m);
  eqc_sim_set_input_function(sim, failingInput, nullptr);
  EXPECT_EQ(eqc_sim_run(sim, 1.0, nullptr, nullptr), EQC_ERR_RHS);
  EXPECT_NE(std::string(eqc_sim_last_error(sim)).find("the input function returned 7"), std::string::npos)
      << eqc_sim_last_error(sim);
  eqc_sim_free(sim);
}

// The FMU: u is an input (settable in every mode that allows it), y the only output (e and x are
// locals), d der(x) / du = 1/T; Co-Simulation with u changed between steps follows the held-input
// solution; Model Exchange gives the derivative of the input set.
TEST(Inputs, FmuInputsAndOutputs) {
  const std::filesystem::path dir = scratch("fmu");
  setenv("EQC_RUNTIME_LIBRARY", EQC_RUNTIME_LIBRARY, 1);
  Compilation c;
  std::ostringstream err;
  ASSERT_EQ(runPipeline(filterPath(), PipelineOptions{}, c, err), ExitOk) << err.str();
  CompileOptions options;
  options.fmu = true;
  options.output = (dir / "Filter.fmu").string();
  ASSERT_EQ(compileModel(c, options, err), ExitOk) << err.str();
  const std::string xml = unzipEntry(options.output, "modelDescription.xml");
  auto causality = [&](const std::string &name) {
    std::smatch m;
    std::regex_search(xml, m, std::regex("name=\"" + std::string(name) + "\"[^>]*causality=\"([a-zA-Z]*)\""));
    return m.empty() ? std::string() : std::string(m[1]);
  };
  EXPECT_EQ(causality("u"), "input");
  EXPECT_EQ(causality("y"), "output");
  EXPECT_EQ(causality("e"), "local");
  EXPECT_EQ(causality("T"), "parameter");
  EXPECT_NE(xml.find("name=\"u\" valueReference=\"5\" description=\"drive\" causality=\"input\" variability=\"continuous\"><Real start=\"2\"/>"),
            std::string::npos)
      << xml;
  // Dependencies (FMI 2.0, 2.2.8) by ScalarVariable index (x 1, der(x) 2, y 3, u 6): y = 2x has
  // no direct feedthrough from u; der(x) = (u - x)/T depends on both.
  EXPECT_NE(xml.find("<Outputs>\n      <Unknown index=\"3\" dependencies=\"1\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<Derivatives>\n      <Unknown index=\"2\" dependencies=\"1 6\"/>"), std::string::npos) << xml;
  const Description d = describe(xml);
  std::ofstream(dir / "fmu.so", std::ios::binary) << unzipEntry(options.output, "binaries/linux64/Filter.so");
  void *lib = dlopen((dir / "fmu.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(lib) << dlerror();
  {
    const Fmi2 f(lib);
    static Callbacks callbacks{logger, nullptr, nullptr, nullptr, nullptr};
    const fmi2ValueReference u = d.variables.at("u").second, x = d.variables.at("x").second,
                             y = d.variables.at("y").second, dx = d.variables.at("der(x)").second;
    // Co-Simulation: u = 1 over the first step, 3 over the second.
    fmi2Component cs = f.Instantiate("cs", 1, d.guid.c_str(), "", &callbacks, 0, 0);
    ASSERT_TRUE(cs) << fmuLog;
    double value = 1.0;
    ASSERT_EQ(f.SetReal(cs, &u, 1, &value), 0) << fmuLog;
    ASSERT_EQ(f.SetupExperiment(cs, 0, 0, 0.0, 0, 0.0) | f.EnterInitializationMode(cs) | f.ExitInitializationMode(cs), 0)
        << fmuLog;
    ASSERT_EQ(f.DoStep(cs, 0.0, 0.4, 1), 0) << fmuLog;
    value = 3.0;
    ASSERT_EQ(f.SetReal(cs, &u, 1, &value), 0) << fmuLog;
    ASSERT_EQ(f.DoStep(cs, 0.4, 0.4, 1), 0) << fmuLog;
    double xv = 0, yv = 0;
    ASSERT_EQ(f.GetReal(cs, &x, 1, &xv) | f.GetReal(cs, &y, 1, &yv), 0);
    EXPECT_NEAR(xv, held(held(0, 1, 0.4), 3, 0.4), 1e-8);
    EXPECT_NEAR(yv, 2 * xv, 1e-12);
    f.FreeInstance(cs);
    // Model Exchange: the derivative follows the input set, in Continuous-Time Mode too.
    fmi2Component me = f.Instantiate("me", 0, d.guid.c_str(), "", &callbacks, 0, 0);
    ASSERT_TRUE(me) << fmuLog;
    ASSERT_EQ(f.SetupExperiment(me, 0, 0, 0.0, 0, 0.0) | f.EnterInitializationMode(me) | f.ExitInitializationMode(me), 0)
        << fmuLog;
    EventInfo info{};
    ASSERT_EQ(f.NewDiscreteStates(me, &info) | f.EnterContinuousTimeMode(me), 0) << fmuLog;
    double states[1] = {0.25}, derivative = 0;
    value = 1.5;
    ASSERT_EQ(f.SetContinuousStates(me, states, 1) | f.SetReal(me, &u, 1, &value), 0) << fmuLog;
    ASSERT_EQ(f.GetDerivatives(me, &derivative, 1), 0);
    EXPECT_NEAR(derivative, (1.5 - 0.25) / T, 1e-14);
    // d der(x)/du = 1/T, dy/du = 0 (no direct feedthrough), d der(x)/dx = -1/T.
    const double seed = 1.0;
    double out[2] = {0, 0};
    const fmi2ValueReference unknowns[2] = {dx, y};
    ASSERT_EQ(f.GetDirectionalDerivative(me, unknowns, 2, &u, 1, &seed, out), 0) << fmuLog;
    EXPECT_NEAR(out[0], 1 / T, 1e-6);
    EXPECT_NEAR(out[1], 0.0, 1e-6);
    ASSERT_EQ(f.GetDirectionalDerivative(me, unknowns, 1, &x, 1, &seed, out), 0) << fmuLog;
    EXPECT_EQ(out[0], -1 / T); // exact: the generated Jacobian
    f.FreeInstance(me);
  }
  dlclose(lib);
}

// A state declared output (MLS 3.5, 4.4.2.2) is an output of the FMU too, listed in
// <Outputs> depending on itself; an algebraic variable not declared output is then a local
// (the model declares its outputs), and the state keeps its exact start (FMI 2.0, 2.2.7: an
// output may be exact).
TEST(Inputs, FmuStateDeclaredOutput) {
  const std::filesystem::path dir = scratch("state_output");
  std::ofstream(dir / "tank.eq") << "model Tank\n"
                                    "  input Real q(start = 1) \"inflow\";\n"
                                    "  output Real h(start = 0, fixed = true) \"level\";\n"
                                    "  Real outflow;\n"
                                    "equation\n"
                                    "  der(h) = q - outflow;\n"
                                    "  outflow = 0.5*h;\n"
                                    "end Tank;\n";
  setenv("EQC_RUNTIME_LIBRARY", EQC_RUNTIME_LIBRARY, 1);
  Compilation c;
  std::ostringstream err;
  ASSERT_EQ(runPipeline((dir / "tank.eq").string(), PipelineOptions{}, c, err), ExitOk) << err.str();
  CompileOptions options;
  options.fmu = true;
  options.output = (dir / "Tank.fmu").string();
  ASSERT_EQ(compileModel(c, options, err), ExitOk) << err.str();
  const std::string xml = unzipEntry(options.output, "modelDescription.xml");
  EXPECT_NE(xml.find("name=\"h\" valueReference=\"0\" description=\"level\" causality=\"output\" "
                     "variability=\"continuous\" initial=\"exact\""),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"outflow\" valueReference=\"2\" causality=\"local\""), std::string::npos) << xml;
  // h is ScalarVariable 1: the only output, depending on itself; not an initial unknown (exact).
  EXPECT_NE(xml.find("<Outputs>\n      <Unknown index=\"1\" dependencies=\"1\"/>\n    </Outputs>"), std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("<Unknown index=\"1\"/>"), std::string::npos) << xml;
}
