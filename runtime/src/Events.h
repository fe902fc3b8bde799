// State events (zero crossings): detection after each accepted step, root
// location on the step's dense output, and the segment loop of
// eqc_integrate_events that handles an event and restarts the method.
#ifndef EQC_RUNTIME_EVENTS_H
#define EQC_RUNTIME_EVENTS_H

#include "Integrator.h"

#include <vector>

namespace eqc::rt {

/// The dense output of the step just accepted: writes x(t), t in [tOld, tNew],
/// to out. Returns EQC_OK, or a status when building it fails (dop853's extra
/// stages, the fixed-step methods' f at the step's end).
using DenseOutput = FunctionRef<int(double t, double *out)>;

/// All event indicators z(t) at time t (on some dense output); returns EQC_OK
/// or a status.
using IndicatorFunction = FunctionRef<int(double t, double *z)>;

/// Root location stops when the bracket [tl, tr] is at most this many
/// DBL_EPSILON times max(|tl|, |tr|, tr0 - tl0) wide: a few ulps of the event
/// time, or of the step's length when the times are near 0.
constexpr double RootToleranceEps = 4.0;
/// Root location never takes more iterations than this (the bracket stays
/// valid; the event time is then less precise).
constexpr int MaxRootIterations = 200;

/// What locateCrossing found.
struct CrossingResult {
  double time = 0.0;  ///< tr at the end: the first time known to have a changed condition
  int iterations = 0; ///< evaluations of the indicators
};

/// More than `events` located events within `window` of simulated time stop an integration with
/// EQC_ERR_CHATTERING (eqc_events' chatter_events and chatter_window, else the defaults: 100
/// within 1e-8 of the span).
struct ChatterLimit {
  long events;
  double window;
};
ChatterLimit chatterLimit(const eqc_events &events, double tStart, double tEnd);

/// Detects more than `limit` events within `window`: keeps the times of the last `limit` events
/// in a ring (grown as events come, so that a large limit costs nothing up front).
class ChatterGuard {
public:
  ChatterGuard(long limit, double window) : limit(static_cast<size_t>(limit)), window(window) {}

  /// Records an event at t unless it is one too many: then returns true.
  bool tooMany(double t) {
    if (times.size() < limit) {
      times.push_back(t);
      return false;
    }
    // times[oldest] is the oldest of the last `limit` events.
    if (t - times[oldest] <= window)
      return true;
    times[oldest] = t;
    oldest = (oldest + 1) % limit;
    return false;
  }
  /// Forgets the events recorded.
  void clear() {
    times.clear();
    oldest = 0;
  }

private:
  size_t limit;
  double window;
  std::vector<double> times;
  size_t oldest = 0;
};

/// The conditions an integration holds between events, as the locator compares them with z.
struct HeldConditions {
  const int *values = nullptr;           ///< per indicator: 1 where its condition holds
  const unsigned char *atZero = nullptr; ///< nullable: 1 where it holds at z = 0 (a <= b)
  const unsigned char *flags = nullptr;  ///< nullable: IndicatorFlags
  /// Whether relaxed indicators (kIndicatorRelaxed) count as unchanged: while an event of others
  /// is located (theirs are taken at step ends).
  bool skipRelaxed = false;
  /// Whether condition k holds at indicator value z: z > 0, or z = 0 for a relation that holds
  /// there.
  bool holds(double z, int k) const { return z > 0.0 || (z == 0.0 && atZero && atZero[k]); }
  /// Whether z[k] disagrees with condition k (an indicator held on its boundary agrees while it
  /// is exactly zero).
  bool changedAt(const double *z, int k) const {
    if (flags && (((flags[k] & kIndicatorOnBoundary) && z[k] == 0.0) ||
                  (skipRelaxed && (flags[k] & kIndicatorRelaxed))))
      return false;
    return holds(z[k], k) != (values[k] != 0);
  }
  bool anyChanged(int nz, const double *z) const {
    for (int k = 0; k < nz; ++k)
      if (changedAt(z, k))
        return true;
    return false;
  }
};

/// Locates the earliest time in (tl, tr] at which some condition changes:
/// where z_k first disagrees with held condition k for some k. Regula
/// falsi with the Anderson-Bjorck modification (as Illinois in SUNDIALS'
/// rootfinding, but faster on curved indicators) on the changed indicator
/// whose secant predicts the earliest crossing, all indicators evaluated at
/// each candidate; bisection when no changed indicator is consistent at tl
/// (z at tl already disagrees with its condition, e.g. right after a restart)
/// or when three iterations did not halve the bracket (flat or multiple
/// roots). Candidates stay RootToleranceEps/2 ulps inside the bracket, so it
/// shrinks every iteration.
/// Requires: tl < tr; zl = z(tl), zr = z(tr) with some condition changed at tr;
/// zMid is scratch; nz entries each. Ensures: zr holds z at result.time up to
/// positive factors (its signs, and so the changed conditions, are exact), zl
/// likewise at the final tl. Returns EQC_OK or the first failing status of
/// `indicators`.
int locateCrossing(int nz, const HeldConditions &held, double tl, double *zl, double tr, double *zr,
                   IndicatorFunction indicators, double *zMid, CrossingResult &result);

/// Watches the event indicators of one integration (eqc_events): each method
/// calls checkStep after an accepted step.
class EventLocator {
public:
  /// Requires: events validated (nz > 0, zc, handle and conditions set).
  /// flags: null, or nz IndicatorFlags (integrateEvents' `flags`).
  EventLocator(int n, const eqc_events &events, eqc_stats &stats, unsigned char *flags = nullptr);

  /// After an accepted step from tOld to tNew with state xNew (before the
  /// hook): evaluates z at the output times of `grid` inside the step (grid
  /// may be null: fixed-step methods have no grid) and at tNew and, at the
  /// first point where some condition changed, locates the earliest change on
  /// the step's dense output. Then it emits the grid times before the event
  /// through the output hook, sets x to the event state and stats.t_reached to
  /// its time, and returns EventLocated (time() and state() hold the event).
  /// Otherwise returns EQC_OK, with x untouched. Failures: EQC_ERR_RHS (zc or
  /// the dense output failed), EQC_ERR_NONFINITE (NaN or Inf in z:
  /// stats.event_indicator names it, failed_component is -1), or the status of
  /// the output hook.
  int checkStep(IntegrationProblem &p, double tOld, double tNew, const double *xNew, DenseOutput dense,
                OutputGrid *grid, double *x);

  double time() const { return eventTime; }
  const double *state() const { return eventState.data(); }
  /// crossed[k] = 1 for the indicators whose condition changed at time().
  const int *crossed() const { return crossedFlags.data(); }
  /// The lowest crossed indicator.
  int firstCrossed() const;
  /// Iterations of the last root location (evaluations of z on the dense output).
  int lastIterations() const { return iterations; }
  /// Whether the last event was of relaxed indicators only (kIndicatorRelaxed: not located).
  bool relaxedEvent() const { return relaxed; }

private:
  /// The detection and location part of checkStep: located tells whether an
  /// event was found in the step.
  int afterStep(double tOld, double tNew, const double *xNew, DenseOutput dense, bool &located,
                const OutputGrid *grid);
  /// The emission part of checkStep, after afterStep located an event.
  int stopAtEvent(IntegrationProblem &p, OutputGrid *grid, DenseOutput dense, double *x);
  /// z = zc(t, x) with failures mapped to statuses.
  int evaluate(double t, const double *x, double *z);

  const int n, nz;
  const eqc_events &events;
  eqc_stats &stats;
  unsigned char *flags; ///< integrateEvents' `flags` (may be null)
  HeldConditions held;
  std::vector<double> zLeft, zRight, zMid, scratch, eventState;
  std::vector<int> crossedFlags;
  std::vector<int> quietSteps; ///< per relaxed indicator: accepted steps since it last changed
  double eventTime = NAN;
  int iterations = 0;
  bool relaxed = false;
};

/// Integrates p with state events (see eqc_integrate_events): runs the method
/// segment by segment, handling each located event between segments.
/// Requires: as runMethod, and events validated. Ensures: as runMethod; on
/// EQC_ERR_CHATTERING x and stats.t_reached hold the last event's (hooked)
/// left limit.
int runWithEvents(IntegrationProblem &p, double *x, eqc_stats &stats, const eqc_events &events,
                  unsigned char *flags = nullptr);

} // namespace eqc::rt

#endif // EQC_RUNTIME_EVENTS_H
