// The conformance models of tests/conformance/ (one folder per chapter of the Modelica Language
// Specification 3.5): each says what it expects in its header (`// EXPECT: simulate` or
// `// EXPECT: error TEXT`, optionally `// ARGS: ...`); see tests/conformance/README.md.
#include "Run.h"

#include <filesystem>

namespace fs = std::filesystem;
using namespace eqc::test;

namespace {

const fs::path &root() {
  static const fs::path path = fs::path(EQC_SOURCE_DIR) / "tests" / "conformance";
  return path;
}

/// "chapter/name" of every model (the folders' libraries, `lib/`, excluded).
std::vector<std::string> models() {
  std::vector<std::string> names;
  for (const auto &entry : fs::recursive_directory_iterator(root())) {
    fs::path rel = fs::relative(entry.path(), root());
    if (entry.path().extension() != ".mo" || rel.string().find("/lib/") != std::string::npos)
      continue;
    names.push_back(rel.replace_extension().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// The value of the header line `// KEY: value` ("" when absent).
std::string header(const std::string &text, const std::string &key) {
  const std::string marker = "// " + key + ": ";
  size_t at = text.find(marker);
  if (at == std::string::npos)
    return "";
  size_t end = text.find('\n', at);
  return text.substr(at + marker.size(), end == std::string::npos ? std::string::npos : end - at - marker.size());
}

class Conformance : public ::testing::TestWithParam<std::string> {};

TEST_P(Conformance, BehavesAsItsHeaderSays) {
  const fs::path file = root() / (GetParam() + ".mo");
  std::ifstream in(file, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(text.find("// MLS 3.5, "), std::string::npos) << file << " must cite the section it checks";
  const std::string expect = header(text, "EXPECT");
  std::string args = header(text, "ARGS");
  for (size_t at = args.find("{dir}"); at != std::string::npos; at = args.find("{dir}"))
    args.replace(at, 5, file.parent_path().string());
  std::string name = GetParam();
  std::replace(name.begin(), name.end(), '/', '_');
  const std::string dir = scratchDir("conformance_" + name);
  RunResult r = runEqc("simulate '" + file.string() + "' -o out.csv " + args, dir);
  if (expect == "simulate") {
    EXPECT_EQ(r.exitCode, 0) << r.stderrText;
    EXPECT_TRUE(fs::exists(dir + "/out.csv"));
  } else {
    ASSERT_EQ(expect.rfind("error ", 0), 0u) << file << ": EXPECT is 'simulate' or 'error TEXT', not '" << expect << "'";
    EXPECT_NE(r.exitCode, 0) << r.stderrText;
    EXPECT_NE(r.stderrText.find(expect.substr(6)), std::string::npos) << r.stderrText;
    EXPECT_EQ(r.stderrText.find("internal error"), std::string::npos) << r.stderrText;
  }
}

INSTANTIATE_TEST_SUITE_P(Mls, Conformance, ::testing::ValuesIn(models()), [](const auto &info) {
  std::string n = info.param;
  std::replace(n.begin(), n.end(), '/', '_');
  return n;
});

} // namespace
