// Running a compiled model: parameters, consistent initialization, integration, CSV output.
#pragma once

#include "driver/ExitCodes.h"
#include "driver/Pipeline.h"
#include "runtime/include/eqc/eqc_runtime.h"

#include <cmath>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace eqc {

struct SimulateOptions {
  std::string output;   ///< CSV path; "-" for stdout
  std::string method = "auto";
  std::string linearSolver = "auto"; ///< implicit methods: auto | dense | sparse
  double tStart = NAN, tEnd = NAN, interval = NAN, dt = NAN, rtol = NAN, atol = NAN;
  long maxSteps = 0;
  std::vector<std::string> vars; ///< columns; empty: every declared unknown
  std::vector<std::pair<std::string, std::string>> parameters; ///< -p name=value
  bool stats = false;
  std::string plot; ///< SVG file of the written columns against time (empty: none)
  std::string input; ///< CSV of the inputs' values over time (empty: start values)
  bool quiet = false; ///< no progress bar
  bool binary = false; ///< write the .eqcres binary format (also chosen by an .eqcres file name)
  long every = 1;      ///< keep every N-th output row (and the last)
};

/// The integrator's options from the command line and the model's experiment annotation; a
/// usage error (reported) for an unknown method or solver or bad times and tolerances.
ExitCode runOptions(const Experiment &ex, const SimulateOptions &opt, eqc_options &o, eqc_linear_solver &linearSolver,
                    std::ostream &err);
/// The variables written (--vars, or the declared unknowns, inputs and discrete variables but
/// String ones) and the header line's names (time first). A String variable is written as its
/// text, in CSV only: where `numbers` (a file or sweep of numbers), naming one is a usage error.
ExitCode outputColumns(const FlatSystem &flat, const SimulateOptions &opt, std::vector<int> &columns,
                       std::vector<std::string> &header, bool numbers, std::ostream &err);

/// Requires: a Compilation for which runPipeline returned ExitOk.
/// Ensures: the CSV is written whole under its name (via a temporary file and rename), or, on a
/// failure during integration, the rows computed so far are under `<output>.partial`, the
/// message names the time and the variable or equation involved, and the exit code says which.
ExitCode simulate(Compilation &c, const SimulateOptions &options, std::ostream &err);

} // namespace eqc
