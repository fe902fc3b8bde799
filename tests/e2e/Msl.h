// The Modelica Standard Library for the tests that load it: found through the library path
// (EQC_MSL_DIR, then MODELICAPATH, then ../shared/msl-4.0.0 beside the sources); the tests skip,
// with a message, where it is absent (eqc does not ship it).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

namespace eqc::test {

/// The folder that holds Modelica/package.mo, or "".
inline std::string mslDirectory() {
  namespace fs = std::filesystem;
  auto holds = [](const std::string &dir) { return !dir.empty() && fs::exists(fs::path(dir) / "Modelica" / "package.mo"); };
  if (const char *dir = std::getenv("EQC_MSL_DIR"); dir && holds(dir))
    return dir;
  if (const char *path = std::getenv("MODELICAPATH")) {
    std::stringstream in(path);
    std::string dir;
    while (std::getline(in, dir, ':'))
      if (holds(dir))
        return dir;
  }
  const std::string beside = std::string(EQC_SOURCE_DIR) + "/../shared/msl-4.0.0";
  return holds(beside) ? fs::canonical(beside).string() : "";
}

} // namespace eqc::test

/// Skips the test where the library is absent; else declares `msl`, its folder.
#define EQC_REQUIRE_MSL()                                                                                              \
  const std::string msl = eqc::test::mslDirectory();                                                                   \
  if (msl.empty())                                                                                                     \
  GTEST_SKIP() << "the Modelica Standard Library 4.0.0 is not on the library path (set EQC_MSL_DIR or MODELICAPATH)"
