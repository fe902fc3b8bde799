// The event iteration of a running simulation (see driver/Events.h).
#include "driver/Events.h"

#include "driver/Interrupt.h"
#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>

namespace eqc {

EventDescription describeEvents(const FlatSystem &flat, const OdeModel &model, bool kinematics) {
  EventDescription d;
  d.params = model.params.size();
  for (size_t j = 0; j < model.discretes.size(); ++j) {
    const Variable &v = flat.vars[model.discretes[j]];
    d.discreteNames.push_back(flat.varName(model.discretes[j]));
    d.discreteKinds.push_back(v.generated                        ? EQC_DISCRETE_CONDITION
                              : v.type == ValueType::Boolean     ? EQC_DISCRETE_BOOLEAN
                              : v.type == ValueType::Integer     ? EQC_DISCRETE_INTEGER
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
}

void setupEvents(EventRun &e, const FlatSystem &flat, const OdeModel &model, RunState &s) {
  e.flat = &flat;
  e.model = &model;
  e.s = &s;
  e.description = describeEvents(flat, model, /*kinematics=*/false);
  eqc_model &t = e.table;
  t = eqc_model{};
  t.abi_version = EQC_MODEL_ABI_VERSION;
  t.n_states = static_cast<int>(model.states.size());
  t.n_algebraics = static_cast<int>(model.algebraics.size());
  t.n_params = static_cast<int>(model.params.size());
  pointAtEvents(e.description, e.names, t);
  // The event iteration calls the tier in use now (both tiers compute the same bits).
  t.rhs = s.jit->rhs;
  t.zc = s.jit->zc;
  t.event = s.jit->event;
  t.discrete_start = s.jit->discreteStart;
  e.holdsAtZero = e.description.indicatorAtZero;
  e.iteration.keepLog = true;
  e.iteration.idleLimit = kMaxIdleEvents;
  e.iteration.attach(t, s.p.data());
  e.iteration.afterReinit = [&e](double t, double *x, const double *dx, double *, const std::vector<int> &moved) {
    if (!e.afterReinit)
      return 0;
    const size_t n = e.model->states.size();
    e.dx.assign(dx, dx + n);
    e.vars.clear();
    for (int i : moved)
      e.vars.push_back(static_cast<size_t>(i) < n ? e.model->states[i] : e.model->algebraics[i - n]);
    return e.afterReinit(t, x, e.vars);
  };
  s.discreteOffset = model.discreteOffset();
}

int eventIteration(EventRun &e, double t, double *x, const int *crossed, bool initial) {
  e.s->applyInputs(t);
  return e.iteration.iterate(e.table, t, x, e.s->a.data(), e.s->p.data(), crossed, initial);
}

std::vector<int> unsettledVariables(const EventRun &e) {
  std::vector<int> vars;
  for (int j : e.iteration.unsettled())
    vars.push_back(e.model->discretes[j]);
  return vars;
}

int eventIndicators(void *user, double t, const double *x, double *z) {
  auto *e = static_cast<EventRun *>(user);
  RunState &s = *e->s;
  if (pendingInterrupt())
    return kInterruptCode;
  e->dx.resize(e->model->states.size());
  s.applyInputs(t);
  if (int code = s.jit->rhs(t, x, e->dx.data(), s.a.data(), s.p.data()))
    return code;
  return s.jit->zc(t, x, e->dx.data(), s.a.data(), s.p.data(), z);
}

int eventHandler(void *user, double t, double *x, const int *crossed, int *conditions) {
  auto *e = static_cast<EventRun *>(user);
  int code = eventIteration(*e, t, x, crossed, false);
  if (code != 0 && code != EQC_EVENT_TERMINATE)
    return code;
  const std::vector<int> &now = e->iteration.conditions();
  std::copy(now.begin(), now.end(), conditions);
  return code;
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
            (var.type == ValueType::Boolean ? (value != 0 ? " became true" : " became false") : " = " + formatNumber(value));
  }
  if (ev.reinit)
    text += std::string(text.empty() ? "" : ", ") + "reinit";
  return text.empty() ? "no change" : text;
}

} // namespace eqc
