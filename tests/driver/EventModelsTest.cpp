// Models with events run the same through every way eqc offers (issue 16): (a) eqc simulate,
// (b) the model's object linked into a C program, (c) a shared library loaded with dlopen and run
// through eqc_sim, (d) the FMU driven by a Model-Exchange importer and a Co-Simulation importer
// written here (fixed-step RK4 with sign-change detection and bisection; they share no code with
// eqc's runtime). Event times agree to 1e-9 between the ways and with references computed
// independently (analytic solutions, the pendulum's elliptic-integral period), trajectories to
// the stated tolerances.
#include "driver/Compile.h"
#include "driver/ModelTable.h"
#include "driver/Simulate.h"
#include "Fmi2Importer.h"
#include "Shell.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <sstream>

using namespace eqc;
using namespace fmi2test;

namespace {

std::filesystem::path scratch(const std::string &name) {
  std::filesystem::path dir = std::filesystem::path(EQC_SCRATCH_DIR) / ("events_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// What one way of running a model gave: rows (time, states in the model table's order) at every
/// output point, and the event times (a time written twice: the left and right limits).
struct Outputs {
  std::vector<std::vector<double>> rows;
  std::vector<double> events;
  std::string error;
  void add(double t, const double *x, int n) {
    if (!rows.empty() && rows.back()[0] == t && (events.empty() || events.back() != t))
      events.push_back(t);
    std::vector<double> row{t};
    row.insert(row.end(), x, x + n);
    rows.push_back(std::move(row));
  }
  /// The row at grid time t (the last row written with that time: after an event, its right limit).
  const std::vector<double> *at(double t) const {
    const std::vector<double> *found = nullptr;
    for (const auto &row : rows)
      if (std::fabs(row[0] - t) <= 1e-12 * std::max(1.0, std::fabs(t)))
        found = &row;
    return found;
  }
};

/// A model of the test: its source, settings, and the references.
struct Case {
  std::string file;    ///< under examples/ or tests/driver/
  std::string name;    ///< the model's name (its table is eqc_model_<name>)
  double tEnd, interval;
  std::vector<double> referenceEvents; ///< computed independently
  double referenceTolerance;           ///< for those
  double meStep;                       ///< the Model-Exchange importer's RK4 step
  double trajectoryTolerance;          ///< between the ways, at the grid times
};

std::string sourcePath(const Case &c) {
  return std::string(EQC_SOURCE_DIR) + (c.file.find('/') == std::string::npos ? "/examples/" : "/tests/driver/") +
         (c.file.find('/') == std::string::npos ? c.file : c.file.substr(c.file.find('/') + 1));
}

PipelineOptions pipelineOptions() {
  PipelineOptions o;
  o.libraries.push_back(std::string(EQC_SOURCE_DIR) + "/examples/lib");
  return o;
}

std::vector<std::string> split(const std::string &line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string cell; std::getline(s, cell, ',');)
    out.push_back(cell);
  return out;
}

/// (a) eqc simulate, with the model's own settings; the state columns in the order of `states`.
Outputs simulateRun(const Case &c, const std::vector<std::string> &states, const std::filesystem::path &dir) {
  Outputs r;
  Compilation comp;
  std::ostringstream err;
  if (runPipeline(sourcePath(c), pipelineOptions(), comp, err) != ExitOk) {
    r.error = err.str();
    return r;
  }
  SimulateOptions o;
  o.output = (dir / "simulate.csv").string();
  o.tEnd = c.tEnd;
  o.interval = c.interval;
  o.quiet = true;
  if (simulate(comp, o, err) != ExitOk) {
    r.error = err.str();
    return r;
  }
  std::ifstream csv(o.output);
  std::string line;
  std::getline(csv, line);
  std::vector<std::string> header = split(line);
  // A state of the table that the CSV does not show (an index-reduced model's der(x), which the
  // CSV shows as the variable it equals) is NaN here and not compared.
  std::vector<size_t> columns;
  for (const std::string &s : states) {
    auto it = std::find(header.begin(), header.end(), s);
    columns.push_back(it == header.end() ? 0 : static_cast<size_t>(it - header.begin()));
  }
  if (std::count(columns.begin(), columns.end(), 0u) == static_cast<long>(columns.size())) {
    r.error = "no state of the table is a column of " + line;
    return r;
  }
  while (std::getline(csv, line)) {
    std::vector<std::string> cells = split(line);
    std::vector<double> x;
    for (size_t k : columns)
      x.push_back(k ? std::stod(cells[k]) : NAN);
    r.add(std::stod(cells[0]), x.data(), static_cast<int>(x.size()));
  }
  return r;
}

/// eqc_sim on a table with output at the model's interval (the way (c) runs, and (b)'s program).
int collect(void *user, double t, const double *x, const double *, const double *) {
  auto *r = static_cast<std::pair<Outputs *, int> *>(user);
  r->first->add(t, x, r->second);
  return 0;
}
Outputs simRun(const eqc_model &m, const Case &c) {
  Outputs r;
  eqc_sim *sim = eqc_sim_new(&m);
  if (!sim) {
    r.error = "eqc_sim_new refused the table";
    return r;
  }
  eqc_options o;
  eqc_options_default(&o);
  o.rtol = o.atol = m.tolerance;
  o.interval = c.interval;
  eqc_sim_set_options(sim, &o);
  std::pair<Outputs *, int> user{&r, m.n_states};
  if (eqc_sim_run(sim, c.tEnd, collect, &user) != EQC_OK)
    r.error = eqc_sim_last_error(sim);
  eqc_sim_free(sim);
  return r;
}

/// (b) the object in a C program (C99, pedantic) that prints every output row in hexadecimal.
Outputs objectRun(const Case &c, const std::filesystem::path &dir) {
  Outputs r;
  Compilation comp;
  std::ostringstream err;
  CompileOptions options;
  options.output = (dir / (c.name + ".o")).string();
  if (runPipeline(sourcePath(c), pipelineOptions(), comp, err) != ExitOk ||
      compileModel(comp, options, err) != ExitOk) {
    r.error = err.str();
    return r;
  }
  std::ofstream(dir / "main.c")
      << "#include \"" << c.name << ".h\"\n#include <stdio.h>\n\n"
      << "static int out(void *user, double t, const double *x, const double *dx, const double *a) {\n"
         "  int i;\n  const eqc_model *m = (const eqc_model *)user;\n  (void)dx;\n  (void)a;\n"
         "  printf(\"%a\", t);\n  for (i = 0; i < m->n_states; ++i)\n    printf(\" %a\", x[i]);\n"
         "  printf(\"\\n\");\n  return 0;\n}\n\nint main(void) {\n"
      << "  const eqc_model *m = eqc_model_" << c.name << "();\n"
      << "  eqc_sim *sim = eqc_sim_new(m);\n  eqc_options o;\n  if (!sim)\n    return 1;\n"
         "  eqc_options_default(&o);\n  o.rtol = o.atol = m->tolerance;\n  o.interval = "
      << c.interval << ";\n  eqc_sim_set_options(sim, &o);\n  if (eqc_sim_run(sim, " << c.tEnd
      << ", out, (void *)m) != EQC_OK) {\n    fprintf(stderr, \"%s\\n\", eqc_sim_last_error(sim));\n    return 2;\n  }\n"
         "  eqc_sim_free(sim);\n  return 0;\n}\n";
  int status = 0;
  std::string cc = std::string(EQC_C_COMPILER) + " " + EQC_C_FLAGS + " -std=c99 -Wall -Wextra -Werror -pedantic -I'" +
                   EQC_RUNTIME_INCLUDE + "' -I'" + dir.string() + "' '" + (dir / "main.c").string() + "' '" +
                   options.output + "' '" + EQC_RUNTIME_LIBRARY + "' -lstdc++ -lm -o '" + (dir / "sim").string() + "'";
  std::string text = run(cc, status);
  if (status != 0) {
    r.error = cc + "\n" + text;
    return r;
  }
  text = run("'" + (dir / "sim").string() + "'", status);
  if (status != 0) {
    r.error = text;
    return r;
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream cells(line);
    std::vector<double> values;
    for (std::string cell; cells >> cell;)
      values.push_back(std::strtod(cell.c_str(), nullptr));
    r.add(values[0], values.data() + 1, static_cast<int>(values.size()) - 1);
  }
  return r;
}

/// (c) `eqc compile --shared`, loaded with dlopen, its table run through eqc_sim.
Outputs sharedRun(const Case &c, const std::filesystem::path &dir, std::vector<std::string> &stateNames) {
  Outputs r;
  setenv("EQC_RUNTIME_LIBRARY", EQC_RUNTIME_LIBRARY, 1);
  Compilation comp;
  std::ostringstream err;
  CompileOptions options;
  options.shared = true;
  options.output = (dir / ("lib" + c.name + ".so")).string();
  if (runPipeline(sourcePath(c), pipelineOptions(), comp, err) != ExitOk ||
      compileModel(comp, options, err) != ExitOk) {
    r.error = err.str();
    return r;
  }
  void *lib = dlopen(options.output.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    r.error = dlerror();
    return r;
  }
  auto table = reinterpret_cast<const eqc_model *(*)()>(dlsym(lib, ("eqc_model_" + c.name).c_str()));
  if (!table) {
    r.error = "no eqc_model_" + c.name;
  } else {
    const eqc_model &m = *table();
    stateNames.assign(m.state_names, m.state_names + m.n_states);
    r = simRun(m, c);
  }
  dlclose(lib);
  return r;
}

// ---- (d) The FMU, through importers of the test's own (tests/driver/Fmi2Importer.h) ----

/// An instance of interface `type` (0 Model Exchange, 1 Co-Simulation), or null with r.error set.
fmi2Component instantiate(const Fmi2 &f, const Description &d, int type, Outputs &r) {
  static Callbacks callbacks{logger, nullptr, nullptr, nullptr, nullptr};
  fmi2Component c = f.Instantiate(type ? "cs" : "me", type, d.guid.c_str(), "", &callbacks, 0, 0);
  if (!c)
    r.error = "instantiate failed: " + fmuLog;
  return c;
}

/// The value of the Integer or Real variable `name` (false when it cannot be read).
bool readCount(const Fmi2 &f, fmi2Component c, const Description &d, const std::string &name, int &count) {
  auto [type, vr] = d.variables.at(name);
  double value = 0;
  int integer = 0;
  if (type == "Integer" ? f.GetInteger(c, &vr, 1, &integer) : f.GetReal(c, &vr, 1, &value))
    return false;
  count = type == "Integer" ? integer : static_cast<int>(value);
  return true;
}

/// Model Exchange: classical RK4 with step h; after each step the indicators' signs are compared
/// and a sign change is bracketed by bisection (each trial an RK4 step from the step's start)
/// down to 1e-13; the event is handled at the bracket's right end (fmi2NewDiscreteStates until
/// settled). Rows on the grid of `interval` and at both limits of each event.
Outputs modelExchange(const Fmi2 &f, const Description &d, const Case &c, int &finalCount, const std::string &counter) {
  Outputs r;
  fmi2Component me = instantiate(f, d, 0, r);
  if (!me)
    return r;
  const size_t n = d.states, nz = d.indicators;
  std::vector<double> x(n), z(nz), zNew(nz), xNew(n), k1(n), k2(n), k3(n), k4(n), tmp(n);
  auto fail = [&](const std::string &what) {
    r.error = what + ": " + fmuLog;
    f.FreeInstance(me);
    return r;
  };
  if (f.SetupExperiment(me, 0, 0, 0.0, 1, c.tEnd) || f.EnterInitializationMode(me) || f.ExitInitializationMode(me))
    return fail("initialization");
  // Event Mode until the discrete states settle, then the states and indicators after it.
  auto settle = [&] {
    EventInfo info{1, 0, 0, 0, 0, 0};
    for (int k = 0; info.newDiscreteStatesNeeded && k < 100; ++k)
      if (f.NewDiscreteStates(me, &info))
        return false;
    return f.EnterContinuousTimeMode(me) == 0 && f.GetContinuousStates(me, x.data(), n) == 0 &&
           (nz == 0 || f.GetEventIndicators(me, z.data(), nz) == 0);
  };
  // f(t, y) into out.
  auto derivatives = [&](double t, const std::vector<double> &y, std::vector<double> &out) {
    return f.SetTime(me, t) == 0 && f.SetContinuousStates(me, y.data(), n) == 0 &&
           f.GetDerivatives(me, out.data(), n) == 0;
  };
  auto rk4 = [&](double t, const std::vector<double> &y, double h, std::vector<double> &out) {
    bool ok = derivatives(t, y, k1);
    for (size_t i = 0; i < n; ++i)
      tmp[i] = y[i] + h / 2 * k1[i];
    ok = ok && derivatives(t + h / 2, tmp, k2);
    for (size_t i = 0; i < n; ++i)
      tmp[i] = y[i] + h / 2 * k2[i];
    ok = ok && derivatives(t + h / 2, tmp, k3);
    for (size_t i = 0; i < n; ++i)
      tmp[i] = y[i] + h * k3[i];
    ok = ok && derivatives(t + h, tmp, k4);
    for (size_t i = 0; i < n; ++i)
      out[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return ok;
  };
  auto indicatorsAt = [&](double t, const std::vector<double> &y, std::vector<double> &out) {
    return nz == 0 || (f.SetTime(me, t) == 0 && f.SetContinuousStates(me, y.data(), n) == 0 &&
                       f.GetEventIndicators(me, out.data(), nz) == 0);
  };
  auto changed = [&](const std::vector<double> &a, const std::vector<double> &b) {
    for (size_t k = 0; k < nz; ++k)
      if ((a[k] > 0) != (b[k] > 0))
        return true;
    return false;
  };
  if (!settle())
    return fail("initial event mode");
  double t = 0.0;
  r.add(t, x.data(), static_cast<int>(n));
  long gridIndex = 1;
  while (t < c.tEnd - 1e-12) {
    const double nextGrid = gridIndex * c.interval;
    const double h = std::min({c.meStep, c.tEnd - t, nextGrid - t});
    if (!rk4(t, x, h, xNew) || !indicatorsAt(t + h, xNew, zNew))
      return fail("step at " + std::to_string(t));
    if (nz && changed(z, zNew)) {
      // Bisection on the step's length: lo keeps z's signs, hi has one changed.
      double lo = 0.0, hi = h;
      std::vector<double> zMid(nz), xMid(n);
      while (hi - lo > 1e-13 * std::max(1.0, t)) {
        const double mid = (lo + hi) / 2;
        if (!rk4(t, x, mid, xMid) || !indicatorsAt(t + mid, xMid, zMid))
          return fail("bisection");
        (changed(z, zMid) ? hi : lo) = mid;
      }
      if (!rk4(t, x, hi, xNew))
        return fail("event step");
      t += hi;
      r.add(t, xNew.data(), static_cast<int>(n));
      if (f.SetTime(me, t) || f.SetContinuousStates(me, xNew.data(), n) || f.EnterEventMode(me) || !settle())
        return fail("event at " + std::to_string(t));
      r.add(t, x.data(), static_cast<int>(n));
      continue;
    }
    t += h;
    x = xNew;
    z = zNew;
    int enterEventMode = 0, terminate = 0;
    if (f.SetTime(me, t) || f.SetContinuousStates(me, x.data(), n) ||
        f.CompletedIntegratorStep(me, 1, &enterEventMode, &terminate))
      return fail("completed step");
    if (enterEventMode && (f.EnterEventMode(me) || !settle())) // a step event (no output rows)
      return fail("step event at " + std::to_string(t));
    if (std::fabs(t - nextGrid) <= 1e-12 * std::max(1.0, t)) {
      r.add(t, x.data(), static_cast<int>(n));
      ++gridIndex;
    }
  }
  if (!counter.empty() && !readCount(f, me, d, counter, finalCount))
    return fail("reading " + counter);
  f.FreeInstance(me);
  return r;
}

/// Co-Simulation: one fmi2DoStep per grid interval; rows on the grid.
Outputs coSimulation(const Fmi2 &f, const Description &d, const Case &c, int &finalCount, const std::string &counter) {
  Outputs r;
  fmi2Component cs = instantiate(f, d, 1, r);
  if (!cs)
    return r;
  const size_t n = d.states;
  std::vector<fmi2ValueReference> refs(n);
  for (size_t i = 0; i < n; ++i)
    refs[i] = static_cast<fmi2ValueReference>(i);
  std::vector<double> x(n);
  bool ok = f.SetupExperiment(cs, 0, 0, 0.0, 1, c.tEnd) == 0 && f.EnterInitializationMode(cs) == 0 &&
            f.ExitInitializationMode(cs) == 0 && f.GetReal(cs, refs.data(), n, x.data()) == 0;
  r.add(0.0, x.data(), static_cast<int>(n));
  const long steps = std::lround(c.tEnd / c.interval);
  for (long k = 0; ok && k < steps; ++k) {
    const double t = k * c.interval, next = (k + 1) * c.interval;
    ok = f.DoStep(cs, t, next - t, 1) == 0 && f.GetReal(cs, refs.data(), n, x.data()) == 0;
    r.add(next, x.data(), static_cast<int>(n));
  }
  if (ok && !counter.empty())
    ok = readCount(f, cs, d, counter, finalCount);
  if (!ok)
    r.error = "co-simulation failed: " + fmuLog;
  f.FreeInstance(cs);
  return r;
}

void expectSameEvents(const std::vector<double> &expected, const std::vector<double> &actual, double tolerance,
                      const std::string &what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t k = 0; k < expected.size(); ++k)
    EXPECT_NEAR(actual[k], expected[k], tolerance) << what << ": event " << k;
}

void expectSameTrajectory(const Outputs &reference, const Outputs &actual, double tolerance, const std::string &what) {
  int compared = 0;
  for (const auto &row : actual.rows) {
    const std::vector<double> *ref = reference.at(row[0]);
    if (!ref || (!actual.events.empty() &&
                 std::find(actual.events.begin(), actual.events.end(), row[0]) != actual.events.end()))
      continue;
    ASSERT_EQ(ref->size(), row.size()) << what;
    for (size_t i = 1; i < row.size(); ++i)
      if (!std::isnan((*ref)[i]))
        EXPECT_NEAR(row[i], (*ref)[i], tolerance) << what << ": state " << i - 1 << " at time " << row[0];
    ++compared;
  }
  EXPECT_GT(compared, 10) << what << ": too few grid rows in common";
}

/// Runs `c` all ways and compares.
/// `reference`, when given, computes c.referenceEvents after the shared library ran: a model
/// JIT-compiled in this process before a model library is loaded leaves a dynamic TLS range that
/// GCC 12's LeakSanitizer crashes on at exit (a sanitizer bug that depends on the order only).
void checkEverywhere(Case c, const std::string &counter, int expectedCount,
                     const std::function<std::vector<double>()> &reference = nullptr) {
  const std::filesystem::path dir = scratch(c.name);
  std::vector<std::string> states;
  Outputs shared = sharedRun(c, dir, states);
  ASSERT_TRUE(shared.error.empty()) << shared.error;
  if (reference)
    c.referenceEvents = reference();
  Outputs simulated = simulateRun(c, states, dir);
  ASSERT_TRUE(simulated.error.empty()) << simulated.error;
  Outputs object = objectRun(c, dir);
  ASSERT_TRUE(object.error.empty()) << object.error;

  // The references first, then every way against eqc simulate.
  expectSameEvents(c.referenceEvents, simulated.events, c.referenceTolerance, "eqc simulate against the reference");
  expectSameEvents(simulated.events, object.events, 1e-9, "object in a C program");
  expectSameEvents(simulated.events, shared.events, 1e-9, "shared library");
  expectSameTrajectory(simulated, object, c.trajectoryTolerance, "object in a C program");
  expectSameTrajectory(simulated, shared, c.trajectoryTolerance, "shared library");
  // The object and the shared library run the same table through eqc_sim: the same bits.
  ASSERT_EQ(object.rows.size(), shared.rows.size());
  for (size_t k = 0; k < object.rows.size(); ++k)
    EXPECT_EQ(object.rows[k], shared.rows[k]) << "row " << k;

  // The FMU.
  setenv("EQC_RUNTIME_LIBRARY", EQC_RUNTIME_LIBRARY, 1);
  Compilation comp;
  std::ostringstream err;
  CompileOptions options;
  options.fmu = true;
  options.output = (dir / (c.name + ".fmu")).string();
  ASSERT_EQ(runPipeline(sourcePath(c), pipelineOptions(), comp, err), ExitOk) << err.str();
  ASSERT_EQ(compileModel(comp, options, err), ExitOk) << err.str();
  const std::string xml = unzipEntry(options.output, "modelDescription.xml");
  const Description d = describe(xml);
  EXPECT_EQ(d.stateNames, states) << xml;
  EXPECT_GT(d.indicators, 0u) << xml;
  std::ofstream(dir / "fmu.so", std::ios::binary) << unzipEntry(options.output, "binaries/linux64/" + c.name + ".so");
  void *lib = dlopen((dir / "fmu.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(lib) << dlerror();
  {
    const Fmi2 f(lib);
    fmuLog.clear();
    int meCount = -1, csCount = -1;
    Outputs me = modelExchange(f, d, c, meCount, counter);
    EXPECT_TRUE(me.error.empty()) << me.error;
    expectSameEvents(simulated.events, me.events, 1e-9, "FMU, Model Exchange");
    expectSameTrajectory(simulated, me, c.trajectoryTolerance, "FMU, Model Exchange");
    Outputs cs = coSimulation(f, d, c, csCount, counter);
    EXPECT_TRUE(cs.error.empty()) << cs.error;
    expectSameTrajectory(simulated, cs, c.trajectoryTolerance, "FMU, Co-Simulation");
    if (!counter.empty()) {
      EXPECT_EQ(meCount, expectedCount);
      EXPECT_EQ(csCount, expectedCount);
    }
  }
  dlclose(lib);
}

} // namespace

// The bouncing ball (examples/bouncing_ball.eq): h'' = -g from h0 = 1 at rest, v -> -e v at
// h = 0. Bounce k at t_k = t_{k-1} + 2 v_{k-1} / g with t_1 = sqrt(2 h0 / g), v_1 = e sqrt(2 g h0),
// v_k = e v_{k-1}.
TEST(EventModels, BouncingBallEverywhere) {
  const double g = 9.81, e = 0.8, h0 = 1;
  std::vector<double> bounces{std::sqrt(2 * h0 / g)};
  for (double v = e * std::sqrt(2 * g * h0); bounces.back() + 2 * v / g < 3.0; v *= e)
    bounces.push_back(bounces.back() + 2 * v / g);
  checkEverywhere({"bouncing_ball.eq", "BouncingBall", 3.0, 0.01, bounces, 1e-9, 1e-3, 1e-7}, "bounces",
                  static_cast<int>(bounces.size()));
}

// The half-wave rectifier (examples/rectifier.eq: V sin(2 pi f t) into R + L through an ideal
// diode with Ron = Goff = 1e-5). Without those the current while conducting from t0 = k/f is
// (V/Z) (sin(w t' - phi) + sin(phi) exp(-R t' / L)), t' = t - t0, Z = |R + i w L|,
// phi = atan(w L / R): the diode turns off where that returns to zero (found by bisection here)
// and on again at the next k/f. Ron and Goff move the times by about 1e-6.
TEST(EventModels, IdealDiodeRectifierEverywhere) {
  const double V = 10, f = 50, R = 10, L = 0.1, pi = 3.141592653589793, w = 2 * pi * f;
  const double phi = std::atan(w * L / R);
  auto current = [&](double t) { return std::sin(w * t - phi) + std::sin(phi) * std::exp(-R * t / L); };
  double lo = 0.5 / f, hi = 1.0 / f; // i > 0 at half a period, < 0 just before the next
  for (int k = 0; k < 100; ++k)
    (current((lo + hi) / 2) > 0 ? lo : hi) = (lo + hi) / 2;
  (void)V;
  std::vector<double> events;
  for (int k = 0; k < 5; ++k) {
    events.push_back(k / f + lo);
    events.push_back((k + 1) / f);
  }
  events.pop_back(); // the last turn-on is at the stop time 0.1
  checkEverywhere({"rectifier.eq", "Rectifier", 0.1, 1e-4, events, 5e-6, 1e-6, 1e-6}, "", 0);
}

// A sample-and-hold P controller (tests/driver/sampled_controller.eq): samples at k Ts; between
// them x' = -x + u with u = K (r - x(k Ts)) held, so x((k+1) Ts) = u + (x(k Ts) - u) exp(-Ts).
TEST(EventModels, SampledControllerEverywhere) {
  const double Ts = 0.1;
  std::vector<double> samples;
  for (int k = 1; k <= 10; ++k) // the last at the stop time
    samples.push_back(k * Ts);
  checkEverywhere({"driver/sampled_controller.eq", "SampledController", 1.0, 0.01, samples, 1e-12, 1e-3, 1e-8},
                  "samples", 11);
  // The plant's output at the samples, from the recursion above.
  Outputs simulated = simulateRun({"driver/sampled_controller.eq", "SampledController", 1.0, 0.01, {}, 0, 0, 0}, {"x"},
                              scratch("controller_reference"));
  ASSERT_TRUE(simulated.error.empty()) << simulated.error;
  double x = 0;
  for (int k = 0; k < 10; ++k) {
    const double u = 2 * (1 - x);
    x = u + (x - u) * std::exp(-Ts);
    const std::vector<double> *row = simulated.at((k + 1) * Ts);
    ASSERT_TRUE(row);
    EXPECT_NEAR((*row)[1], x, 1e-9) << "x at sample " << k + 1;
  }
}

// Model Exchange of an index-reduced model keeps it on its invariants: where the environment's
// integration drifts off by more than the tolerance, fmi2CompletedIntegratorStep asks for a step
// event, and fmi2NewDiscreteStates projects (valuesOfContinuousStatesChanged). Explicit Euler with
// h = 1e-3 drifts by about 1e-3 in x^2 + y^2 = 1 over a second without it.
TEST(EventModels, ModelExchangeOfAnIndexReducedFmuStaysOnTheInvariants) {
  const std::filesystem::path dir = scratch("me_drift");
  setenv("EQC_RUNTIME_LIBRARY", EQC_RUNTIME_LIBRARY, 1);
  Compilation comp;
  std::ostringstream err;
  CompileOptions options;
  options.fmu = true;
  options.output = (dir / "SwingCounter.fmu").string();
  ASSERT_EQ(runPipeline(std::string(EQC_SOURCE_DIR) + "/tests/driver/swing_counter.eq", pipelineOptions(), comp, err),
            ExitOk)
      << err.str();
  ASSERT_EQ(compileModel(comp, options, err), ExitOk) << err.str();
  const Description d = describe(unzipEntry(options.output, "modelDescription.xml"));
  std::ofstream(dir / "fmu.so", std::ios::binary) << unzipEntry(options.output, "binaries/linux64/SwingCounter.so");
  void *lib = dlopen((dir / "fmu.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_TRUE(lib) << dlerror();
  {
    const Fmi2 f(lib);
    static Callbacks callbacks{logger, nullptr, nullptr, nullptr, nullptr};
    fmi2Component me = f.Instantiate("me", 0, d.guid.c_str(), "", &callbacks, 0, 0);
    ASSERT_TRUE(me);
    ASSERT_EQ(f.SetupExperiment(me, 1, 1e-8, 0.0, 0, 0.0) | f.EnterInitializationMode(me) | f.ExitInitializationMode(me),
              0)
        << fmuLog;
    const size_t n = d.states;
    std::vector<double> x(n), dx(n), z(d.indicators);
    EventInfo info{};
    ASSERT_EQ(f.NewDiscreteStates(me, &info) | f.EnterContinuousTimeMode(me) | f.GetContinuousStates(me, x.data(), n), 0);
    const size_t ix = d.variables.at("x").second, iy = d.variables.at("y").second;
    int projections = 0;
    const double h = 1e-3;
    for (int k = 0; k < 1000; ++k) {
      ASSERT_EQ(f.GetDerivatives(me, dx.data(), n), 0) << fmuLog;
      for (size_t i = 0; i < n; ++i)
        x[i] += h * dx[i];
      int enterEventMode = 0, terminate = 0;
      ASSERT_EQ(f.SetTime(me, (k + 1) * h) | f.SetContinuousStates(me, x.data(), n) |
                    f.CompletedIntegratorStep(me, 1, &enterEventMode, &terminate),
                0);
      if (enterEventMode) {
        ++projections;
        ASSERT_EQ(f.EnterEventMode(me) | f.NewDiscreteStates(me, &info), 0) << fmuLog;
        EXPECT_EQ(info.valuesOfContinuousStatesChanged, 1);
        ASSERT_EQ(f.EnterContinuousTimeMode(me) | f.GetContinuousStates(me, x.data(), n), 0);
      }
    }
    EXPECT_NEAR(x[ix] * x[ix] + x[iy] * x[iy], 1.0, 1e-8);
    EXPECT_GT(projections, 100);
    f.FreeInstance(me);
  }
  dlclose(lib);
}

// A reinit of an index-3 model (tests/driver/pendulum_wall.eq): the pendulum rebounds from a
// wall, and every way moves it back onto its hidden constraints with the positions held. The
// reference: the rebound times of its angle form (an ODE, tests/driver/pendulum_wall_angle.eq).
TEST(EventModels, IndexThreePendulumReboundingFromAWallEverywhere) {
  auto reference = [] {
    const Case angle{"driver/pendulum_wall_angle.eq", "PendulumWallAngle", 3.0, 0.01, {}, 0, 0, 0};
    Outputs r = simulateRun(angle, {"th"}, scratch("wall_angle"));
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.events.size(), 2u);
    return r.events;
  };
  checkEverywhere({"driver/pendulum_wall.eq", "PendulumWall", 3.0, 0.01, {}, 1e-8, 1e-3, 1e-6}, "hits", 2, reference);
}

// The index-3 pendulum with a when-clause counting swings (tests/driver/swing_counter.eq):
// released at rest from angle a = asin(0.6) it passes the bottom at T/4 + k T/2 with
// T = 4 sqrt(L/g) K(sin(a/2)), K the complete elliptic integral of the first kind (here by the
// arithmetic-geometric mean: K(k) = pi / (2 AGM(1, sqrt(1 - k^2)))).
TEST(EventModels, IndexThreePendulumCountingSwingsEverywhere) {
  const double L = 1, g = 9.81, pi = 3.141592653589793;
  const double k = std::sin(std::asin(0.6) / 2);
  double a = 1, b = std::sqrt(1 - k * k);
  for (int i = 0; i < 30; ++i) {
    const double m = (a + b) / 2;
    b = std::sqrt(a * b);
    a = m;
  }
  const double T = 4 * std::sqrt(L / g) * pi / (2 * a);
  std::vector<double> crossings;
  for (int i = 0; T / 4 + i * T / 2 < 5.0; ++i)
    crossings.push_back(T / 4 + i * T / 2);
  checkEverywhere({"driver/swing_counter.eq", "SwingCounter", 5.0, 0.01, crossings, 1e-8, 1e-3, 1e-6}, "swings", 3);
}
