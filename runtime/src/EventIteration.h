// The discrete part of a running model (eqc_model's event interface): which conditions hold,
// and the event iteration that settles the discrete variables at an event. One implementation
// for eqc simulate, eqc_sim and the FMUs' fmi2NewDiscreteStates.
#ifndef EQC_RUNTIME_EVENT_ITERATION_H
#define EQC_RUNTIME_EVENT_ITERATION_H

#include "Events.h"
#include "StopCodes.h"
#include "eqc/eqc_model.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace eqc::rt {

/// Why an event iteration failed: StopCode::EventUnsettled (the discrete variables still change
/// after 100 iterations, unsettled()) or StopCode::EventIdle (idleLimit events in a row changed
/// nothing: an indicator oscillating).

/// The discrete state of one simulation of an eqc_model with events.
/// Requires: the model's n_p, n_discretes, n_indicators and event functions valid (see
/// eqc_model.h); p holds n_p values.
class EventIteration {
public:
  struct Event {
    double t = 0;
    std::vector<std::pair<int, double>> changes; ///< discrete variable (index among the discretes), new value
    bool reinit = false;
  };
  /// After the event function changed states or algebraic variables (reinit): called with the
  /// indices that moved (states 0..n_states-1, algebraic variable i as n_states + i) and the
  /// arrays as the event left them (dx: the derivatives before the event); makes x consistent
  /// (e.g. projects it onto the invariants holding those values). Returns 0 or a failure code.
  /// Empty: x is taken as it is.
  std::function<int(double t, double *x, const double *dx, double *a, const std::vector<int> &moved)> afterReinit;
  /// Events in a row that change nothing before the iteration fails with EventFailure::Idle
  /// (0: never; an FMU's environment may enter Event Mode without an event).
  static constexpr int kDefaultIdleLimit = 50;
  int idleLimit = kDefaultIdleLimit;
  /// Whether to keep every event in log() (eqc simulate reports them).
  bool keepLog = false;
  /// Null, or n_indicators IndicatorFlags shared with the integrator (integrateEvents' `flags`):
  /// where idleLimit events in a row changed nothing, or where events that move no state come as
  /// fast as half the integrator's chatter limit (watchChatter: a switch whose modes each drive
  /// its indicator back across zero, as an ideal thyristor's at zero voltage and current), the
  /// indicators that caused the last of them are relaxed
  /// (kIndicatorRelaxed: their changes taken at step ends, a sliding motion) instead of failing
  /// the run; events of relaxed indicators alone count neither as idle nor as chattering. Where
  /// null, the iteration keeps kIndicatorOnBoundary in flags of its own and relaxes nothing.
  unsigned char *indicatorFlags = nullptr;
  /// Relaxes indicators whose events move no state (discrete values may change) faster than half
  /// of `limit` (the integrator's chatterLimit) allows; until called, none.
  void watchChatter(const ChatterLimit &limit) {
    switching_ = ChatterGuard(std::max(1L, limit.events / 2), limit.window);
    chatterWindow_ = limit.window;
  }
  /// Why indicators were relaxed.
  enum class Relaxed { Idle, Chattering };
  struct Relaxation {
    double t;
    int indicator;
    Relaxed why;
  };
  /// When, which and why indicators were relaxed.
  const std::vector<Relaxation> &relaxations() const { return relaxations_; }
  /// When and which indicators were held on their boundary (kIndicatorOnBoundary).
  const std::vector<std::pair<double, int>> &boundaryHolds() const { return boundaryHolds_; }

  /// Sizes the scratch for `m` and sets the conditions from the discrete values in p.
  void attach(const eqc_model &m, const double *p);

  /// The event iteration at t: conditions from the indicators (a crossed or zero indicator is
  /// read just after t, along the solution), rhs, the discrete update, repeated until no discrete
  /// variable changes; with `initial`, initial() holds and pre() are the start values. `crossed`
  /// (may be null: none) marks the indicators whose condition changed at t. Returns 0,
  /// EQC_EVENT_TERMINATE, one of the StopCodes above or the failing model code.
  /// The conditions set to what their relations give at (t, x) (rhs first; the start point of
  /// an initialization, before the event iteration); `changed` tells whether any changed.
  /// Requires: attach. Returns 0 or the failing model code.
  int conditionsAt(const eqc_model &m, double t, const double *x, double *a, double *p, bool &changed);
  /// The conditions set to what the indicators give at (t, x, a) as they are (where a failed
  /// initialization got to: no rhs, no look ahead); `changed` tells whether any changed.
  /// Requires: attach. Returns 0 or the failing model code.
  int conditionsOfPoint(const eqc_model &m, double t, const double *x, double *a, double *p, bool &changed);
  /// With `terminal`, the terminal event: terminal() (EQC_DISCRETE_TERMINAL) becomes true.
  int iterate(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed, bool initial,
              bool terminal = false);

  /// crossed[k] for the indicators whose value z (at a point where rhs was evaluated) disagrees
  /// with the condition held: what an environment that watches z's signs (an FMU's) found.
  void crossedBy(const eqc_model &m, const double *z, std::vector<int> &crossed) const;

  /// Per indicator: 1 where its condition holds (eqc_events.conditions).
  std::vector<int> &conditions() { return conditions_; }
  const std::vector<int> &conditions() const { return conditions_; }
  const std::vector<Event> &log() const { return log_; }
  long events() const { return events_; }
  long iterations() const { return iterations_; }
  int lastCrossed() const { return lastCrossed_; }
  bool terminated() const { return terminated_; }
  double terminateTime() const { return terminateTime_; }
  /// Whether the last iteration changed a state or an algebraic variable.
  bool lastReinit() const { return lastReinit_; }
  /// The discrete variables still changing when the iteration gave up (EventFailure::Unsettled).
  const std::vector<int> &unsettled() const { return unsettled_; }

  /// What eqc_sim_serialize keeps (besides p), in its order.
  template <typename Self, typename Field> static void fields(Self &s, Field &&f) {
    f(s.conditions_);
    f(s.events_);
    f(s.iterations_);
    f(s.idleEvents_);
    f(s.lastCrossed_);
    f(s.terminated_);
    f(s.terminateTime_);
  }

private:
  int settle(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed, bool initial,
             bool terminal);
  /// pre() of the discrete variables (not while initializing: they are the start values there)
  /// and of the continuous ones read by pre(), at the start of a step of the outer iteration.
  void takePre(const eqc_model &m, const double *x, const double *a, double *p, bool initial);
  /// One pass of the when-clauses and discrete equations; `code` is the model's (0 or its
  /// terminate request), `reinit` tells whether states moved (afterReinit has seen every moved
  /// state and algebraic). Returns 0 or a failure.
  int eventPass(const eqc_model &m, double t, double *x, double *a, double *p, bool &reinit, int &code);
  /// The state of the passes of one event.
  struct Passes {
    bool outerStep = true;     ///< the next pass starts a step (pre() moves)
    int inner = 0;             ///< passes within the current step
    bool readCrossed = true;   ///< crossed conditions look along fresh derivatives
    bool searchedInVain = false;
  };
  /// A pass that changed discrete values with pre() fixed: where it repeats an earlier pass of
  /// the step, the fixed point is searched (once per event); without one the step ends with its
  /// first pass's values (`endStep`). `stepChanged` is cleared when a fixed point was found.
  /// Returns 0 or a failure.
  int changedPass(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed, bool initial,
                  Passes &passes, bool &stepChanged, bool &endStep);
  /// The event ends: pre() takes the values, the event is counted and logged, the conditions
  /// are kept. Returns 0, EQC_EVENT_TERMINATE, or a failure.
  int finishEvent(const eqc_model &m, double *p, Event &ev, const int *crossed, bool initial, int code);
  /// The conditions at (t, x); with `freshCrossing`, the crossed indicators look ahead along the
  /// current derivatives (else along those of the last fresh read).
  int readConditions(const eqc_model &m, double t, const double *x, double *a, double *p, const int *crossed,
                     bool freshCrossing);
  /// z just after t along x + h * direction.
  int lookAhead(const eqc_model &m, double t, const double *x, double *a, double *p,
                const std::vector<double> &direction, std::vector<double> &z);

  std::vector<int> conditions_, unsettled_;
  /// Whether the discrete values in p are those after an earlier pass of this step (cycleStart_:
  /// the first such pass in stepHistory_).
  bool cycles(const eqc_model &m, const double *p);
  /// Looks for discrete values that a pass keeps (pre() fixed) among the settings of the
  /// conditions that changed over the cycle, the fewest flipped first; `found` tells whether it
  /// did (p, x and a are then that fixed point's; else as they were). Where no setting is kept,
  /// a second round lets the conditions whose indicators are exactly zero at t and just after it
  /// keep the setting's value (a relation on its boundary, a > b at a = b, may be read either
  /// way); those of the setting found are held on their boundary (kIndicatorOnBoundary). Returns
  /// 0 or minus the failing model code.
  int searchFixedPoint(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed,
                       bool &found);
  /// Tries one setting of the search: the discrete equations under it, then passes until the
  /// discrete values repeat (`onBoundary`: zero indicators keep the setting's conditions, which
  /// `held` lists where they differ from a strict reading). Returns 0 or the failing model code.
  int trySetting(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed,
                 bool onBoundary, bool &repeats, std::vector<int> &held);
  /// The flags in use: indicatorFlags, else the iteration's own.
  unsigned char *flags() { return indicatorFlags ? indicatorFlags : ownFlags_.data(); }

  /// Passes of the event iteration before it fails, passes with pre() fixed in one step, and the
  /// most cycling conditions whose settings are searched (2^k settings).
  static constexpr int kIterations = 100, kInnerIterations = 20;
  static constexpr size_t kSearchConditions = 12;
  std::vector<std::vector<double>> stepHistory_;
  std::vector<double> trial_, zCrossing_, dxCrossing_;
  size_t cycleStart_ = 0;
  long searches_ = 0;
  std::vector<double> z_, zAhead_, xAhead_, dxAhead_, dx_, xBefore_, aBefore_, before_, last_, passStart_;
  std::vector<int> moved_;
  /// Per indicator at the last readConditions: exactly zero at t and where the conditions look.
  std::vector<unsigned char> atBoundary_, ownFlags_;
  std::vector<std::pair<double, int>> boundaryHolds_;
  std::vector<Event> log_;
  std::vector<Relaxation> relaxations_;
  /// The events that moved no state, against chatter (half its events).
  ChatterGuard switching_{1, -1.0};
  double chatterWindow_ = -1.0;
  /// Per indicator: the time of the last event that crossed it (-inf: none).
  std::vector<double> crossedAt_;
  /// Relaxes (unless they are) the indicators crossed at t, or with `why` Chattering within the
  /// chatter window before t.
  void relax(const int *crossed, double t, Relaxed why);
  long events_ = 0, iterations_ = 0;
  int idleEvents_ = 0, lastCrossed_ = -1;
  bool terminated_ = false, lastReinit_ = false;
  double terminateTime_ = 0;
};

/// Whether `m`'s event part is complete (sizes, arrays and functions as eqc_model.h requires).
bool eventTableValid(const eqc_model &m);
/// Whether `m`'s sensitivity part (ABI 9) is complete; part of eventTableValid.
bool sensitivityTableValid(const eqc_model &m);

} // namespace eqc::rt

#endif // EQC_RUNTIME_EVENT_ITERATION_H
