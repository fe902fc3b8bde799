// `eqc sweep`: one compiled model, an ensemble of runs through eqc_sim on every core, results in
// one HDF5 file (driver/SweepFile.h) — grids, Monte Carlo samples and CSV parameter sets.
#pragma once

#include "driver/ExitCodes.h"
#include "driver/Pipeline.h"
#include "driver/Simulate.h"
#include "driver/SweepDesign.h"

#include <ostream>
#include <vector>

namespace eqc {

struct SweepOptions {
  DesignOptions design;
  int jobs = 0;            ///< worker threads (0: every core)
  bool finalOnly = false;  ///< keep only each run's end values
  bool summary = false;    ///< print the summary at the stop time on stdout
  bool resume = false;     ///< continue `<output>.partial`
  std::vector<double> quantiles{0.05, 0.5, 0.95};
};

/// Requires: a Compilation for which runPipeline returned ExitOk; sim.output names the HDF5 file.
/// Ensures: every run of the design simulated (one eqc_sim each, workers taking the next run as
/// they finish one), a failed run recorded with its message without stopping the others; the
/// file whole under sim.output, or after an interrupt every finished run in `<output>.partial`
/// (exit 128 + signal; --resume continues it).
ExitCode sweep(Compilation &c, const SimulateOptions &sim, const SweepOptions &opt, std::ostream &out,
               std::ostream &err);

} // namespace eqc
