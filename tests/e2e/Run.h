// Helpers of the end-to-end tests: run build/eqc in a scratch directory, read its CSV output.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace eqc::test {

struct RunResult {
  int exitCode = -1;
  std::string stderrText;
};

/// A fresh directory per test under the build tree.
inline std::string scratchDir(const std::string &name) {
  std::filesystem::path dir = std::filesystem::path(EQC_SCRATCH_DIR) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

/// Runs `eqc <args>` in `cwd`; captures stderr (stdout is discarded unless `stdoutFile` is set).
inline RunResult runEqc(const std::string &args, const std::string &cwd, const std::string &stdoutFile = "/dev/null") {
  std::string cmd = "cd '" + cwd + "' && '" EQC_BINARY "' " + args + " 2>&1 1>'" + stdoutFile + "'; echo \"@exit=$?\"";
  RunResult r;
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0)
    r.stderrText.append(buf, n);
  pclose(pipe);
  size_t at = r.stderrText.rfind("@exit=");
  if (at != std::string::npos) {
    r.exitCode = std::atoi(r.stderrText.c_str() + at + 6);
    r.stderrText.erase(at);
  }
  return r;
}

/// A CSV file with a header row: column name → values.
struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  int column(const std::string &name) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name)
        return static_cast<int>(i);
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
  double at(size_t row, const std::string &name) const { return rows[row][column(name)]; }
  /// The times of the rows where column `name` changes sign (from the row before).
  std::vector<double> signChanges(const std::string &name) const {
    std::vector<double> times;
    for (size_t row = 1; row < rows.size(); ++row)
      if ((at(row, name) > 0) != (at(row - 1, name) > 0))
        times.push_back(at(row, "time"));
    return times;
  }
  /// The smallest and the largest value of column `name`.
  std::pair<double, double> range(const std::string &name) const {
    std::pair<double, double> r{INFINITY, -INFINITY};
    for (size_t row = 0; row < rows.size(); ++row)
      r = {std::min(r.first, at(row, name)), std::max(r.second, at(row, name))};
    return r;
  }
};

inline Csv readCsv(const std::string &path) {
  Csv csv;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::string line;
  if (std::getline(in, line)) { // names with commas are quoted: "m[1,2]"
    std::string item;
    bool quoted = false;
    for (char ch : line + ",") {
      if (ch == '"')
        quoted = !quoted;
      else if (ch == ',' && !quoted)
        csv.names.push_back(std::exchange(item, std::string()));
      else
        item += ch;
    }
  }
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    std::string item;
    while (std::getline(ss, item, ','))
      row.push_back(std::strtod(item.c_str(), nullptr));
    EXPECT_EQ(row.size(), csv.names.size()) << "ragged row: " << line;
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

/// Times that occur twice in a row (the left and right limit rows of an event).
inline std::vector<double> eventTimes(const Csv &csv) {
  std::vector<double> times;
  for (size_t i = 1; i < csv.rows.size(); ++i)
    if (csv.rows[i][0] == csv.rows[i - 1][0])
      times.push_back(csv.rows[i][0]);
  return times;
}

inline std::string example(const std::string &name) { return std::string(EQC_SOURCE_DIR) + "/examples/" + name; }

inline void writeFile(const std::string &path, const std::string &text) { std::ofstream(path) << text; }

/// The analytic solution of the seed 001 chain: x1 = 2 sin t, x2 = cos t, x3 = -sin t - cos t,
/// x4 = sin t - 2 cos t, x5 = 2 sin t, x6 = cos t.
inline double chainExact(int k, double t) {
  switch (k) {
  case 1: return 2 * std::sin(t);
  case 2: return std::cos(t);
  case 3: return -std::sin(t) - std::cos(t);
  case 4: return std::sin(t) - 2 * std::cos(t);
  case 5: return 2 * std::sin(t);
  default: return std::cos(t);
  }
}

/// Simulates example `example` of the library at `msl` with `options` (e.g. `--vars a,b`) in a
/// scratch directory of its own: its results, checked to have run to `tEnd`; empty (with the
/// failure recorded) where the run failed.
inline Csv simulateExample(const std::string &msl, const std::string &example, const std::string &options,
                           double tEnd) {
  const std::string dir = scratchDir("msl_" + example.substr(example.rfind('.') + 1));
  RunResult r = runEqc("simulate " + example + " --lib '" + msl + "' -o out.csv " + options, dir);
  if (r.exitCode != 0) {
    ADD_FAILURE() << example << " exited with " << r.exitCode << ": " << r.stderrText;
    return {};
  }
  Csv csv = readCsv(dir + "/out.csv");
  if (csv.rows.empty() || std::fabs(csv.at(csv.rows.size() - 1, "time") - tEnd) > 1e-9 * std::max(1.0, tEnd)) {
    ADD_FAILURE() << example << " did not run to " << tEnd;
    return {};
  }
  return csv;
}

} // namespace eqc::test
