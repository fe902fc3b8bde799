// The state shared by the simulation driver and the integrator's callbacks (driver-internal).
#pragma once

#include "backend/Jit.h"
#include "driver/Inputs.h"
#include "driver/Invariants.h"
#include "driver/ModelTable.h"
#include "driver/Pipeline.h"
#include "middle/DummyDerivatives.h"
#include "runtime/include/eqc/eqc_runtime.h"
#include "runtime/src/StopCodes.h"

#include <cmath>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace eqc {

struct DummyRun;

/// What a run of eqc simulate shares with its callbacks: output, progress, the active compiled
/// form, and the driver's view of the invariants.
struct RunState {
  JitModel *jit; ///< the active compiled form (a state selection's, with dummy derivatives)
  /// The inputs' values over time (--input); null: they hold their start values.
  const InputSeries *inputs = nullptr;
  // The generated Jacobian (compiled when an implicit method first needs it).
  eqc_linear_solver linearSolver = EQC_LINEAR_AUTO;
  eqc_sparsity sparsity{};
  // Absolute tolerance per variable: atol * |nominal| where a variable declares a nominal value
  // (empty: the scalar atol for every state).
  std::vector<double> variableAtol;
  // Output.
  std::FILE *file = nullptr;
  std::vector<int> columns;                 ///< variables written, after time
  std::vector<char> texts;                  ///< per column: a String variable's (its text is written)
  const std::vector<Slot> *slots = nullptr; ///< where they live in the active mode
  size_t discreteOffset = 0;                ///< where discrete variables start in p
  std::string line;
  std::vector<double> row;
  bool binary = false;      ///< the .eqcres format (README.md) instead of CSV
  /// Rows kept in memory (time, then the columns), for a file written whole at the end (MAT,
  /// HDF5) instead of `file`; null: written as they come.
  std::vector<double> *kept = nullptr;
  long every = 1, outputIndex = 0;
  bool writeFailed = false;
  bool recordForPlot = false;            ///< keep the written rows for --plot
  // Progress bar (stderr is a terminal, not --quiet): shown once a run takes more than a second.
  bool progress = false;
  double progressStart = 0, progressLast = 0; ///< wall-clock seconds
  double tStart = 0, tEnd = 1;
  /// The optimized tier starts once the run has lasted this long (wall-clock seconds from
  /// runStart): as long as the first tier took to compile (backend/Jit.h).
  double tierAfter = 0, runStart = 0;
  std::vector<double> plotTime;
  std::vector<std::vector<double>> plotColumns; ///< per written variable
  // Invariants (index-reduced models).
  InvariantProjector *projector = nullptr;
  double worstInvariant = 0, worstInvariantTime = 0;
  int worstInvariantIndex = -1;
  long projections = 0;
  /// Per variable, for projections after a reinit: kinematicLevels() and whether it is integrated
  /// into another variable (a position).
  std::vector<int> kinematicLevels;
  std::vector<char> integrated;
  // Dummy derivatives: the active state selection and its monitor.
  DummyRun *dummy = nullptr;
};

/// One compiled state selection of the dummy-derivative method.
struct Mode {
  StateSelection selection;
  OdeModel model;
  std::unique_ptr<JitModel> jit;
  std::unique_ptr<ModelTable> table; ///< its functions for eqc_sim
};

/// Dynamic state selection: the modes compiled so far, the active one and the switches made.
struct DummyRun {
  ~DummyRun() {
    if (c)
      for (auto &m : modes)
        if (m->jit)
          c->retiredJits.push_back(std::move(m->jit));
  }
  Compilation *c = nullptr;
  std::unique_ptr<Differentiator> diff;
  std::vector<std::unique_ptr<Mode>> modes;
  Mode *active = nullptr; ///< null after the fall-back to the ODE with invariants
  StateSelection pending;
  std::vector<double> values, invariantX; // scratch
  struct Switch {
    double t;
    std::string from, to;
    std::string why; ///< empty for a degraded selection, else the step failure that caused it
  };
  std::vector<Switch> switches;
  /// Reconsider the selection when its pivots fall below this fraction of the largest entry,
  /// and switch only to a selection at least twice as well conditioned (hysteresis). Lower
  /// values keep a selection closer to its singular point, where a step can cross onto the other
  /// branch of a dummy block unnoticed (the looping pendulum at 1e-4 ends 0.3 off at rtol 1e-6).
  double threshold = 0.2;
  long checks = 0, checksSkipped = 0, checksDeferred = 0;
  /// Steps between quality checks: doubled (up to kMaxCheckSpacing) while a check finds the
  /// quality at least kComfortable times the threshold, or above the threshold and not below
  /// kSteady times the last check's; 1 again otherwise and after a switch. A check costs an
  /// elimination of the selection's blocks; a selection that degrades faster than the spacing
  /// shows as a failed step, which chooses again too.
  static constexpr int kMaxCheckSpacing = 32;
  static constexpr double kComfortable = 2.5, kSteady = 0.95;
  int checkSpacing = 1, sinceCheck = 0;
  double lastQuality = 0;
  /// The quality of the active selection when a search found none twice as good (0: none
  /// yet): while the quality holds there (kSteady), searching again finds the same.
  double keptQuality = 0;
  /// What the active selection's quality reads (for `inputsOf`), and their values at the last
  /// check that found it good: while they hold, the quality is the same (selectionInputs).
  const Mode *inputsOf = nullptr;
  SelectionInputs inputs;
  std::vector<double> inputValues;
  bool inputsGood = false; ///< inputValues hold the values of a check that found the quality good
  /// Per variable: how much its derivative is still wanted as a dummy (selectStates), lowered
  /// for the dummies of a selection whose step failed; reset once a selection makes progress.
  std::vector<double> preference;
  int failuresHere = 0; ///< selections that failed in a row without progress
  /// The preference that cancels stateSelect = always (empty: no such variable), once computed.
  std::vector<double> withoutAlways;
  bool withoutAlwaysDone = false;
  /// The fall-back to the ODE with invariants (projection): when and why (NaN: none).
  double fallbackTime = NAN;
  std::string fallbackReason;
};

/// rhs codes kProjectionFailureBase + status: the projection onto the invariants failed with
/// that status (rt::isProjectionFailure).
constexpr int kProjectionFailureBase = rt::stopCode(rt::StopCode::ProjectionFailure);

/// Values of every variable (indexed by variable) from the run-time arrays of a mode.
void gather(const OdeModel &m, const double *x, const double *dx, const double *a, const double *p,
            std::vector<double> &values);
inline void gather(const OdeModel &m, const double *x, const double *dx, const double *a, const std::vector<double> &p,
                   std::vector<double> &values) {
  gather(m, x, dx, a, p.data(), values);
}

/// The value of a variable that lives in `slot`, from a model's run-time arrays (p with its
/// discrete part at discreteOffset).
inline double slotValue(const Slot &slot, const double *x, const double *dx, const double *a, const double *p,
                        size_t discreteOffset) {
  return slot.storage == Storage::State        ? x[slot.index]
         : slot.storage == Storage::Derivative ? dx[slot.index]
         : slot.storage == Storage::Algebraic  ? a[slot.index]
         : slot.storage == Storage::Discrete   ? p[discreteOffset + slot.index]
                                               : p[slot.index];
}

/// One output row of s.columns at t from the run-time arrays of the model of s.slots (p with its
/// discrete part at s.discreteOffset); also the progress line, --every and --plot. Returns 0, or
/// 1 when writing failed (s.writeFailed).
int writeRow(RunState &s, double t, const double *x, const double *dx, const double *a, const double *p);
/// Starts the optimized tier once the run has lasted s.tierAfter (backend/Jit.h); true when it
/// started now.
bool startTierWhenDue(RunState &s);
/// After a reinit of the variables `reinitialized` at t (`values` of every variable as the event
/// left them): the states of `base`, the model of the projector, moved onto its invariants,
/// written back to `values`. The reinitialized variables are held, and so is every state of a
/// lower kinematic level that is integrated into another (a velocity's reinit does not move the
/// positions, which are continuous across an impulse); if that fails, only the reinitialized ones; then none. Returns 0 or
/// kProjectionFailureBase + the status of the last attempt.
int projectAfterReinit(RunState &s, const OdeModel &base, double t, const std::vector<int> &reinitialized,
                       std::vector<double> &values);
/// The progress line on stderr: starts the clock, and clears the line at the end.
void startProgress(RunState &s, double tStart, double tEnd);
void finishProgress(RunState &s);

/// A number for messages: enough digits to locate, few enough to be stable across CPUs and libms.
std::string brief(double v, int digits = 8);

/// The dummy-derivative state selection at the consistent initial point at `t0` (start values,
/// default parameters), stored in `c.initialSelection`; false (with errors reported) when there
/// is no consistent point or no nonsingular selection.
bool computeInitialSelection(Compilation &c, double t0, std::ostream &err);

} // namespace eqc
