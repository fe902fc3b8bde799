// Golden tests of the bad-model corpus: each tests/diagnostics/NAME.eq has a first line
// `// RUN: <eqc arguments>` and NAME.expected holds the exit status and every message.
// EQC_UPDATE_GOLDEN=1 rewrites the expected files (review the diff before committing).
#include "Run.h"

#include <filesystem>

namespace fs = std::filesystem;
using namespace eqc::test;

namespace {

std::vector<std::string> corpus() {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(fs::path(EQC_SOURCE_DIR) / "tests" / "diagnostics"))
    if (entry.path().extension() == ".eq")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string slurp(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class Diagnostics : public ::testing::TestWithParam<std::string> {};

TEST_P(Diagnostics, MatchesGoldenFile) {
  const std::string name = GetParam();
  fs::path src = fs::path(EQC_SOURCE_DIR) / "tests" / "diagnostics";
  std::string text = slurp(src / (name + ".eq"));
  ASSERT_EQ(text.rfind("// RUN: ", 0), 0u) << name << ".eq must start with a // RUN: line";
  std::string args = text.substr(8, text.find('\n') - 8);
  std::string dir = scratchDir("diag_" + name);
  fs::copy_file(src / (name + ".eq"), fs::path(dir) / (name + ".eq"));
  RunResult r = runEqc(args + " " + name + ".eq", dir);
  std::string actual = "exit: " + std::to_string(r.exitCode) + "\n" + r.stderrText;
  fs::path expectedPath = src / (name + ".expected");
  if (std::getenv("EQC_UPDATE_GOLDEN")) {
    std::ofstream(expectedPath) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(expectedPath)) << "missing " << expectedPath << "; actual output:\n" << actual;
  EXPECT_EQ(slurp(expectedPath), actual);
  EXPECT_NE(r.exitCode, 0) << "a bad model must fail";
  // A failed run never leaves a result file under the requested name.
  EXPECT_FALSE(fs::exists(fs::path(dir) / (name + ".csv")));
}

INSTANTIATE_TEST_SUITE_P(Corpus, Diagnostics, ::testing::ValuesIn(corpus()),
                         [](const auto &info) { return info.param; });

} // namespace

// Deep nesting is either handled (eqc runs on a 1 GiB stack) or reported at its place with exit
// status 3, never a crash: 10^5 parentheses compile, one more is an error; a sum of 250,001
// terms is an error, one of 100,000 compiles.
TEST(Diagnostics, DeepNestingIsHandledOrReported) {
  std::string dir = scratchDir("deep");
  auto model = [](const std::string &rhs) {
    return "model Deep\n  Real x(start = 1);\nequation\n  der(x) = " + rhs + ";\nend Deep;\n";
  };
  auto parens = [](size_t n) { return std::string(n, '(') + "x" + std::string(n, ')'); };
  auto sum = [](size_t n) {
    std::string s = "x";
    for (size_t i = 1; i < n; ++i)
      s += "+x";
    return "-1e-9*(" + s + ")";
  };
  writeFile(dir + "/parens.eq", model(parens(100000)));
  RunResult ok = runEqc("check parens.eq", dir);
  EXPECT_EQ(ok.exitCode, 0) << ok.stderrText.substr(0, 500);
  writeFile(dir + "/parens2.eq", model(parens(100001)));
  RunResult deep = runEqc("check parens2.eq", dir);
  EXPECT_EQ(deep.exitCode, 3);
  EXPECT_NE(deep.stderrText.find("parens2.eq:4:100012: error: expression nested too deeply: more than 100000 levels"),
            std::string::npos)
      << deep.stderrText.substr(0, 500);
  writeFile(dir + "/sum.eq", model(sum(100000)));
  RunResult longSum = runEqc("simulate sum.eq --t-end 0.01 -o sum.csv", dir);
  EXPECT_EQ(longSum.exitCode, 0) << longSum.stderrText.substr(0, 500);
  writeFile(dir + "/sum2.eq", model(sum(250001)));
  RunResult tooLong = runEqc("check sum2.eq", dir);
  EXPECT_EQ(tooLong.exitCode, 3);
  EXPECT_NE(tooLong.stderrText.find("error: expression too deep: more than 250000 nested operations"), std::string::npos)
      << tooLong.stderrText.substr(0, 500);
}

// Many declarations: linear work and a short message (the unknowns listed up to a limit), no
// blow-up. 10^5 here for CI's time; 10^6 takes about 6 s and 1.9 GB (README, issue notes).
TEST(Diagnostics, ManyDeclarationsGiveOneShortMessage) {
  std::string dir = scratchDir("declarations");
  std::string text = "model Many\n";
  for (int i = 0; i < 100000; ++i)
    text += "  Real x" + std::to_string(i) + ";\n";
  text += "equation\n  x0 = 1;\nend Many;\n";
  writeFile(dir + "/many.eq", text);
  RunResult r = runEqc("check many.eq", dir);
  EXPECT_EQ(r.exitCode, 3) << r.stderrText.substr(0, 500);
  EXPECT_NE(r.stderrText.find("error:"), std::string::npos) << r.stderrText.substr(0, 500);
  EXPECT_NE(r.stderrText.find("x18, x19, ..."), std::string::npos) << r.stderrText.substr(0, 500);
  EXPECT_LT(r.stderrText.size(), 2000u);
}

// Out of memory is reported with its own status (7), not as a crash: a model that needs more
// memory than the address-space limit allows (2,000 pendula take about 450 MB of address space
// since the constraint Jacobians are sparse, more than 1.6 GB before; a small model runs in
// 200 MB). Not under AddressSanitizer, whose shadow memory needs far more address space.
#if !defined(__SANITIZE_ADDRESS__)
TEST(Diagnostics, OutOfMemoryHasItsOwnStatusAndMessage) {
  std::string dir = scratchDir("out_of_memory");
  std::string text = "model Many\n  parameter Real L = 1, g = 9.81;\n";
  for (int i = 0; i < 2000; ++i) {
    std::string k = std::to_string(i);
    text += "  Real x" + k + "(start = 0.1, fixed = true), y" + k + "(start = -0.99), u" + k +
            "(start = 0, fixed = true), w" + k + ", l" + k + ";\n";
  }
  text += "equation\n";
  for (int i = 0; i < 2000; ++i) {
    std::string k = std::to_string(i);
    text += "  der(x" + k + ") = u" + k + "; der(y" + k + ") = w" + k + "; der(u" + k + ") = -l" + k + "*x" + k +
            "; der(w" + k + ") = -l" + k + "*y" + k + " - g; x" + k + "^2 + y" + k + "^2 = L^2;\n";
  }
  text += "end Many;\n";
  writeFile(dir + "/many.eq", text);
  RunResult r = runEqc("simulate many.eq --t-end 1e-6 -o many.csv --no-cache", dir + "' && ulimit -v 300000 && cd '" + dir);
  EXPECT_EQ(r.exitCode, 7) << r.stderrText.substr(0, 500);
  EXPECT_NE(r.stderrText.find("eqc: error: out of memory"), std::string::npos) << r.stderrText.substr(0, 500);
  EXPECT_FALSE(std::filesystem::exists(dir + "/many.csv"));
}
#endif
