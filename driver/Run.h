// The two ways `eqc simulate` runs a model: through the runtime's engine (eqc_sim, every model
// but one kind), or, for dummy derivatives with dynamic state selection, in segments of compiled
// state selections (driver/StateSelection.cpp) until that monitoring moves behind eqc_sim too.
#pragma once

#include "driver/ExitCodes.h"
#include "driver/Inputs.h"
#include "driver/Pipeline.h"
#include "driver/RunState.h"
#include "runtime/include/eqc/eqc_runtime.h"
#include "runtime/src/EventIteration.h"

#include <memory>
#include <ostream>
#include <vector>

namespace eqc {

struct SimulateOptions;

/// What a run leaves for the report.
struct RunOutcome {
  int status = EQC_OK; ///< the integration's eqc_status
  eqc_stats stats{};
  std::vector<double> x;  ///< the states where the run ended (of *active)
  std::vector<double> dx; ///< their derivatives there (empty when the model fails there)
  const OdeModel *active = nullptr;
  /// Index-reduced models: the largest invariant residual at an output point, when and which.
  double worstInvariant = 0, worstInvariantTime = 0;
  int worstInvariantIndex = -1;
  long projections = 0;
  const rt::EventIteration *events = nullptr; ///< models with events: counts, log, failures
  const std::vector<int> *discretes = nullptr;  ///< the flat variables of the events' discrete indices
  std::vector<int> indicatorVariable;         ///< per event indicator: its condition's flat variable
  const DummyRun *dummy = nullptr;            ///< dummy derivatives: selections and switches
  int failedAssertion = -1;                   ///< EQC_ERR_ASSERTION: the flat assertion, and its message
  std::string assertMessage;
  double assertTime = 0;
};

/// One run from o.t_start to o.t_end, rows written through a RunState.
class Run {
public:
  virtual ~Run() = default;
  /// The consistent initial point at o.t_start (failures reported with their place, and the exit
  /// code); `values` gets every flat variable's value there, `states` the states'.
  virtual ExitCode initialize(std::vector<double> &values, std::vector<double> &states, std::ostream &err) = 0;
  /// Requires: initialize succeeded; s set up for output (file, columns) with s.variableAtol.
  /// Ensures: `r` filled; ExitOk, or the exit code of a failure already reported that is not an
  /// integration status (a state selection that cannot be compiled).
  virtual ExitCode integrate(RunOutcome &r, std::ostream &err) = 0;

  Run(Compilation &c, const SimulateOptions &opt, eqc_options &o, RunState &s, const InputSeries *inputs)
      : c_(c), opt_(opt), o_(o), s_(s), inputs_(inputs) {}

protected:

  Compilation &c_;
  const SimulateOptions &opt_;
  eqc_options &o_; ///< the integrator's options (a run may bound h_max)
  RunState &s_;    ///< the output and the state the driver's callbacks share
  const InputSeries *inputs_;
};

/// The run of `c` for these options: dummy derivatives in segments, anything else through eqc_sim.
/// Requires: `c`, `opt`, `o`, `s` and `inputs` (may be null) outlive the run; s.jit, s.columns,
/// s.linearSolver and s.slots set.
std::unique_ptr<Run> makeRun(Compilation &c, const SimulateOptions &opt, eqc_options &o, RunState &s,
                             const InputSeries *inputs);

} // namespace eqc
