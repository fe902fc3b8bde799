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
