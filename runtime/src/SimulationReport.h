// What eqc simulate's report reads from an eqc_sim beyond the C API (the runtime is linked into
// the driver; embedders use eqc_model.h alone).
#ifndef EQC_RUNTIME_SIMULATION_REPORT_H
#define EQC_RUNTIME_SIMULATION_REPORT_H

#include "EventIteration.h"
#include "eqc/eqc_model.h"

namespace eqc::rt {

struct SimulationReport {
  const EventIteration *events = nullptr; ///< models with events: the conditions, counts and log
  long projections = 0;                   ///< projections onto the invariants so far
  /// Where the largest invariant residual at an output point of the last run was (eqc_sim_stats),
  /// and which invariant (-1: none).
  double worstInvariantTime = 0;
  int worstInvariantIndex = -1;
  /// The model or stop code (StopCodes.h) behind the last failure, without EQC_RHS_RETRY; 0 when
  /// the failure was an eqc_status alone (or none).
  int failureCode = 0;
};

/// Requires: `sim` valid. The report stays valid until the simulation changes.
SimulationReport simulationReport(const eqc_sim *sim);
/// Keeps every event in the report's events->log() from now on.
void keepEventLog(eqc_sim *sim);

} // namespace eqc::rt

#endif // EQC_RUNTIME_SIMULATION_REPORT_H
