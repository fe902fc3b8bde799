// The event part of a model table and the events' descriptions (see driver/Events.h).
#include "driver/Events.h"

#include "middle/DummyDerivatives.h"
#include "middle/ExprOps.h"
#include "middle/Sensitivities.h"

#include "eqc/eqc_external.h"

#include <algorithm>
#include <cmath>

namespace eqc {

/// The event part of --sensitivities (eqc_model.h, ABI 9): per parameter, the state of each
/// state's sensitivity and the discrete d(t_e)/d(p); nothing without events or sensitivities.
static void describeSensitivities(const FlatSystem &flat, const OdeModel &model, EventDescription &d) {
  if (flat.sensitivities.empty() || model.discretes.empty() || d.indicatorDiscrete.empty())
    return;
  std::vector<int> stateOf(flat.vars.size(), -1), discreteOf(flat.vars.size(), -1);
  for (size_t i = 0; i < model.states.size(); ++i)
    stateOf[static_cast<size_t>(model.states[i])] = static_cast<int>(i);
  for (size_t j = 0; j < model.discretes.size(); ++j)
    discreteOf[static_cast<size_t>(model.discretes[j])] = static_cast<int>(j);
  d.sensitivities = static_cast<int>(flat.sensitivities.size());
  for (const SensitivityParameter &s : flat.sensitivities) {
    d.sensitivityEventTime.push_back(discreteOf[static_cast<size_t>(s.eventTime)]);
    for (int v : model.states) {
      const int sv = sensitivityOf(flat, s, v);
      d.sensitivityState.push_back(sv >= 0 ? stateOf[static_cast<size_t>(sv)] : -1);
    }
  }
}

EventDescription describeEvents(const FlatSystem &flat, const OdeModel &model, bool kinematics) {
  EventDescription d;
  d.params = model.params.size();
  d.delays = model.delays;
  for (size_t j = 0; j < model.discretes.size(); ++j) {
    const Variable &v = flat.vars[model.discretes[j]];
    d.discreteNames.push_back(flat.varName(model.discretes[j]));
    d.discreteKinds.push_back(model.discretes[j] == flat.terminal ? EQC_DISCRETE_TERMINAL
                              : v.heldCall                        ? EQC_DISCRETE_ONCE
                              : v.generated                       ? EQC_DISCRETE_CONDITION
                              : v.type == ValueType::Boolean      ? EQC_DISCRETE_BOOLEAN
                              : v.type == ValueType::Integer      ? EQC_DISCRETE_INTEGER
                              : v.type == ValueType::String       ? EQC_DISCRETE_STRING
                                                                  : EQC_DISCRETE_REAL);
    if (const Expr *relation = v.relation) {
      d.indicatorDiscrete.push_back(static_cast<int>(j));
      d.indicatorAtZero.push_back(relation->kind() == ExprKind::Le ? 1 : 0);
    }
  }
  const int n = static_cast<int>(model.states.size());
  for (int v : model.preContinuous) {
    const Slot &slot = model.slots[v];
    d.preContinuousSource.push_back(slot.storage == Storage::State        ? slot.index
                                    : slot.storage == Storage::Derivative ? n + slot.index
                                                                          : 2 * n + slot.index);
  }
  describeSensitivities(flat, model, d);
  if (kinematics && !model.invariants.residuals.empty()) {
    std::vector<char> integrated;
    std::vector<int> levels = kinematicLevels(flat, &integrated);
    for (int v : model.states) {
      d.stateLevel.push_back(levels[v]);
      d.stateIntegrated.push_back(integrated[v] ? 1 : 0);
    }
  }
  return d;
}

void pointAtEvents(const EventDescription &d, std::vector<const char *> &names, eqc_model &table) {
  names.clear();
  for (const std::string &name : d.discreteNames)
    names.push_back(name.c_str());
  auto data = [](const auto &v) { return v.empty() ? nullptr : v.data(); };
  table.n_p = d.pSize();
  table.n_delays = d.delays;
  table.delay_context = d.delays > 0 ? d.delayContext() : -1;
  table.n_discretes = static_cast<int>(d.discreteNames.size());
  table.discrete_names = data(names);
  table.discrete_kind = data(d.discreteKinds);
  table.n_indicators = static_cast<int>(d.indicatorDiscrete.size());
  table.indicator_discrete = data(d.indicatorDiscrete);
  table.indicator_at_zero = data(d.indicatorAtZero);
  table.n_pre_continuous = static_cast<int>(d.preContinuousSource.size());
  table.pre_continuous_source = data(d.preContinuousSource);
  table.state_level = data(d.stateLevel);
  table.state_integrated = data(d.stateIntegrated);
  table.n_sensitivities = d.sensitivities;
  table.sensitivity_state = data(d.sensitivityState);
  table.sensitivity_event_time = data(d.sensitivityEventTime);
}

std::string describeEvent(const FlatSystem &flat, const std::vector<int> &discretes,
                          const rt::EventIteration::Event &ev) {
  std::string text;
  for (auto &[j, value] : ev.changes) {
    const int v = discretes[static_cast<size_t>(j)];
    const Variable &var = flat.vars[v];
    if (var.generated && !var.relation)
      continue; // when-condition helpers repeat their conditions
    text += (text.empty() ? "" : ", ") + var.name +
            (var.type == ValueType::Boolean  ? (value != 0 ? " became true" : " became false")
             : var.type == ValueType::String ? " = \"" + std::string(eqc_string_text(value)) + "\""
                                             : " = " + formatNumber(value));
  }
  if (ev.reinit)
    text += std::string(text.empty() ? "" : ", ") + "reinit";
  return text.empty() ? "no change" : text;
}

} // namespace eqc
