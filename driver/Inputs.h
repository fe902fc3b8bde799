// The values of a model's inputs over time, read from a CSV file (`eqc simulate --input`).
#pragma once

#include "middle/FlatSystem.h"
#include "middle/OdeModel.h"

#include <ostream>
#include <string>
#include <vector>

namespace eqc {

/// Inputs as piecewise-linear functions of time: a header `time,u1,u2,...` naming inputs of the
/// model, then rows of numbers with non-decreasing times (a time given twice is a jump: before it
/// the first row holds, from it on the second). Before the first time and after the last the
/// end values hold. Inputs the file does not name keep their start values.
class InputSeries {
public:
  /// Reads `path` for `model`; false with `file:line:col: error: …` on `err` when it cannot.
  bool read(const std::string &path, const FlatSystem &flat, const OdeModel &model, std::ostream &err);
  /// Writes the inputs' values at time t into p (their parameter slots).
  void apply(double t, double *p) const;
  bool empty() const { return slots_.empty(); }
  /// The inputs of `model` that the file does not name.
  const std::vector<int> &missing() const { return missing_; }

private:
  std::vector<int> slots_;                 ///< per column after time: the input's index in p
  std::vector<double> times_;              ///< per row
  std::vector<std::vector<double>> values_; ///< per column, per row
  std::vector<int> missing_;
  mutable size_t last_ = 0;                ///< the row interval of the last lookup (times are mostly increasing)
};

} // namespace eqc
