// Events of a compiled model: the event part of its table (the runtime's event iteration,
// runtime/src/EventIteration.h, runs them) and their descriptions for --stats (driver-internal).
#pragma once

#include "backend/ObjectFile.h"
#include "driver/Pipeline.h"
#include "runtime/src/EventIteration.h"

#include <string>
#include <vector>

namespace eqc {

/// rhs code of the event handler when the event iteration does not settle.
constexpr int kEventIterationCode = rt::stopCode(rt::StopCode::EventUnsettled);
/// rhs code of the event handler after many events in a row that changed nothing: an indicator
/// oscillating around zero (an unstable integration, e.g. an explicit method on a stiff phase).
constexpr int kIdleEventsCode = rt::stopCode(rt::StopCode::EventIdle);
/// How many such events in a row are tolerated (rt::EventIteration::idleLimit).
constexpr int kMaxIdleEvents = rt::EventIteration::kDefaultIdleLimit;

/// The event part of `model`'s table (eqc_model.h): its discrete variables, which of them are
/// conditions (one per event indicator), the pre() sources and, for index-reduced models, the
/// states' kinematic levels (unless `kinematics` is false).
EventDescription describeEvents(const FlatSystem &flat, const OdeModel &model, bool kinematics = true);

/// An eqc_model's event part pointing at `d` (and the names in `names`, which it fills).
void pointAtEvents(const EventDescription &d, std::vector<const char *> &names, eqc_model &table);

/// "h < 0 became true, off became false, reinit": one event for --stats (`discretes`: the flat
/// variables of the event's discrete indices).
std::string describeEvent(const FlatSystem &flat, const std::vector<int> &discretes,
                          const rt::EventIteration::Event &ev);

} // namespace eqc
