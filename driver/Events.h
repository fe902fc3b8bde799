// Events at run time: conditions from the event indicators, the event iteration that settles
// the discrete variables, and the runtime's callbacks (driver-internal).
#pragma once

#include "backend/ObjectFile.h"
#include "driver/RunState.h"
#include "runtime/src/EventIteration.h"

#include <functional>
#include <string>
#include <vector>

namespace eqc {

/// rhs code of the event handler when the event iteration does not settle.
constexpr int kEventIterationCode = rt::stopCode(rt::StopCode::EventUnsettled);
/// rhs code of the event handler after many events in a row that changed nothing: an indicator
/// oscillating around zero (an unstable integration, e.g. an explicit method on a stiff phase).
constexpr int kIdleEventsCode = rt::stopCode(rt::StopCode::EventIdle);
/// How many such events in a row are tolerated.
constexpr int kMaxIdleEvents = 50;

/// The event part of `model`'s table (eqc_model.h): its discrete variables, which of them are
/// conditions (one per event indicator), the pre() sources and, for index-reduced models, the
/// states' kinematic levels (unless `kinematics` is false).
EventDescription describeEvents(const FlatSystem &flat, const OdeModel &model, bool kinematics = true);

/// An eqc_model's event part pointing at `d` (and the names in `names`, which it fills).
void pointAtEvents(const EventDescription &d, std::vector<const char *> &names, eqc_model &table);

/// The discrete part of a simulation: the runtime's event iteration (runtime/src/EventIteration.h)
/// over a table of the active model's functions, and what happened.
struct EventRun {
  const FlatSystem *flat = nullptr;
  const OdeModel *model = nullptr;
  RunState *s = nullptr;
  EventDescription description; ///< of *model
  std::vector<const char *> names;
  eqc_model table{};            ///< *model's sizes, event part and functions
  rt::EventIteration iteration;
  std::vector<unsigned char> holdsAtZero; ///< per indicator (eqc_events.at_zero)
  /// Index-reduced models: called after a reinit, with the variables reinitialized and the
  /// run-time arrays as the event left them (x the states, s->a the algebraic variables, among
  /// them the dummies of a state selection, dx the derivatives before the event): makes x
  /// consistent with the hidden constraints, holding those values. Returns 0 or a model code.
  /// Null: x is taken as it is (a reinit of an algebraic variable is lost).
  std::function<int(double t, double *x, const std::vector<int> &vars)> afterReinit;
  std::vector<double> dx; ///< the derivatives before the event (for afterReinit)
  std::vector<int> vars;  // scratch

  size_t indicators() const { return description.indicatorDiscrete.size(); }
  /// The flat variable of indicator k's condition.
  int conditionVariable(size_t k) const { return model->discretes[description.indicatorDiscrete[k]]; }
};

/// Sets up `e` for `model` run by s.jit; the conditions follow the discrete values in s.p
/// (sized to model.pSize() by the initialization). Counts and the log carry over.
void setupEvents(EventRun &e, const FlatSystem &flat, const OdeModel &model, RunState &s);

/// The event iteration at t (rt::EventIteration::iterate over the active model). Returns 0,
/// EQC_EVENT_TERMINATE, kEventIterationCode, kIdleEventsCode or the failing model code.
int eventIteration(EventRun &e, double t, double *x, const int *crossed, bool initial);

/// The flat variables still changing when the event iteration gave up.
std::vector<int> unsettledVariables(const EventRun &e);

/// eqc_zc_fn over the active model: rhs, then the indicators.
int eventIndicators(void *user, double t, const double *x, double *z);
/// eqc_event_fn: the event iteration, then the runtime's conditions from the model's.
int eventHandler(void *user, double t, double *x, const int *crossed, int *conditions);

/// "h < 0 became true, off became false, reinit": one event for --stats (`discretes`: the flat
/// variables of the event's discrete indices).
std::string describeEvent(const FlatSystem &flat, const std::vector<int> &discretes,
                          const rt::EventIteration::Event &ev);

} // namespace eqc
