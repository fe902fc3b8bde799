// The event iteration of a running simulation (see driver/Events.h).
#include "driver/Events.h"

#include "driver/Interrupt.h"
#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>

namespace eqc {

void setupEvents(EventRun &e, const FlatSystem &flat, const OdeModel &model, RunState &s) {
  e.flat = &flat;
  e.model = &model;
  e.s = &s;
  e.indicatorDiscrete.clear();
  e.holdsAtZero.clear();
  for (size_t j = 0; j < model.discretes.size(); ++j)
    if (const Expr *relation = flat.vars[model.discretes[j]].relation) {
      e.indicatorDiscrete.push_back(static_cast<int>(j));
      e.holdsAtZero.push_back(relation->kind() == ExprKind::Le ? 1 : 0);
    }
  const size_t nz = e.indicatorDiscrete.size();
  e.conditions.assign(nz, 0);
  e.z.assign(nz, 0.0);
  e.zAhead.assign(nz, 0.0);
  s.discreteOffset = model.discreteOffset();
}

void fillDiscreteStart(const FlatSystem &flat, const OdeModel &model, std::vector<double> &p) {
  std::vector<double> values(flat.vars.size(), 0.0);
  for (size_t i = 0; i < model.params.size(); ++i)
    values[model.params[i]] = p[i];
  p.resize(model.pSize(), 0.0);
  for (size_t j = 0; j < model.discretes.size(); ++j) {
    const Variable &v = flat.vars[model.discretes[j]];
    double start = v.hasStart && v.binding ? evaluate(v.binding, values) : 0.0;
    p[model.discreteOffset() + j] = start;
    p[model.preOffset() + j] = start;
  }
  if (model.pSize() > model.params.size())
    p[model.initialFlagOffset()] = 1.0;
}

namespace {

double discreteValue(const EventRun &e, size_t j) { return e.s->p[e.model->discreteOffset() + j]; }

} // namespace

int eventIteration(EventRun &e, double t, double *x, const int *crossed, bool initial) {
  RunState &s = *e.s;
  const OdeModel &m = *e.model;
  JitModel &jit = *s.jit;
  const size_t n = m.states.size(), nd = m.discretes.size(), nz = e.indicatorDiscrete.size();
  std::vector<double> &p = s.p;
  e.dx.resize(n);
  e.xAhead.resize(n);
  e.xBefore.resize(n);
  p[m.initialFlagOffset()] = initial ? 1.0 : 0.0;
  // Look just after t along the solution for indicators at (or numerically at) zero; one that
  // stays at zero there takes its relation's value (a <= b holds at a = b, a < b does not).
  const double ahead = 1e-9 * std::max(1.0, std::fabs(t));
  EventRun::Event ev;
  ev.t = t;
  std::vector<double> before(nd), lastValues(nd);
  for (size_t j = 0; j < nd; ++j)
    before[j] = lastValues[j] = discreteValue(e, j);
  for (int iteration = 0; iteration < 100; ++iteration) {
    ++e.iterations;
    if (int code = jit.rhs(t, x, e.dx.data(), s.a.data(), p.data()))
      return code;
    // pre: the values before this step of the iteration; while initializing, the start values
    // (Modelica's pre(v) = v.start there, so `when initial() then n = pre(n) + 1` runs once).
    if (!initial)
      for (size_t j = 0; j < nd; ++j)
        p[m.preOffset() + j] = discreteValue(e, j);
    if (!m.preContinuous.empty()) {
      std::vector<double> values;
      gather(m, x, e.dx.data(), s.a.data(), p, values);
      for (size_t k = 0; k < m.preContinuous.size(); ++k)
        p[m.preContinuousOffset() + k] = values[m.preContinuous[k]];
    }
    if (nz) {
      if (int code = jit.zc(t, x, e.dx.data(), s.a.data(), p.data(), e.z.data()))
        return code;
      bool needAhead = false;
      for (size_t k = 0; k < nz; ++k)
        needAhead = needAhead || (crossed && crossed[k]) || e.z[k] == 0.0;
      if (needAhead) {
        for (size_t i = 0; i < n; ++i)
          e.xAhead[i] = x[i] + ahead * e.dx[i];
        std::vector<double> dxAhead(n);
        if (int code = jit.rhs(t + ahead, e.xAhead.data(), dxAhead.data(), s.a.data(), p.data()))
          return code;
        if (int code = jit.zc(t + ahead, e.xAhead.data(), dxAhead.data(), s.a.data(), p.data(), e.zAhead.data()))
          return code;
      }
      for (size_t k = 0; k < nz; ++k) {
        bool look = (crossed && crossed[k]) || e.z[k] == 0.0;
        double zk = look ? e.zAhead[k] : e.z[k];
        p[m.discreteOffset() + e.indicatorDiscrete[k]] = zk > 0 || (zk == 0 && e.holdsAtZero[k]) ? 1.0 : 0.0;
      }
      if (int code = jit.rhs(t, x, e.dx.data(), s.a.data(), p.data()))
        return code;
    }
    std::copy(x, x + n, e.xBefore.begin());
    e.aBefore = s.a;
    int code = jit.event(t, x, e.dx.data(), s.a.data(), p.data());
    if (code && code != EQC_MODEL_EVENT_TERMINATE)
      return code;
    bool reinit = !std::equal(x, x + n, e.xBefore.begin());
    auto moved = [](double now, double before) { return now != before && !(std::isnan(now) && std::isnan(before)); };
    if (e.afterReinit && (reinit || !std::equal(s.a.begin(), s.a.end(), e.aBefore.begin(),
                                                [&](double u, double v) { return !moved(u, v); }))) {
      std::vector<int> vars;
      for (size_t i = 0; i < n; ++i)
        if (moved(x[i], e.xBefore[i]))
          vars.push_back(m.states[i]);
      for (size_t i = 0; i < s.a.size(); ++i)
        if (moved(s.a[i], e.aBefore[i]))
          vars.push_back(m.algebraics[i]);
      if (int failure = e.afterReinit(t, x, vars))
        return failure;
      reinit = true;
    }
    ev.reinit = ev.reinit || reinit;
    bool changed = reinit;
    for (size_t j = 0; j < nd; ++j)
      changed = changed || discreteValue(e, j) != (initial ? lastValues[j] : p[m.preOffset() + j]);
    for (size_t j = 0; j < nd; ++j)
      lastValues[j] = discreteValue(e, j);
    if (code == EQC_MODEL_EVENT_TERMINATE) {
      e.terminated = true;
      e.terminateTime = t;
    }
    if (!changed || code == EQC_MODEL_EVENT_TERMINATE) {
      for (size_t j = 0; j < nd; ++j) {
        p[m.preOffset() + j] = discreteValue(e, j);
        if (discreteValue(e, j) != before[j])
          ev.changes.emplace_back(m.discretes[j], discreteValue(e, j));
      }
      p[m.initialFlagOffset()] = 0.0;
      if (!initial) {
        e.idleEvents = ev.changes.empty() && !ev.reinit ? e.idleEvents + 1 : 0;
        e.log.push_back(std::move(ev));
        for (size_t k = 0; crossed && k < nz; ++k)
          if (crossed[k]) {
            e.lastCrossed = static_cast<int>(k);
            break;
          }
        if (e.idleEvents > kMaxIdleEvents)
          return kIdleEventsCode;
      }
      for (size_t k = 0; k < nz; ++k)
        e.conditions[k] = discreteValue(e, e.indicatorDiscrete[k]) != 0 ? 1 : 0;
      return code == EQC_MODEL_EVENT_TERMINATE ? EQC_EVENT_TERMINATE : 0;
    }
  }
  e.unsettled.clear();
  for (size_t j = 0; j < nd; ++j)
    if (discreteValue(e, j) != (initial ? before[j] : p[m.preOffset() + j]))
      e.unsettled.push_back(m.discretes[j]);
  return kEventIterationCode;
}

int eventIndicators(void *user, double t, const double *x, double *z) {
  auto *e = static_cast<EventRun *>(user);
  RunState &s = *e->s;
  if (pendingInterrupt())
    return kInterruptCode;
  e->dx.resize(e->model->states.size());
  if (int code = s.jit->rhs(t, x, e->dx.data(), s.a.data(), s.p.data()))
    return code;
  return s.jit->zc(t, x, e->dx.data(), s.a.data(), s.p.data(), z);
}

int eventHandler(void *user, double t, double *x, const int *crossed, int *conditions) {
  auto *e = static_cast<EventRun *>(user);
  int code = eventIteration(*e, t, x, crossed, false);
  if (code != 0 && code != EQC_EVENT_TERMINATE)
    return code;
  std::copy(e->conditions.begin(), e->conditions.end(), conditions);
  return code;
}

std::string describeEvent(const EventRun &e, const EventRun::Event &ev) {
  std::string text;
  for (auto &[v, value] : ev.changes) {
    const Variable &var = e.flat->vars[v];
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
