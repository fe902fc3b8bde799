// Golden tests of `eqc reduce`: each tests/reduce/NAME.eq is reduced in every format and compared with
// NAME.txt, NAME.md and NAME.tex. A first line `// ARGS: <eqc arguments>` adds options (e.g.
// --stabilize baumgarte). EQC_UPDATE_GOLDEN=1 rewrites the expected files (review them before
// committing: they are the derivation a user reads).
#include "Run.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace fs = std::filesystem;
using namespace eqc::test;

namespace {

const fs::path kCorpus = fs::path(EQC_SOURCE_DIR) / "tests" / "reduce";

std::vector<std::string> models() {
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(kCorpus))
    if (entry.path().extension() == ".eq")
      names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Format {
  const char *option, *extension;
};
const Format kFormats[] = {{"text", ".txt"}, {"markdown", ".md"}, {"latex", ".tex"}};

/// Runs `eqc reduce --format F NAME.eq` in a scratch copy (so that paths in the output are short).
std::string reduce(const std::string &name, const Format &format, int &exitCode, std::string &messages) {
  std::string text = slurp(kCorpus / (name + ".eq"));
  std::string args;
  if (text.rfind("// ARGS: ", 0) == 0)
    args = text.substr(9, text.find('\n') - 9) + " ";
  std::string dir = scratchDir(std::string("reduce_") + name + "_" + format.option);
  fs::copy_file(kCorpus / (name + ".eq"), fs::path(dir) / (name + ".eq"));
  std::string out = dir + "/report";
  RunResult r = runEqc("reduce --format " + std::string(format.option) + " " + args + name + ".eq", dir, out);
  exitCode = r.exitCode;
  messages = r.stderrText;
  return slurp(out);
}

class ReduceGolden : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(ReduceGolden, MatchesGoldenFile) {
  const std::string name = std::get<0>(GetParam());
  const Format &format = kFormats[std::get<1>(GetParam())];
  int exitCode = -1;
  std::string messages;
  std::string actual = reduce(name, format, exitCode, messages);
  ASSERT_EQ(exitCode, 0) << messages;
  fs::path expectedPath = kCorpus / (name + format.extension);
  if (std::getenv("EQC_UPDATE_GOLDEN")) {
    std::ofstream(expectedPath, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(expectedPath)) << "missing " << expectedPath << "; actual output:\n" << actual;
  EXPECT_EQ(slurp(expectedPath), actual);
}

INSTANTIATE_TEST_SUITE_P(Reduce, ReduceGolden, ::testing::Combine(::testing::ValuesIn(models()), ::testing::Values(0, 1, 2)),
                         [](const auto &info) {
                           return std::get<0>(info.param) + "_" + kFormats[std::get<1>(info.param)].option;
                         });

TEST(ReduceCli, TextLinesFitIn100Columns) {
  for (const std::string &name : models()) {
    int exitCode = -1;
    std::string messages;
    std::istringstream report(reduce(name, kFormats[0], exitCode, messages));
    std::string line;
    int number = 0;
    while (std::getline(report, line)) {
      ++number;
      size_t width = static_cast<size_t>(
          std::count_if(line.begin(), line.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
      EXPECT_LE(width, 100u) << name << ".txt line " << number << ": " << line;
    }
  }
}

TEST(ReduceCli, RejectsAnUnknownFormat) {
  std::string dir = scratchDir("reduce_bad_format");
  RunResult r = runEqc("reduce --format html '" + example("pendulum.eq") + "'", dir);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.stderrText.find("unknown format 'html'"), std::string::npos) << r.stderrText;
}

TEST(ReduceCli, StructurallySingularModelFailsLikeCheck) {
  std::string dir = scratchDir("reduce_singular");
  std::ofstream(dir + "/singular.eq") << "model S\n  Real x, y;\nequation\n  x = 1;\n  2*x = 3;\nend S;\n";
  RunResult reduce = runEqc("reduce singular.eq", dir, dir + "/report");
  RunResult check = runEqc("check singular.eq", dir);
  EXPECT_EQ(reduce.exitCode, check.exitCode);
  EXPECT_NE(reduce.exitCode, 0);
  EXPECT_EQ(reduce.stderrText, check.stderrText);
  EXPECT_EQ(slurp(dir + "/report"), "");
}

} // namespace
