// eqc compile: the object and header of a model, linked into a C program (C99, -Wall -Wextra
// -Werror -pedantic) with libeqcrt, give bit for bit what the JIT gives through the same eqc_sim
// calls; two models link into one program; other targets and bad paths.
#include "driver/Compile.h"
#include "driver/ModelTable.h"
#include "Shell.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <dlfcn.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace eqc;

namespace {

std::string scratch(const std::string &name) {
  std::filesystem::path dir = std::filesystem::path(EQC_SCRATCH_DIR) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

struct Compiled {
  Compilation c;
  std::ostringstream err;
  ExitCode code = ExitInternal;
  /// `example`: a file of examples/, or an absolute path.
  Compiled(const std::string &example, const CompileOptions &options) {
    PipelineOptions pipeline;
    code = runPipeline(example[0] == '/' ? example : std::string(EQC_SOURCE_DIR) + "/examples/" + example, pipeline, c,
                       err);
    if (code == ExitOk)
      code = compileModel(c, options, err);
  }
};


/// A C program that runs `model` with dopri5 (rtol 1e-10) to `tEnd` in 4 runs and prints every
/// state in hexadecimal floating point.
std::string program(const std::vector<std::string> &models, double tEnd) {
  std::ostringstream c;
  for (const std::string &m : models)
    c << "#include \"" << m << ".h\"\n";
  c << "#include <stdio.h>\n\nstatic int run(const eqc_model *m, double t_end) {\n"
       "  eqc_sim *sim = eqc_sim_new(m);\n  eqc_options o;\n  int i, k;\n  if (!sim)\n    return 1;\n"
       "  eqc_options_default(&o);\n  o.method = EQC_METHOD_DOPRI5;\n  o.rtol = 1e-10;\n  o.atol = 1e-10;\n"
       "  eqc_sim_set_options(sim, &o);\n  for (k = 1; k <= 4; ++k)\n"
       "    if (eqc_sim_run(sim, t_end * k / 4, NULL, NULL) != EQC_OK) {\n"
       "      fprintf(stderr, \"%s\\n\", eqc_sim_last_error(sim));\n      return 2;\n    }\n"
       "  for (i = 0; i < m->n_states; ++i)\n    printf(\"%s %a\\n\", m->state_names[i], eqc_sim_states(sim)[i]);\n"
       "  eqc_sim_free(sim);\n  return 0;\n}\n\nint main(void) {\n";
  for (const std::string &m : models)
    c << "  if (run(eqc_model_" << m << "(), " << tEnd << "))\n    return 1;\n";
  c << "  return 0;\n}\n";
  return c.str();
}

std::string simRun(const eqc_model &m, double tEnd);

/// The same runs through the JIT's table, printed the same way.
std::string jitRun(const std::string &example, double tEnd) {
  Compilation c;
  std::ostringstream err;
  PipelineOptions pipeline;
  if (runPipeline(example[0] == '/' ? example : std::string(EQC_SOURCE_DIR) + "/examples/" + example, pipeline, c,
                  err) != ExitOk)
    return "pipeline failed: " + err.str();
  std::unique_ptr<ModelTable> table = ModelTable::build(c, 0.0, err);
  if (!table)
    return "table failed: " + err.str();
  const eqc_model &m = table->model();
  return simRun(m, tEnd);
}

/// Model `file` (of examples/, or an absolute path) compiled by `eqc compile --shared` into
/// `library` and opened with dlopen: `model` is eqc_model_<name>(), null where a step failed
/// (`error` says which).
struct SharedModel {
  SharedModel(const std::string &file, const std::string &library, const std::string &name) {
    setenv("EQC_RUNTIME_LIBRARY", EQC_RUNTIME_LIBRARY, 1); // this program is not next to a runtime as eqc is
    CompileOptions options;
    options.output = library;
    options.shared = true;
    Compiled p(file, options);
    if (p.code != ExitOk) {
      error = p.err.str();
      return;
    }
    if (!(lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL))) {
      error = dlerror();
      return;
    }
    auto accessor = reinterpret_cast<const eqc_model *(*)()>(dlsym(lib, ("eqc_model_" + name).c_str()));
    if (!accessor) {
      error = library + " has no eqc_model_" + name;
      return;
    }
    model = accessor();
  }
  ~SharedModel() {
    if (lib)
      dlclose(lib);
  }
  SharedModel(const SharedModel &) = delete;
  SharedModel &operator=(const SharedModel &) = delete;
  void *lib = nullptr;
  const eqc_model *model = nullptr;
  std::string error;
};

std::string compileAndRun(const std::string &dir, const std::vector<std::string> &models, double tEnd, int &status) {
  std::ofstream(dir + "/main.c") << program(models, tEnd);
  std::string objects;
  for (const std::string &m : models)
    objects += " '" + dir + "/" + m + ".o'";
  std::string cc = std::string(EQC_C_COMPILER) + " " + EQC_C_FLAGS + " -std=c99 -Wall -Wextra -Werror -pedantic -I'" +
                   EQC_RUNTIME_INCLUDE + "' -I'" + dir + "' '" + dir + "/main.c'" + objects + " '" + EQC_RUNTIME_LIBRARY +
                   "' -lstdc++ -lm -o '" + dir + "/sim'";
  std::string out = run(cc, status);
  if (status != 0)
    return "cc failed: " + cc + "\n" + out;
  return run("'" + dir + "/sim'", status);
}

TEST(Compile, ObjectInACProgramGivesTheJitsBits) {
  std::string dir = scratch("aot_pendulum");
  CompileOptions options;
  options.output = dir + "/Pendulum.o";
  Compiled p("pendulum.eq", options);
  ASSERT_EQ(p.code, ExitOk) << p.err.str();
  std::ifstream header(dir + "/Pendulum.h");
  std::string text((std::istreambuf_iterator<char>(header)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("const eqc_model *eqc_model_Pendulum(void);"), std::string::npos) << text;
  int status = 0;
  std::string aot = compileAndRun(dir, {"Pendulum"}, 10.0, status);
  ASSERT_EQ(status, 0) << aot;
  EXPECT_EQ(aot, jitRun("pendulum.eq", 10.0));
  EXPECT_NE(aot.find("vx "), std::string::npos) << aot;
}

// An initial equation on what an algebraic loop computes (the pendulum's tension, MLS 8.6): the
// object's initial constraints run the ODE and their Jacobian calls the runtime's
// eqc_constraint_jacobian_fd, which the C program links from libeqcrt; the bits are the JIT's.
TEST(Compile, InitialConstraintsThatRunTheOdeLinkAndGiveTheJitsBits) {
  std::string dir = scratch("aot_tension");
  const std::string model = dir + "/Tension.eq";
  std::ofstream(model) << "model Tension\n  parameter Real L = 1, g = 9.81;\n  Real x(start = 1), y(start = 0);\n"
                          "  Real vx(start = 0), vy(start = 1);\n  Real lambda;\nequation\n  der(x) = vx;  der(y) = vy;\n"
                          "  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;\n  x^2 + y^2 = L^2;\n"
                          "initial equation\n  y = -0.6;\n  lambda = 9;\nend Tension;\n";
  CompileOptions options;
  options.output = dir + "/Tension.o";
  Compiled p(model, options);
  ASSERT_EQ(p.code, ExitOk) << p.err.str();
  int status = 0;
  std::string aot = compileAndRun(dir, {"Tension"}, 1.0, status);
  ASSERT_EQ(status, 0) << aot;
  EXPECT_EQ(aot, jitRun(model, 1.0));
  EXPECT_NE(aot.find("vy "), std::string::npos) << aot;
}

TEST(Compile, TwoModelsLinkIntoOneProgram) {
  std::string dir = scratch("aot_two");
  CompileOptions options;
  options.output = dir + "/Pendulum.o";
  Compiled a("pendulum.eq", options);
  ASSERT_EQ(a.code, ExitOk) << a.err.str();
  options.output = dir + "/Rober.o";
  Compiled b("rober.eq", options);
  ASSERT_EQ(b.code, ExitOk) << b.err.str();
  int status = 0;
  std::string out = compileAndRun(dir, {"Pendulum", "Rober"}, 1.0, status);
  ASSERT_EQ(status, 0) << out;
  EXPECT_EQ(out, jitRun("pendulum.eq", 1.0) + jitRun("rober.eq", 1.0));
}

/// The final states of `m` through eqc_sim as jitRun prints them.
std::string simRun(const eqc_model &m, double tEnd) {
  eqc_sim *sim = eqc_sim_new(&m);
  if (!sim)
    return "eqc_sim_new failed";
  eqc_options o;
  eqc_options_default(&o);
  o.method = EQC_METHOD_DOPRI5;
  o.rtol = 1e-10;
  o.atol = 1e-10;
  eqc_sim_set_options(sim, &o);
  for (int k = 1; k <= 4; ++k)
    if (eqc_sim_run(sim, tEnd * k / 4, nullptr, nullptr) != EQC_OK)
      return std::string("run failed: ") + eqc_sim_last_error(sim);
  std::string out;
  char buf[128];
  for (int i = 0; i < m.n_states; ++i) {
    std::snprintf(buf, sizeof buf, "%s %a\n", m.state_names[i], eqc_sim_states(sim)[i]);
    out += buf;
  }
  eqc_sim_free(sim);
  return out;
}

// --shared: a library that needs only libstdc++/libm/libc, exports the model's symbols and not the
// runtime's, and loads with dlopen into a program that has its own runtime.
TEST(Compile, SharedLibraryLoadsWithDlopen) {
  std::string dir = scratch("aot_shared");
  {
    SharedModel shared("pendulum.eq", dir + "/libpendulum.so", "Pendulum");
    ASSERT_TRUE(shared.model) << shared.error;
    EXPECT_TRUE(std::filesystem::exists(dir + "/libpendulum.h"));
    EXPECT_EQ(dlsym(shared.lib, "eqc_integrate"), nullptr); // the runtime inside stays private
    EXPECT_EQ(simRun(*shared.model, 10.0), jitRun("pendulum.eq", 10.0));
  }
  for (auto &entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();

  // Another machine needs its C compiler and a runtime built for it; this machine's triple links
  // as the default does.
  CompileOptions options;
  options.output = dir + "/libpendulum.so";
  options.shared = true;
  options.target = "aarch64-linux-gnu";
  unsetenv("CC");
  Compiled cross("pendulum.eq", options);
  EXPECT_EQ(cross.code, ExitUsage);
  EXPECT_NE(cross.err.str().find("linking for another machine needs its C compiler in CC"), std::string::npos)
      << cross.err.str();
  options.target = "x86_64-linux-gnu";
  options.output = dir + "/libpendulum64.so";
  Compiled host("pendulum.eq", options);
  EXPECT_EQ(host.code, ExitOk) << host.err.str();
}

// External C functions (MLS 3.5, 12.9) in a shared library: their Include code is compiled and
// linked in with eqc's Modelica utility functions; the library gives the JIT's bits, and a
// ModelicaError in it fails the run with its message (the run returns, the process goes on).
TEST(Compile, SharedLibraryWithExternalFunctions) {
  std::string dir = scratch("aot_external");
  std::ofstream(dir + "/decay.mo") << R"(model Decay
  function rate
    input Real x;
    input Real limit;
    output Real y;
  external "C" y = eqc_test_rate(x, limit) annotation(Include = "
#include \"ModelicaUtilities.h\"
double eqc_test_rate(double x, double limit) {
  if (x < limit) ModelicaFormatError(\"eqc_test_rate: %g is below %g\", x, limit);
  return -2 * x;
}");
  end rate;
  parameter Real limit = 0;
  Real x(start = 1);
equation
  der(x) = rate(x, limit);
end Decay;
)";
  SharedModel shared(dir + "/decay.mo", dir + "/libdecay.so", "Decay");
  ASSERT_TRUE(shared.model) << shared.error;
  std::string aot = simRun(*shared.model, 1.0);
  EXPECT_EQ(aot, jitRun(dir + "/decay.mo", 1.0));
  double x = std::strtod(aot.substr(2).c_str(), nullptr);
  EXPECT_NEAR(x, std::exp(-2.0), 1e-9) << aot;

  // The limit above the decaying x: the C function calls ModelicaFormatError once x < 0.5.
  const eqc_model &m = *shared.model;
  eqc_sim *sim = eqc_sim_new(&m);
  ASSERT_TRUE(sim);
  int limit = -1;
  for (int i = 0; i < m.n_params; ++i)
    if (std::string(m.param_names[i]) == "limit")
      limit = i;
  ASSERT_GE(limit, 0);
  ASSERT_EQ(eqc_sim_set_param(sim, limit, 0.5), EQC_OK);
  EXPECT_NE(eqc_sim_run(sim, 1.0, nullptr, nullptr), EQC_OK);
  EXPECT_NE(std::string(eqc_sim_last_error(sim)).find("eqc_test_rate: "), std::string::npos) << eqc_sim_last_error(sim);
  EXPECT_NEAR(eqc_sim_time(sim), std::log(2.0) / 2, 0.05);
  eqc_sim_free(sim);
}

// Strings a function computes when it runs (concatenation, String(), a comparison) in a shared
// library: the runtime's String functions are linked in with the model; the library gives the
// JIT's bits. rate(t) = 2 while String(t + 0.5, format = "1.0f") is "1" (t + 0.5 in (0.5, 1.5)),
// so x(1) = exp(-2) but for the first instant.
TEST(Compile, SharedLibraryWithStringsComputedWhenItRuns) {
  std::string dir = scratch("aot_strings");
  std::ofstream(dir + "/decay.mo") << R"(model StringDecay
  function rate
    input Real t;
    output Real y;
  protected
    String s;
  algorithm
    s := "a" + String(t + 0.5, format = "1.0f");
    y := if s == "a1" then 2 else 1;
  end rate;
  Real x(start = 1);
equation
  der(x) = -rate(time)*x;
end StringDecay;
)";
  SharedModel shared(dir + "/decay.mo", dir + "/libdecay.so", "StringDecay");
  ASSERT_TRUE(shared.model) << shared.error;
  std::string aot = simRun(*shared.model, 1.0);
  EXPECT_EQ(aot, jitRun(dir + "/decay.mo", 1.0));
  EXPECT_NEAR(std::strtod(aot.substr(2).c_str(), nullptr), std::exp(-2.0), 1e-6) << aot;
}

TEST(Compile, OtherTargetsAndOutputs) {
  std::string dir = scratch("aot_targets");
  CompileOptions options;
  options.output = dir + "/p.o";
  options.target = "aarch64-linux-gnu";
  Compiled arm("pendulum.eq", options);
  ASSERT_EQ(arm.code, ExitOk) << arm.err.str();
  // ELF header: e_machine at offset 18 is EM_AARCH64 (183).
  std::ifstream object(dir + "/p.o", std::ios::binary);
  char head[20] = {0};
  object.read(head, sizeof head);
  EXPECT_EQ(std::string(head + 1, 3), "ELF");
  EXPECT_EQ(static_cast<unsigned char>(head[18]) | (static_cast<unsigned char>(head[19]) << 8), 183);
  EXPECT_TRUE(std::filesystem::remove(dir + "/p.h"));

  options.target.clear();
  options.emit = "llvm";
  options.output = dir + "/p.ll";
  Compiled ll("pendulum.eq", options);
  ASSERT_EQ(ll.code, ExitOk) << ll.err.str();
  std::ifstream ir(dir + "/p.ll");
  std::string irText((std::istreambuf_iterator<char>(ir)), std::istreambuf_iterator<char>());
  EXPECT_NE(irText.find("define i8* @eqc_model_Pendulum()"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir + "/p.h")); // headers go with objects

  options.emit = "asm";
  options.output = dir + "/p.s";
  Compiled as("pendulum.eq", options);
  ASSERT_EQ(as.code, ExitOk) << as.err.str();
  EXPECT_TRUE(std::filesystem::exists(dir + "/p.s"));

  options.emit = "obj";
  options.target = "no-such-target";
  options.output = dir + "/bad.o";
  Compiled bad("pendulum.eq", options);
  EXPECT_EQ(bad.code, ExitUsage);
  EXPECT_NE(bad.err.str().find("unknown target 'no-such-target'"), std::string::npos) << bad.err.str();
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.o"));

  // --cpu: the baseline by default (no AVX registers in the code, so that it runs on any x86_64);
  // a named CPU may use its features; an unknown one stops before any work.
  options.target.clear();
  auto disassembly = [&](const std::string &object) {
    int status = 0;
    std::string text = run("objdump -d '" + object + "'", status);
    EXPECT_EQ(status, 0) << text;
    return text;
  };
  options.output = dir + "/baseline.o";
  Compiled baseline("heat_equation.eq", options);
  ASSERT_EQ(baseline.code, ExitOk) << baseline.err.str();
  std::string text = disassembly(options.output);
  EXPECT_NE(text.find("xmm"), std::string::npos);
  EXPECT_EQ(text.find("ymm"), std::string::npos);
  EXPECT_EQ(text.find("zmm"), std::string::npos);
  options.cpu = "x86-64-v3"; // AVX2
  options.output = dir + "/v3.o";
  Compiled v3("heat_equation.eq", options);
  ASSERT_EQ(v3.code, ExitOk) << v3.err.str();
  // AVX's VEX encoding (vaddsd, vmovsd, ...) where the baseline has SSE2's (addsd, movsd, ...).
  const std::regex vex("\\tv(add|sub|mul|div|mov)[sp]d ");
  EXPECT_FALSE(std::regex_search(text, vex));
  EXPECT_TRUE(std::regex_search(disassembly(options.output), vex));
  options.cpu = "no-such-cpu";
  options.output = dir + "/bad.o";
  Compiled badCpu("pendulum.eq", options);
  EXPECT_EQ(badCpu.code, ExitUsage);
  EXPECT_NE(badCpu.err.str().find("unknown CPU 'no-such-cpu'"), std::string::npos) << badCpu.err.str();
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.o"));
  options.cpu.clear();

  options.output = dir + "/missing/dir/p.o";
  Compiled unwritable("pendulum.eq", options);
  EXPECT_EQ(unwritable.code, ExitOutput);
  EXPECT_NE(unwritable.err.str().find("cannot write"), std::string::npos) << unwritable.err.str();
  // Nothing left behind: no temporary files.
  for (auto &entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << entry.path();
}

} // namespace
