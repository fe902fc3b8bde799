// Modelica libraries as files and directories (MLS 3.5, 13.2.2.2 `within`, 13.4 the mapping of
// packages to files): a library path from --lib and MODELICAPATH, read class by class as the
// model names them; `eqc simulate Lib.Sub.Model`; a file whose `within` puts it in a package.
#include "Run.h"

using namespace eqc::test;

namespace {

/// A library `MyLib` in `dir`: package directories, one class per file, a versioned top-level
/// directory name when `version` is set, and a file that does not parse, which no model uses.
void writeLibrary(const std::string &dir, const std::string &version = "") {
  const std::string root = dir + "/MyLib" + (version.empty() ? "" : " " + version);
  std::filesystem::create_directories(root + "/Electrical");
  std::filesystem::create_directories(root + "/Examples");
  writeFile(root + "/package.mo", "within;\npackage MyLib \"a small library\"\n  constant Real pi = 3.141592653589793;\n"
                                  "end MyLib;\n");
  writeFile(root + "/package.order", "Electrical\nExamples\nBroken\n");
  writeFile(root + "/Broken.mo", "within MyLib;\nmodel Broken\n  this is not Modelica\nend Broken;\n");
  writeFile(root + "/Electrical/package.mo",
            "within MyLib;\npackage Electrical\n  connector Pin\n    Real v;\n    flow Real i;\n  end Pin;\n"
            "end Electrical;\n");
  writeFile(root + "/Electrical/Resistor.mo", "within MyLib.Electrical;\nmodel Resistor\n  parameter Real R = 1;\n"
                                              "  Pin p, n;\nequation\n  p.v - n.v = R * p.i;\n  p.i + n.i = 0;\n"
                                              "end Resistor;\n");
  writeFile(root + "/Electrical/Capacitor.mo",
            "within MyLib.Electrical;\nmodel Capacitor\n  parameter Real C = 1;\n  Pin p, n;\n"
            "  Real v(start = 1, fixed = true);\nequation\n  v = p.v - n.v;\n  C * der(v) = p.i;\n  p.i + n.i = 0;\n"
            "end Capacitor;\n");
  writeFile(root + "/Electrical/Ground.mo", "within MyLib.Electrical;\nmodel Ground\n  Pin p;\nequation\n  p.v = 0;\n"
                                            "end Ground;\n");
  writeFile(root + "/Examples/package.mo", "within MyLib;\npackage Examples\nend Examples;\n");
  writeFile(root + "/Examples/RC.mo",
            "within MyLib.Examples;\nmodel RC \"v = exp(-t / (R C))\"\n  import MyLib.Electrical.*;\n"
            "  Resistor r(R = 2);\n  Capacitor c(C = 0.5);\n  Ground g;\n  Real check = MyLib.pi;\nequation\n"
            "  connect(r.p, c.p);\n  connect(r.n, c.n);\n  connect(c.n, g.p);\n"
            "  annotation(experiment(StopTime = 1, Interval = 0.25));\nend RC;\n");
}

void expectDischarge(const std::string &csvPath) {
  Csv csv = readCsv(csvPath);
  ASSERT_EQ(csv.rows.size(), 5u);
  for (size_t row = 0; row < csv.rows.size(); ++row) {
    EXPECT_NEAR(csv.at(row, "c.v"), std::exp(-csv.rows[row][0]), 1e-5);
    EXPECT_EQ(csv.at(row, "check"), 3.141592653589793);
  }
}

} // namespace

// The class named on the command line, from --lib, from MODELICAPATH and from a versioned
// directory ("MyLib 1.0", 13.4.2); only the 7 files the model names are read (Broken.mo, which
// does not parse, is never read).
TEST(Library, ClassesAreReadAsTheModelNamesThem) {
  std::string dir = scratchDir("library_path");
  writeLibrary(dir + "/libs");
  RunResult r = runEqc("simulate MyLib.Examples.RC --lib libs -o rc.csv --stats", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  EXPECT_NE(r.stderrText.find("library path: 7 files read"), std::string::npos) << r.stderrText;
  expectDischarge(dir + "/rc.csv");
  r = runEqc("simulate MyLib.Examples.RC -o rc2.csv", "' && export MODELICAPATH=/nonexistent:'" + dir + "/libs' && cd '" + dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  expectDischarge(dir + "/rc2.csv");
  // The package directory itself as the library.
  r = runEqc("simulate MyLib.Examples.RC --lib libs/MyLib -o rc3.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  expectDischarge(dir + "/rc3.csv");
  std::string versioned = scratchDir("library_versioned");
  writeLibrary(versioned, "1.0");
  r = runEqc("simulate MyLib.Examples.RC --lib . -o rc.csv", versioned);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  expectDischarge(versioned + "/rc.csv");
}

// A file with `within MyLib.Examples;` outside the library: its classes are members of that
// package (they see its names), and the last model of the file is simulated.
TEST(Library, AFileWithinAPackageSeesItsNames) {
  std::string dir = scratchDir("library_within");
  writeLibrary(dir + "/libs");
  writeFile(dir + "/Mine.mo", "within MyLib.Examples;\nmodel Mine\n  extends RC(r(R = 4));\nend Mine;\n");
  RunResult r = runEqc("simulate Mine.mo --lib libs -o mine.csv", dir);
  ASSERT_EQ(r.exitCode, 0) << r.stderrText;
  Csv csv = readCsv(dir + "/mine.csv");
  for (size_t row = 0; row < csv.rows.size(); ++row)
    EXPECT_NEAR(csv.at(row, "c.v"), std::exp(-csv.rows[row][0] / 2), 1e-5);
  // Without the library the package is not found.
  r = runEqc("check Mine.mo", dir);
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.stderrText.find("Mine.mo:1:1: error: package 'MyLib.Examples' of this 'within' clause is not found"),
            std::string::npos)
      << r.stderrText;
}

// Misplaced and missing classes are reported at their place: a file whose `within` disagrees
// with its directory, a class the library does not have, a name that is neither a file nor a
// class of the library path.
TEST(Library, MisplacedAndMissingClassesAreReported) {
  std::string dir = scratchDir("library_errors");
  writeLibrary(dir + "/libs");
  writeFile(dir + "/libs/MyLib/Electrical/Ground.mo",
            "within MyLib.Electric;\nmodel Ground\n  Pin p;\nequation\n  p.v = 0;\nend Ground;\n");
  RunResult r = runEqc("check MyLib.Examples.RC --lib libs", dir);
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.stderrText.find("Ground.mo:1:1: error: 'libs/MyLib/Electrical/Ground.mo' says 'within MyLib.Electric;' "
                              "but its place in the library is package 'MyLib.Electrical'"),
            std::string::npos)
      << r.stderrText;
  r = runEqc("check MyLib.Examples.RLC --lib libs", dir);
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.stderrText.find("library 'MyLib' has no class 'MyLib.Examples.RLC'"), std::string::npos) << r.stderrText;
  r = runEqc("check Other.Model --lib libs", dir);
  EXPECT_EQ(r.exitCode, 3);
  EXPECT_NE(r.stderrText.find("'Other.Model' is neither a file nor a class of the library path"), std::string::npos)
      << r.stderrText;
}
