// What eqc simulate's driver uses of an eqc_sim beyond the C API (the runtime is linked into the
// driver; embedders use eqc_model.h alone): the report's details, and what dummy derivatives with
// dynamic state selection need to run their segments on one simulation — the compiler chooses
// and compiles each state selection, the runtime runs it.
#ifndef EQC_RUNTIME_SIMULATION_DRIVER_H
#define EQC_RUNTIME_SIMULATION_DRIVER_H

#include "EventIteration.h"
#include "eqc/eqc_model.h"

#include <functional>
#include <string>
#include <vector>

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
  /// Whether rhs succeeded at the last accepted step (GuessPolicy::Accepted: before the step
  /// callback) and where the last run ended: eqc_sim_derivatives/algebraics hold its values.
  bool acceptedPointValid = false, endPointValid = false;
  /// The assertion whose failure ended the last run or initialization (-1: none) and its message.
  int failedAssertion = -1;
  std::string assertMessage;
  double assertTime = 0; ///< where it fails first (located within the step that found it)
};

/// Requires: `sim` valid. The report stays valid until the simulation changes.
SimulationReport simulationReport(const eqc_sim *sim);
/// Keeps every event in the report's events->log() from now on.
void keepEventLog(eqc_sim *sim);

/// The Newton guesses of the algebraic loops at the integrator's evaluations of rhs.
enum class GuessPolicy {
  Last, ///< the values of the last evaluation
  /// (default) within an attempted step, the values of the last evaluation; where time goes back
  /// (a new attempt after a rejected one), those of the last accepted step or event: a rejected
  /// trial that went far (past a Schmitt trigger's threshold) leaves nothing to the next attempt,
  /// while the attempt that crosses the threshold and is accepted keeps the side it switched to
  Step,
  Accepted, ///< the values at the last accepted step (rhs is evaluated there before the step
            ///< callback): a trial step that converged on another branch of a block (the other
            ///< sign of y in x^2 + y^2 = L^2) leaves nothing to the next trial
  Fixed,    ///< the values the segment started with (switchModel's a)
};
void setGuessPolicy(eqc_sim *sim, GuessPolicy policy);

/// After a reinit, instead of the projection onto the table's invariants: called with the time,
/// the states, the derivatives before the event, the algebraic variables and the indices that
/// moved (EventIteration::afterReinit); makes x consistent. Empty: the default.
using ReinitHook = std::function<int(double t, double *x, const double *dx, double *a, const std::vector<int> &moved)>;
void setReinitHook(eqc_sim *sim, ReinitHook hook);

/// Goes on at the current time with another table of the same parameters and discrete layout
/// (n_params, n_p, discretes), from its states x and algebraic variables a (Newton guesses): no
/// initialization, the discrete state and the event counts carry over; the step size and auto's
/// stiffness are chosen afresh, projection after every step where `project` and the table has
/// invariants with their Jacobian, per-state tolerances cleared. With `skipStartRow` the next run
/// does not write the row at its start time again. Requires: a table valid for eqc_sim_new that
/// outlives the simulation.
void switchModel(eqc_sim *sim, const eqc_model *model, const double *x, const double *a, bool project,
                 bool skipStartRow);

} // namespace eqc::rt

#endif // EQC_RUNTIME_SIMULATION_DRIVER_H
