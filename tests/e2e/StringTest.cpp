// Strings that functions compute when they run (MLS 3.5: 3.6.6 concatenation, 3.5 relations of
// Strings, 3.7.1 String(), 12.2 String outputs and locals, 12.9.1.1 String arguments and results
// of external functions): in generated code, in the interpreter that evaluates calls while the
// model is compiled, and their texts checked against the same texts formatted here with printf.
#include "Run.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace eqc::test;

namespace {

/// The length of "x=<x as %.3g>|1|2|...|n", what the model's label(x, n) spells.
int labelLength(double x, int n) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "x=%.3g", x);
  std::string s = buffer;
  for (int i = 1; i <= n; ++i)
    s += "|" + std::to_string(i);
  return static_cast<int>(s.size());
}

} // namespace

// label(x, n) builds a String in a loop (a String output, concatenation, String() of a Real and an
// Integer); count() keeps it in a protected String, passes it to a C function (strlen) and
// compares it with a literal. y = count(time, 3) in the equations (generated code, every step), k
// at the samples, and p = count(2.5, 2) = length("x=2.5|1|2") = 9 evaluated while compiling (it
// sizes z).
TEST(Strings, FunctionsBuildPassAndCompareStringsWhenTheyRun) {
  std::string dir = scratchDir("strings_in_functions");
  writeFile(dir + "/m.mo", R"(model S
  function label
    input Real x;
    input Integer n;
    output String s;
  algorithm
    s := "x=" + String(x, significantDigits = 3);
    for i in 1:n loop
      s := s + "|" + String(i);
    end for;
  end label;
  function lengthOf
    input String s;
    output Integer n;
  external "C" n = strlen(s) annotation(Include = "#include <string.h>");
  end lengthOf;
  function count
    input Real x;
    input Integer n;
    output Integer len;
  protected
    String t;
  algorithm
    t := label(x, n);
    len := lengthOf(t);
    if t == "x=0.5|1|2|3" then
      len := -len;
    end if;
  end count;
  parameter Integer p = count(2.5, 2);
  Real z[p](each start = 1, each fixed = true);
  Real y;
  Integer k(start = 0, fixed = true);
equation
  der(z) = -z;
  y = count(time, 3);
  when sample(0, 0.25) then
    k = count(time, integer(time*4));
  end when;
end S;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 1 --interval 0.125", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_EQ(csv.names.size(), 1u + 9u + 2u) << "p = 9 columns of z";
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    const double t = csv.at(row, "time");
    const int expected = t == 0.5 ? -labelLength(0.5, 3) : labelLength(t, 3);
    EXPECT_EQ(csv.at(row, "y"), expected) << "at t = " << t;
  }
  // The sample at t = 0.75 gives count(0.75, 3) = length("x=0.75|1|2|3"), until the one at 1.
  const size_t beforeEnd = csv.rows.size() - 2;
  EXPECT_EQ(csv.at(beforeEnd, "time"), 1.0);
  EXPECT_EQ(csv.at(beforeEnd, "k"), labelLength(0.75, 3));
  EXPECT_EQ(csv.at(csv.rows.size() - 1, "k"), labelLength(1, 4));
}

// String() of each kind (MLS 3.5, 3.7.1): an Integer right-justified to a minimum length, a Real
// with a format, a Boolean and an enumeration literal, checked inside the model against the texts
// printf gives; a String a C function returns (valid only until the next external call, so kept)
// read back by another C function after a third call.
TEST(Strings, StringConversionsAndCFunctionResults) {
  std::string dir = scratchDir("string_conversions");
  writeFile(dir + "/m.mo", R"(model Conversions
  type Color = enumeration(red, green, blue);
  function greeting
    input Integer k;
    output String s;
  external "C" s = eqc_test_greeting(k) annotation(Include = "
#include <stdio.h>
#include \"ModelicaUtilities.h\"
const char *eqc_test_greeting(int k) {
  char *s = ModelicaAllocateString(32);
  snprintf(s, 33, \"hello %d\", k);
  return s;
}");
  end greeting;
  function width
    input String s;
    output Integer n;
  external "C" n = strlen(s) annotation(Include = "#include <string.h>");
  end width;
  function texts
    input Integer i;
    input Real x;
    input Boolean b;
    input Color c;
    output Integer ok;
  protected
    String g;
  algorithm
    g := greeting(i);
    ok := (if String(i, minimumLength = 6, leftJustified = false) == "    42" then 1 else 0)
        + (if String(x, format = "8.3f") == "   3.142" then 2 else 0)
        + (if String(b) == "true" then 4 else 0)
        + (if String(c) == "green" then 8 else 0)
        + (if width(greeting(7)) == 7 and g == "hello 42" then 16 else 0);
  end texts;
  Real ok;
equation
  ok = texts(integer(42 + time), 3.14159 + 1e-6*time, time >= 0, if time >= 0 then Color.green else Color.red);
end Conversions;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 0.5 --interval 0.25", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  for (size_t row = 0; row < csv.rows.size(); ++row)
    EXPECT_EQ(csv.at(row, "ok"), 31) << "at t = " << csv.at(row, "time")
                                     << " (a missing bit is a wrong text)";
}

// A String output at a model's level of values known when the model is compiled is evaluated then
// (a String parameter's binding); one that reads a value that changes in time is computed when the
// model runs (MLS 3.5, 3.8: an expression of the model like any other): y = strlen(String(time)).
TEST(Strings, ModelLevelStringResultsAreKnownWhenCompiledOrComputedWhenRun) {
  std::string dir = scratchDir("string_model_level");
  writeFile(dir + "/m.mo", R"(model Level
  function label
    input Real x;
    output String s;
  algorithm
    s := "x = " + String(x);
  end label;
  parameter Real a = 1.5;
  parameter String l = label(2*a);
  Real y(start = 1, fixed = true);
equation
  der(y) = if l == "x = 3" then -y else y;
end Level;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 1", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/out.csv");
  EXPECT_NEAR(csv.at(csv.rows.size() - 1, "y"), std::exp(-1.0), 1e-5);

  writeFile(dir + "/running.mo", R"(model Running
  function label
    input Real x;
    output String s;
  algorithm
    s := String(x);
  end label;
  function lengthOf
    input String s;
    output Integer n;
  external "C" n = strlen(s) annotation(Include = "#include <string.h>");
  end lengthOf;
  Real y = lengthOf(label(time));
end Running;
)");
  r = runEqc("simulate running.mo -o running.csv --t-end 1 --interval 0.25", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  csv = readCsv(dir + "/running.csv");
  ASSERT_EQ(csv.rows.size(), 5u);
  const double lengths[] = {1, 4, 3, 4, 1}; // "0", "0.25", "0.5", "0.75", "1"
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(csv.at(i, "y"), lengths[i]) << "time " << csv.at(i, "time");
}

// A model passes a function a String made of values that change in time (MLS 3.5, 3.7.1 String()
// and 3.6.6 `+` in an argument, an if-expression between Strings): it is computed when the call is
// made, in a function of its values (which releases it). The message of the crossing of x = e^-t
// below 1/2 gives t = ln 2 to 4 digits and the value n has just been given; `report` is impure
// (12.3), so the event iteration calls it once.
TEST(Strings, ModelsPassStringsMadeOfChangingValues) {
  std::string dir = scratchDir("string_model_arguments");
  writeFile(dir + "/m.mo", R"mo(model Crossing
  impure function report
    input String s;
  external "C" eqc_test_report(s) annotation(Include = "
#include \"ModelicaUtilities.h\"
void eqc_test_report(const char *s) { ModelicaFormatMessage(\"report: %s\\n\", s); }");
  end report;
  Real x(start = 1, fixed = true);
  Integer n(start = 0, fixed = true);
algorithm
  when x < 0.5 then
    n := 5;
    report("crossed at " + String(time, significantDigits = 4) + ", n = " + String(n) +
           (if n > 2 then " (big)" else " (small)"));
  end when;
equation
  der(x) = -x;
end Crossing;
)mo");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 1", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("report: crossed at 0.6931, n = 5 (big)\n"), std::string::npos) << r.stderrText;
  EXPECT_EQ(r.stderrText.find("report:"), r.stderrText.rfind("report:")) << "reported once: " << r.stderrText;
}

// An assert in a function whose message shows values of the function (String(x), String(k))
// fails with the message as the function computes it (MLS 3.5, 8.3.7 with 3.7.1): x = t reaches
// 0.5 at t = 0.5, where k = integer(10 x) = 5.
TEST(Strings, AssertMessagesInFunctionsShowTheirValues) {
  std::string dir = scratchDir("string_assert_messages");
  writeFile(dir + "/m.mo", R"(model FunctionAssert
  function checked
    input Real x;
    output Real y;
  protected
    Integer k = integer(10*x);
  algorithm
    assert(x < 0.5, "x = " + String(x, significantDigits = 3) + " (k = " + String(k) + ") is too large");
    y := -x;
  end checked;
  Real x(start = 0, fixed = true);
equation
  der(x) = 1 + 1e-9*checked(x);
end FunctionAssert;
)");
  RunResult r = runEqc("simulate m.mo -o out.csv --t-end 1", dir);
  EXPECT_EQ(r.exitCode, 5) << r.stderrText;
  EXPECT_NE(r.stderrText.find("m.mo:8:5: error: at time 0.5: assertion failed in function 'FunctionAssert.checked': "
                              "x = 0.5 (k = 5) is too large"),
            std::string::npos)
      << r.stderrText;
}

namespace {

std::string slurpFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

// String variables (MLS 3.5, 3.8.3 and 4.8.4) hold their texts as handles that the run makes:
// named in --vars they are written as their texts, quoted by RFC 4180 (a quote doubled, a comma
// kept); they are in no default column and in no file of numbers (MAT); the object the cache
// serves to a second process gives the same texts (nothing of the first process's handles is in
// the code). x = e^-t crosses 1/2 at t = ln 2.
TEST(Strings, StringVariablesAreWrittenAsTheirTextsInEveryProcess) {
  std::string dir = scratchDir("string_variables");
  writeFile(dir + "/m.mo", R"(model Phases
  Real x(start = 1, fixed = true);
  String phase(start = "full");
  Integer n(start = 0);
equation
  der(x) = -x;
  when x < 0.5 then
    phase = "say \"half\", then " + String(pre(n) + 1);
    n = pre(n) + 1;
  end when;
end Phases;
)");
  ASSERT_EQ(setenv("EQC_CACHE_DIR", (dir + "/cache").c_str(), 1), 0);
  RunResult first = runEqc("simulate m.mo -o a.csv --vars x,phase,n --interval 0.5 --t-end 1 --stats", dir);
  RunResult second = runEqc("simulate m.mo -o b.csv --vars x,phase,n --interval 0.5 --t-end 1 --stats", dir);
  unsetenv("EQC_CACHE_DIR");
  ASSERT_EQ(first.exitCode, 0) << first.stderrText;
  ASSERT_EQ(second.exitCode, 0) << second.stderrText;
  EXPECT_NE(second.stderrText.find("compiled-model cache: 1 module from it, 0 stored"), std::string::npos)
      << second.stderrText;
  const std::string text = slurpFile(dir + "/a.csv");
  EXPECT_EQ(text, slurpFile(dir + "/b.csv"));
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 6u) << text; // 0, 0.5, the event at ln 2 (before and after), 1
  EXPECT_EQ(lines[0], "time,x,phase,n");
  EXPECT_EQ(lines[1], "0,1,\"full\",0");
  EXPECT_EQ(lines[2].substr(0, 4), "0.5,");
  EXPECT_NE(lines[2].find(",\"full\",0"), std::string::npos) << lines[2];
  EXPECT_NEAR(std::stod(lines[3]), std::log(2.0), 1e-6) << lines[3];
  EXPECT_NE(lines[3].find(",\"full\",0"), std::string::npos) << lines[3];
  EXPECT_EQ(lines[4].substr(0, lines[4].find(',')), lines[3].substr(0, lines[3].find(',')));
  EXPECT_NE(lines[4].find(",\"say \"\"half\"\", then 1\",1"), std::string::npos) << lines[4];
  EXPECT_NE(lines[5].find("1,0.3678794"), std::string::npos) << lines[5];
  EXPECT_NE(lines[5].find(",\"say \"\"half\"\", then 1\",1"), std::string::npos) << lines[5];

  RunResult all = runEqc("simulate m.mo -o all.csv --t-end 1", dir);
  ASSERT_EQ(all.exitCode, 0) << all.stderrText;
  EXPECT_EQ(slurpFile(dir + "/all.csv").substr(0, 11), "time,x,n\n0,");

  RunResult mat = runEqc("simulate m.mo -o r.mat --vars phase --t-end 1", dir);
  EXPECT_EQ(mat.exitCode, 1);
  EXPECT_NE(mat.stderrText.find(
                "error: --vars: 'phase' is a String variable: its text is written to CSV results only"),
            std::string::npos)
      << mat.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir + "/r.mat"));
}
