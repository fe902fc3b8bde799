// External C functions (MLS 3.5, 12.9) end to end: Include code compiled with the model, libraries
// from the library directories and the system, the argument mappings of 12.9.1, ModelicaError of
// 12.9.6, the compiled-code cache following included headers, derivatives of C functions (implicit
// methods, index reduction); references are analytic solutions and the same models written
// without C.
#include "Run.h"

#include <map>
#include <sstream>

using namespace eqc::test;

namespace {

/// Runs a shell command; its exit status.
int shell(const std::string &command) { return std::system(command.c_str()); }

/// The time of the first "error: at time T:" in `text`, NaN if none.
double errorTime(const std::string &text) {
  size_t at = text.find("error: at time ");
  return at == std::string::npos ? NAN : std::strtod(text.c_str() + at + 15, nullptr);
}

} // namespace

// Include code with arrays by address and sizes (a matrix-vector product: the harmonic oscillator
// x'' = -4 x, x = cos 2t), Integer arrays in and out, libm by Library = "m" (erfc), and a start
// value computed by a C function while the model is translated (x(0) = twice(0.5) = 1).
TEST(ExternalFunctions, ArraysIntegersLibmAndStartValues) {
  std::string dir = scratchDir("external_arrays");
  writeFile(dir + "/m.mo", R"(model ExtArrays
  function matvec
    input Real A[:, :];
    input Real x[size(A, 2)];
    output Real y[size(A, 1)];
  external "C" mv(A, size(A, 1), size(A, 2), x, y) annotation(Include = "
#include <stddef.h>
void mv(const double *A, size_t m, size_t n, const double *x, double *y) {
  for (size_t i = 0; i < m; ++i) { y[i] = 0; for (size_t j = 0; j < n; ++j) y[i] += A[i*n + j] * x[j]; }
}");
  end matvec;
  function counts
    input Integer k[3];
    output Integer total;
    output Integer doubled[3];
  external "C" ints(k, total, doubled) annotation(Include = "
void ints(const int *k, int *total, int *d) { *total = k[0] + k[1] + k[2]; for (int i = 0; i < 3; ++i) d[i] = 2 * k[i]; }");
  end counts;
  function twice
    input Real x;
    output Real y;
  external "C" y = eqc_test_twice(x) annotation(Include = "double eqc_test_twice(double x) { return 2 * x; }");
  end twice;
  function erfc_
    input Real x;
    output Real y;
  external "C" y = erfc(x) annotation(Library = "m");
  end erfc_;
  parameter Real A[2, 2] = [0, 1; -4, 0];
  Real x[2](start = {twice(0.5), 0});
  Integer total;
  Integer d[3];
  Real e;
equation
  der(x) = matvec(A, x);
  (total, d) = counts({1, 2, 3});
  e = erfc_(time);
end ExtArrays;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 2 --method dopri5 --rtol 1e-10", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  ASSERT_GT(csv.rows.size(), 100u);
  for (size_t i = 0; i < csv.rows.size(); i += 37) {
    double t = csv.at(i, "time");
    EXPECT_NEAR(csv.at(i, "x[1]"), std::cos(2 * t), 1e-8) << t;
    EXPECT_NEAR(csv.at(i, "x[2]"), -2 * std::sin(2 * t), 2e-8) << t;
    EXPECT_NEAR(csv.at(i, "e"), std::erfc(t), 1e-15) << t;
    EXPECT_EQ(csv.at(i, "total"), 6);
    EXPECT_EQ(csv.at(i, "d[3]"), 6);
  }
}

// A C function's derivative is its central difference along the direction needed: radau5 (which
// needs the Jacobian) and the index-3 pendulum whose constraint calls C (differentiated twice by
// index reduction) give what the same models without C give.
TEST(ExternalFunctions, DerivativesOfCFunctions) {
  std::string dir = scratchDir("external_derivatives");
  const std::string sq = R"(
  function sq
    input Real x;
    output Real y;
  external "C" y = eqc_test_sq(x) annotation(Include = "double eqc_test_sq(double x) { return x * x; }");
  end sq;)";
  auto pendulum = [&](bool c) {
    return std::string("model Pendulum") + (c ? sq : "") + R"(
  parameter Real L = 1, g = 9.81;
  Real x(start = 1), y(start = 0), vx, vy, F;
equation
  der(x) = vx; der(y) = vy;
  der(vx) = -F * x; der(vy) = -F * y - g;
  )" + (c ? "sq(x) + sq(y)" : "x^2 + y^2") + " = L^2;\nend Pendulum;\n";
  };
  auto stiff = [&](bool c) {
    return std::string("model Stiff") + (c ? sq : "") + R"(
  Real u(start = 2);
equation
  der(u) = -1000 * ()" + (c ? "sq(u)" : "u^2") + " - cos(time)^2);\nend Stiff;\n";
  };
  for (int k = 0; k < 2; ++k) {
    writeFile(dir + "/p" + std::to_string(k) + ".mo", pendulum(k));
    writeFile(dir + "/s" + std::to_string(k) + ".mo", stiff(k));
  }
  for (const char *model : {"p", "s"}) {
    std::string args = std::string(" --t-end 3 --rtol 1e-8") + (model[0] == 's' ? " --method radau5" : "");
    RunResult plain = runEqc(std::string("simulate ") + model + "0.mo -o plain.csv" + args, dir);
    RunResult ext = runEqc(std::string("simulate ") + model + "1.mo -o ext.csv" + args, dir);
    ASSERT_EQ(plain.exitCode, 0) << plain.stderrText;
    ASSERT_EQ(ext.exitCode, 0) << ext.stderrText;
    Csv a = readCsv(dir + "/plain.csv"), b = readCsv(dir + "/ext.csv");
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (size_t i = 0; i < a.rows.size(); ++i)
      for (size_t j = 1; j < a.names.size(); ++j)
        EXPECT_NEAR(b.rows[i][j], a.rows[i][j], 1e-5 * (1 + std::fabs(a.rows[i][j])))
            << model << " " << a.names[j] << " at " << a.rows[i][0];
  }
  // The stiff one follows its slow manifold u = |cos t| where that attracts fast (|cos t| > 1/2:
  // a lag of about sin t / (2000 u) < 1e-3).
  Csv s = readCsv(dir + "/ext.csv");
  for (size_t i = 0; i < s.rows.size(); ++i) {
    double t = s.at(i, "time");
    if (t > 0.05 && std::fabs(std::cos(t)) > 0.5)
      EXPECT_NEAR(s.at(i, "u"), std::fabs(std::cos(t)), 1e-3) << t;
  }
}

// ModelicaError (12.9.6) in C stops the run where it is called, with its message, the function and
// the time; the results so far are kept. A warning goes on.
TEST(ExternalFunctions, ModelicaErrorStopsTheRun) {
  std::string dir = scratchDir("external_error");
  writeFile(dir + "/m.mo", R"(model Checked
  function checkedSqrt
    input Real x;
    output Real y;
  external "C" y = checkedSqrt(x) annotation(Include = "
#include \"ModelicaUtilities.h\"
#include <math.h>
double checkedSqrt(double x) {
  if (x < 0) ModelicaFormatError(\"checkedSqrt: negative argument %g\", x);
  if (x < 0.25) ModelicaWarning(\"checkedSqrt: small argument\");
  return sqrt(x);
}");
  end checkedSqrt;
  Real r = checkedSqrt(0.5 - time);
end Checked;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 1", dir);
  EXPECT_EQ(r.exitCode, 5) << r.stderrText;
  EXPECT_NE(r.stderrText.find("function 'Checked.checkedSqrt' failed: checkedSqrt: negative argument"),
            std::string::npos)
      << r.stderrText;
  EXPECT_NE(r.stderrText.find("warning: checkedSqrt: small argument"), std::string::npos) << r.stderrText;
  double t = errorTime(r.stderrText);
  EXPECT_GE(t, 0.5) << r.stderrText;
  EXPECT_LE(t, 0.51) << r.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.csv"));
  Csv partial = readCsv(dir + "/out.csv.partial");
  ASSERT_FALSE(partial.rows.empty());
  EXPECT_NEAR(partial.rows.back()[0], 0.5, 0.01);
  EXPECT_NEAR(partial.at(0, "r"), std::sqrt(0.5), 1e-15);
}

// IncludeDirectory defaults to modelica://Top/Resources/Include (12.9.4, 13.5); compiled code is
// cached and rebuilt when a header it includes changes. LibraryDirectory defaults to
// modelica://Top/Resources/Library, whose linux64 folder holds a shared and a static library.
TEST(ExternalFunctions, ResourcesHeadersAndLibraries) {
  std::string dir = scratchDir("external_resources");
  std::filesystem::create_directories(dir + "/Resources/Include");
  std::filesystem::create_directories(dir + "/Resources/Library/linux64");
  std::filesystem::create_directories(dir + "/cache");
  writeFile(dir + "/Resources/Include/k.h", "#define K 2.0\n");
  writeFile(dir + "/a.c", "double eqc_test_a(double x) { return x + 10; }\n");
  writeFile(dir + "/b.c", "double eqc_test_b(double x) { return x + 100; }\n");
  std::string lib = dir + "/Resources/Library/linux64";
  ASSERT_EQ(shell("cc -shared -fPIC -o '" + lib + "/libeqctesta.so' '" + dir + "/a.c'"), 0);
  ASSERT_EQ(shell("cc -c -fPIC -o '" + dir + "/b.o' '" + dir + "/b.c' && ar rcs '" + lib + "/libeqctestb.a' '" + dir +
                  "/b.o'"),
            0);
  writeFile(dir + "/Res.mo", R"(model Res
  function k
    input Real x;
    output Real y;
  external "C" y = eqc_test_k(x) annotation(Include = "#include \"k.h\"
double eqc_test_k(double x) { return K * x; }");
  end k;
  function a
    input Real x;
    output Real y;
  external "C" y = eqc_test_a(x) annotation(Library = "eqctesta");
  end a;
  function b
    input Real x;
    output Real y;
  external "C" y = eqc_test_b(x) annotation(Library = {"eqctestb"});
  end b;
  Real y = k(time);
  Real z = a(time) + b(time);
end Res;
)");
  setenv("EQC_CACHE_DIR", (dir + "/cache").c_str(), 1);
  RunResult first = runEqc("simulate Res.mo -o one.csv --t-end 1", dir);
  ASSERT_EQ(first.exitCode, 0) << first.stderrText;
  writeFile(dir + "/Resources/Include/k.h", "#define K 3.0 /* changed */\n");
  RunResult second = runEqc("simulate Res.mo -o two.csv --t-end 1", dir);
  ASSERT_EQ(second.exitCode, 0) << second.stderrText;
  RunResult third = runEqc("simulate Res.mo -o three.csv --t-end 1", dir);
  ASSERT_EQ(third.exitCode, 0) << third.stderrText;
  unsetenv("EQC_CACHE_DIR");
  Csv one = readCsv(dir + "/one.csv"), two = readCsv(dir + "/two.csv"), three = readCsv(dir + "/three.csv");
  size_t last = one.rows.size() - 1;
  EXPECT_DOUBLE_EQ(one.at(last, "y"), 2.0);
  EXPECT_DOUBLE_EQ(two.at(last, "y"), 3.0);
  EXPECT_DOUBLE_EQ(three.at(last, "y"), 3.0);
  EXPECT_DOUBLE_EQ(one.at(last, "z"), 112.0);
  // One build per content of k.h (the static library's code is built with the first).
  size_t builds = 0;
  for (auto &entry : std::filesystem::directory_iterator(dir + "/cache/external"))
    builds += entry.is_directory();
  EXPECT_EQ(builds, 2u);
}

// Include code that does not compile is an error at the external clause with the compiler's
// message; a library found nowhere is named.
TEST(ExternalFunctions, CodeThatDoesNotBuildIsReported) {
  std::string dir = scratchDir("external_bad_code");
  writeFile(dir + "/m.mo", R"(model Bad
  function f
    input Real x;
    output Real y;
  external "C" y = eqc_test_f(x) annotation(Include = "double eqc_test_f(double x) { return x + undeclared_name; }");
  end f;
  function g
    input Real x;
    output Real y;
  external "C" y = eqc_test_g(x) annotation(Library = "eqc_no_such_library");
  end g;
  Real y = f(time);
  Real z = g(time);
end Bad;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv", dir);
  EXPECT_EQ(r.exitCode, 3) << r.stderrText;
  EXPECT_NE(r.stderrText.find("m.mo:5:3: error: external function 'Bad.f': its Include code does not compile"),
            std::string::npos)
      << r.stderrText;
  EXPECT_NE(r.stderrText.find("undeclared_name"), std::string::npos) << r.stderrText;
  EXPECT_NE(r.stderrText.find("m.mo:10:3: error: external function 'Bad.g': C function 'eqc_test_g' not found "
                              "(library 'eqc_no_such_library' is neither in"),
            std::string::npos)
      << r.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.csv"));
}

namespace {

/// The lines of a text file.
std::vector<std::string> lines(const std::string &path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

/// A model with an external object (MLS 3.5, 12.9.7) whose C code, a library built from its
/// source (12.9.4), logs every object made and freed to the file the constructor is given.
void writeLoggedTableModel(const std::string &dir) {
  std::filesystem::create_directories(dir + "/Resources/Source");
  writeFile(dir + "/Resources/Source/logtable.c", R"(#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { double k; char log[256]; int id; } table;
static int made;
void *logtable_new(const char *log, double k) {
  table *t = malloc(sizeof *t);
  t->k = k;
  t->id = ++made;
  strncpy(t->log, log, sizeof t->log - 1);
  t->log[sizeof t->log - 1] = 0;
  FILE *f = fopen(t->log, "a");
  if (f) { fprintf(f, "new %p %g\n", (void *)t, k); fclose(f); }
  return t;
}
void logtable_free(void *p) {
  table *t = p;
  FILE *f = fopen(t->log, "a");
  if (f) { fprintf(f, "free %p\n", p); fclose(f); }
  free(t);
}
double logtable_at(void *p, double u) { return ((table *)p)->k * u * u; }
)");
  writeFile(dir + "/Logged.mo", R"(model Logged
  class Table
    extends ExternalObject;
    function constructor
      input String log;
      input Real k;
      output Table t;
    external "C" t = logtable_new(log, k) annotation(Library = "logtable");
    end constructor;
    function destructor
      input Table t;
    external "C" logtable_free(t) annotation(Library = "logtable");
    end destructor;
  end Table;
  function at
    input Table t;
    input Real u;
    output Real y;
  external "C" y = logtable_at(t, u) annotation(Library = "logtable");
  end at;
  parameter Real k = 1;
  parameter Table tab = Table("objects.log", k);
  Real x(start = 0, fixed = true);
equation
  der(x) = at(tab, time); // x = k t^3 / 3
end Logged;
)");
}

/// Whether every object a log names as made is freed once, and how many there were.
size_t balancedObjects(const std::vector<std::string> &log, std::string &why) {
  std::map<std::string, int> live;
  size_t made = 0;
  for (const std::string &line : log) {
    std::istringstream words(line);
    std::string what, address;
    words >> what >> address;
    if (what == "new") {
      ++made;
      if (live[address]++ != 0)
        why += "made twice without a free: " + address + "\n";
    } else if (what == "free" && live[address]-- != 1) {
      why += "freed but not live: " + address + "\n";
    }
  }
  for (auto &[address, count] : live)
    if (count != 0)
      why += "not freed: " + address + "\n";
  return made;
}

} // namespace

// External objects end to end (MLS 3.5, 12.9.7): the constructor's C code, a library built from
// its source in Resources/Source (12.9.4), runs when the model runs; a parameter change (-p)
// reaches the object; every object made is freed (the destructor) by `eqc simulate`, whichever
// method integrates; the FMU (an fmi2 importer's instantiate/free, here eqc's own co-simulation
// wrapper) does the same.
TEST(ExternalFunctions, ExternalObjectsAreMadeAndFreedByEveryRun) {
  std::string dir = scratchDir("external_objects");
  writeLoggedTableModel(dir);
  for (const char *method : {"dopri5", "radau5"}) {
    std::filesystem::remove(dir + "/objects.log");
    RunResult r = runEqc(std::string("simulate Logged.mo -p k=3 -o out.csv --t-end 2 --method ") + method, dir);
    ASSERT_EQ(r.exitCode, 0) << r.stderrText;
    Csv csv = readCsv(dir + "/out.csv");
    const size_t last = csv.rows.size() - 1;
    EXPECT_NEAR(csv.at(last, "x"), 3.0 * 8 / 3, 1e-5) << method;
    std::vector<std::string> log = lines(dir + "/objects.log");
    std::string why;
    EXPECT_GE(balancedObjects(log, why), 1u) << method;
    EXPECT_EQ(why, "") << method;
    for (const std::string &line : log)
      if (line.rfind("new", 0) == 0)
        EXPECT_NE(line.find(" 3"), std::string::npos) << "the constructor sees -p k=3: " << line;
  }
}

// A parameter of an external object class is not a value: -p refuses it with the reason.
TEST(ExternalFunctions, AnExternalObjectIsNoParameterValue) {
  std::string dir = scratchDir("external_objects_p");
  writeLoggedTableModel(dir);
  RunResult r = runEqc("simulate Logged.mo -p tab=1 -o out.csv", dir);
  EXPECT_EQ(r.exitCode, 1) << r.stderrText; // a bad command line
  EXPECT_NE(r.stderrText.find("-p tab=1: 'tab' is an external object (MLS 3.5, 12.9.7), made by its constructor when "
                              "the model runs"),
            std::string::npos)
      << r.stderrText;
}

// A library whose C source does not compile is reported at the external clause, naming the source
// file and the compiler's message.
TEST(ExternalFunctions, ALibraryWhoseSourceDoesNotCompileIsReported) {
  std::string dir = scratchDir("external_source_error");
  std::filesystem::create_directories(dir + "/Resources/Source");
  writeFile(dir + "/Resources/Source/broken.c", "double eqc_test_broken(double x) { return x + not_declared; }\n");
  writeFile(dir + "/m.mo", R"(model Broken
  function f
    input Real x;
    output Real y;
  external "C" y = eqc_test_broken(x) annotation(Library = "broken");
  end f;
  Real y = f(time);
end Broken;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv", dir);
  EXPECT_EQ(r.exitCode, 3) << r.stderrText;
  EXPECT_NE(r.stderrText.find("m.mo:5:3: error: external function 'Broken.f': library 'broken' does not compile from "
                              "its source Resources/Source/broken.c"),
            std::string::npos)
      << r.stderrText;
  EXPECT_NE(r.stderrText.find("not_declared"), std::string::npos) << r.stderrText;
}

// A library built from the sources its folder's readme.txt lists for it (the Modelica Standard
// Library's convention, Resources/C-Sources/readme.txt): its files and a folder's `*.c`, not the
// file "for Visual C++ on Windows" (which does not compile here), not another library's file; the
// sources sit next to the headers of IncludeDirectory.
TEST(ExternalFunctions, ALibraryIsBuiltFromTheFilesItsReadmeLists) {
  std::string dir = scratchDir("external_readme");
  const std::string src = dir + "/Resources/C-Sources";
  std::filesystem::create_directories(src + "/parts");
  writeFile(src + "/readme.txt", R"(All *.c files in this directory are compiled to these libraries

- EqcMain (.lib, .dll, .a, .so, depending on tool and OS) containing:
  main_a.c
  parts/*.c
  win_only.c (for Visual C++ on Windows)

- EqcOther (.a) containing:
  other.c
)");
  writeFile(src + "/eqc_main.h", "double eqc_main_a(double x);\ndouble eqc_main_b(double x);\n");
  writeFile(src + "/main_a.c", "#include \"eqc_main.h\"\ndouble eqc_main_a(double x) { return eqc_main_b(x) + 1; }\n");
  writeFile(src + "/parts/b.c", "double eqc_main_b(double x) { return 3 * x; }\n");
  writeFile(src + "/win_only.c", "#include <windows.h>\n");
  writeFile(src + "/other.c", "this is not C\n");
  writeFile(dir + "/Lib.mo", R"(package Lib
  function a
    input Real x;
    output Real y;
  external "C" y = eqc_main_a(x) annotation(Include = "#include \"eqc_main.h\"",
    IncludeDirectory = "modelica://Lib/Resources/C-Sources", Library = "EqcMain");
  end a;
  model M
    Real y = a(time);
  end M;
end Lib;
)");
  RunResult r = runEqc("simulate Lib.M --lib . -o out.csv --t-end 1", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_DOUBLE_EQ(csv.at(csv.rows.size() - 1, "y"), 4.0);
}

// A String result of an external function (MSL's Strings.substring, external "C"
// ModelicaStrings_substring) where the arguments are known when the model is compiled: eqc
// evaluates it by ModelicaStrings.c's rules (1 <= startIndex <= endIndex <= length, endIndex -999
// meaning startIndex), and the String decides structure (a transformer's vector group "Dyn5"
// selects the winding: here the decay rate of x' = -k x, x(1) = exp(-k)). Indices outside the
// string are an error at the call.
TEST(ExternalFunctions, StringResultsKnownWhenCompiledAreEvaluated) {
  std::string dir = scratchDir("external_substring");
  const std::string model = R"(model Group
  function substring
    input String string;
    input Integer startIndex(min = 1);
    input Integer endIndex(min = 1);
    output String result;
  external "C" result = ModelicaStrings_substring(string, startIndex, endIndex);
  end substring;
  constant String group = "Dyn5";
  constant String c1 = substring(group, 1, 1);
  constant String c2 = substring(group, 2, -999);
  constant String tail = substring(group, 3, 4);
  parameter Real k = if c1 == "D" and c2 == "y" and tail == "n5" then 2 else 3;
  Real x(start = 1, fixed = true);
equation
  der(x) = -k*x;
)";
  writeFile(dir + "/g.mo", model + "end Group;\n");
  RunResult r = runEqc("simulate g.mo --t-end 1 -o out.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_NEAR(csv.at(csv.rows.size() - 1, "x"), std::exp(-2.0), 1e-6);
  std::string text = model;
  text.replace(text.find("substring(group, 3, 4)"), 22, "substring(group, 3, 9)");
  writeFile(dir + "/bad.mo", text + "end Group;\n");
  RunResult bad = runEqc("simulate bad.mo -o bad.csv", dir);
  EXPECT_EQ(bad.exitCode, 3) << bad.stderrText;
  EXPECT_NE(bad.stderrText.find("bad.mo:12:26: error: 'Group.substring(\"Dyn5\", 3, 9)': the indices must satisfy 1 <= "
                                "startIndex <= endIndex <= 4 (the length of the string)"),
            std::string::npos)
      << bad.stderrText;
}

// MLS 3.5, 12.3 with 8.6: an impure function called in a when-clause runs once where its branch
// fires, although eqc's event iteration may evaluate the branch several times in one step (its
// passes with pre() fixed, the initialization's passes). The counter counts the calls; the
// branch at x = 0.5 also switches `fast`, which changes the conditions and so takes a second pass
// of the same step; `note` writes one line per call, an effect that cannot be taken back.
TEST(ExternalFunctions, ImpureCallsInWhenClausesRunOncePerEvent) {
  std::string dir = scratchDir("external_impure_once");
  writeFile(dir + "/m.mo", R"(model Once
  impure function counter "the number of calls so far, this one included"
    input Real t;
    output Integer n;
  external "C" n = onceTestCount(t) annotation(Include = "
static int calls = 0;
int onceTestCount(double t) { (void)t; return ++calls; }");
  end counter;
  impure function note "appends the time to notes.log"
    input Real t;
  external "C" onceTestNote(t) annotation(Include = "
#include <stdio.h>
void onceTestNote(double t) {
  FILE *f = fopen(\"notes.log\", \"a\");
  if (f) { fprintf(f, \"%.3f\\n\", t); fclose(f); }
}");
  end note;
  Real x(start = 0, fixed = true);
  Integer atStart(start = 0), atCrossing(start = 0);
  Boolean fast(start = false);
equation
  der(x) = if fast then 2 else 1;
  when initial() then
    atStart = counter(time);
  end when;
  when x > 0.5 then
    atCrossing = counter(time);
    fast = true;
  end when;
  when sample(0, 0.25) then
    note(time);
  end when;
end Once;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 0.9", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  const size_t last = csv.rows.size() - 1;
  EXPECT_EQ(csv.at(0, "atStart"), 1.0);
  EXPECT_EQ(csv.at(last, "atStart"), 1.0);
  EXPECT_EQ(csv.at(last, "atCrossing"), 2.0) << "the second call of the run";
  EXPECT_NEAR(csv.at(last, "x"), 0.5 + 2 * 0.4, 1e-6);
  EXPECT_EQ(lines(dir + "/notes.log"), (std::vector<std::string>{"0.000", "0.250", "0.500", "0.750"}));
}
