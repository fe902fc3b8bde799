// Events at run time: conditions from the event indicators, the event iteration that settles
// the discrete variables, and the runtime's callbacks (driver-internal).
#pragma once

#include "driver/RunState.h"

#include <functional>
#include <string>
#include <vector>

namespace eqc {

/// rhs code of the event handler when the event iteration does not settle.
constexpr int kEventIterationCode = 5000;
/// rhs code of the event handler after many events in a row that changed nothing: an indicator
/// oscillating around zero (an unstable integration, e.g. an explicit method on a stiff phase).
constexpr int kIdleEventsCode = 5001;
/// How many such events in a row are tolerated.
constexpr int kMaxIdleEvents = 50;

/// The discrete part of a simulation: which discrete variables are conditions (one per event
/// indicator), the runtime's view of them, and what happened.
struct EventRun {
  const FlatSystem *flat = nullptr;
  const OdeModel *model = nullptr;
  RunState *s = nullptr;
  std::vector<int> indicatorDiscrete; ///< per indicator: its condition's index among model->discretes
  std::vector<int> conditions;        ///< the runtime's view (1: indicator > 0)
  std::vector<unsigned char> holdsAtZero; ///< per indicator: 1 for a relation a <= b (it holds where the indicator is 0)
  std::vector<double> z, zAhead, xAhead, dxAhead, dx, xBefore;
  struct Event {
    double t;
    std::vector<std::pair<int, double>> changes; ///< discrete variable, new value
    bool reinit = false;
  };
  std::vector<Event> log;
  long iterations = 0;
  int idleEvents = 0; ///< events in a row that changed nothing
  int lastCrossed = -1; ///< an indicator of the last event
  bool terminated = false;
  double terminateTime = 0;
  std::string terminateMessage;
  std::vector<int> unsettled; ///< discrete variables still changing when the iteration gave up
  /// Index-reduced models: called after a reinit, with the variables reinitialized and the
  /// run-time arrays as the event left them (x the states, s->a the algebraic variables, among
  /// them the dummies of a state selection, dx the derivatives before the event): makes x
  /// consistent with the hidden constraints, holding those values. Returns 0 or a model code.
  /// Null: x is taken as it is (a reinit of an algebraic variable is lost).
  std::function<int(double t, double *x, const std::vector<int> &vars)> afterReinit;
  std::vector<double> aBefore;
};

/// Sizes p to model.pSize() and fills its discrete part with start values (pre equal to them,
/// initial() true). Requires: p holds the parameter values.
void fillDiscreteStart(const FlatSystem &flat, const OdeModel &model, std::vector<double> &p);

/// Sets up `e` for `model` (p already filled by fillDiscreteStart).
void setupEvents(EventRun &e, const FlatSystem &flat, const OdeModel &model, RunState &s);

/// The event iteration at t: conditions from the indicators (a crossed or zero indicator is read
/// just after t, along the solution), rhs, the discrete update, repeated until no discrete
/// variable changes; with `initial`, initial() holds and when-clauses fire only for initial().
/// Returns 0, EQC_EVENT_TERMINATE, kEventIterationCode or the failing model code.
int eventIteration(EventRun &e, double t, double *x, const int *crossed, bool initial);

/// eqc_zc_fn over the active model: rhs, then the indicators.
int eventIndicators(void *user, double t, const double *x, double *z);
/// eqc_event_fn: the event iteration, then the runtime's conditions from the model's.
int eventHandler(void *user, double t, double *x, const int *crossed, int *conditions);

/// "h < 0 became true, off became false, reinit": one event for --stats.
std::string describeEvent(const EventRun &e, const EventRun::Event &ev);

} // namespace eqc
