// The HDF5 file of `eqc sweep`: the parameter table, per-run status and statistics, the chosen
// variables' trajectories on the common output grid, and summary statistics across runs
// (driver-internal; the layout is in README.md).
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace eqc {

/// What a study's file holds, fixed when it is created (a resumed study must match it).
struct SweepLayout {
  std::string model;
  std::vector<std::string> parameters;       ///< the design's names
  const std::vector<std::vector<double>> *runs = nullptr; ///< the design's rows
  std::vector<std::string> variables;        ///< the recorded variables
  std::vector<double> time;                  ///< the output grid (its last point is the stop time)
  bool finalOnly = false;                    ///< only the values at the end of each run
  std::vector<double> quantiles;             ///< the levels of the summary's quantiles, in (0, 1)
  /// A fingerprint of all of the above: a file resumes only the same study.
  std::uint64_t fingerprint() const;
};

/// What one run left.
struct RunResult {
  size_t run = 0;
  bool ok = false;
  int status = 0;      ///< the eqc_status
  std::string message; ///< why it failed ("" when ok)
  double seconds = 0;  ///< wall-clock time of the run
  double steps = 0, rejected = 0, rhsEvaluations = 0, events = 0;
  double endTime = 0;            ///< where the run ended
  std::vector<double> values;    ///< variable-major: variables x time points (finalOnly: empty)
  std::vector<double> finals;    ///< per variable, its value where the run ended
  /// Per variable, its trajectory as the file stores it (shuffled and deflated): made by
  /// SweepFile::pack on the worker's thread, so that compression runs on every core.
  std::vector<std::vector<unsigned char>> packed;
};

/// Run states in /runs/state.
enum class RunState8 : signed char { Pending = 0, Done = 1, Failed = 2 };

/// An open study file. Written under `<path>.partial` and flushed regularly, so that an
/// interrupted study keeps every finished run; finish() writes the summary and renames it to
/// `path`.
class SweepFile {
public:
  ~SweepFile();
  /// A new file for the layout (an old `<path>.partial` is replaced). nullptr with the reason.
  static std::unique_ptr<SweepFile> create(const std::string &path, const SweepLayout &layout, std::ostream &err);
  /// The `<path>.partial` of an interrupted study of the same layout; `done` gets each run's
  /// flag (finished, ok or failed). nullptr with the reason (no such file, another study).
  static std::unique_ptr<SweepFile> resume(const std::string &path, const SweepLayout &layout,
                                           std::vector<char> &done, std::ostream &err);
  /// Whether the summary comes from values kept in memory while a study of this layout runs
  /// (they fit the memory budget, and the study is not resumed), so write() wants them.
  static bool summarizesInMemory(const SweepLayout &layout, bool resumed);
  /// Compresses a run's trajectories for write() (thread-safe); frees `values` unless kept for
  /// the summary.
  static void pack(RunResult &result, size_t timePoints, bool keepValues);
  /// Writes finished runs (they count as finished in the file once flushed). False with the reason.
  bool write(std::vector<RunResult> &batch, std::ostream &err);
  /// Makes the file valid on disk with every run written so far. False with the reason.
  bool flush(std::ostream &err);
  /// What finish() leaves for the report.
  struct Summary {
    size_t ok = 0, failed = 0;
    /// Per variable, the statistics at the stop time: mean, std, min, max, then the quantiles.
    std::vector<std::vector<double>> final;
  };
  /// The summary across the successful runs (mean, std, min, max, quantiles per variable and
  /// time), then closes and renames the file into place. False with the reason.
  bool finish(Summary &summary, std::ostream &err);
  /// Closes the file as it is (an interrupted study), flushed and valid.
  void close();
  const std::string &partialPath() const { return partial_; }

private:
  using VariableSummaryRef = void *;
  /// The summary of variable v from the file, read back in blocks of time points.
  bool summarizeFromFile(size_t v, VariableSummaryRef out);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_, partial_;
};

} // namespace eqc
