// The event iteration over an eqc_model's event interface (see EventIteration.h).
#include "EventIteration.h"

#include <algorithm>
#include <cmath>

namespace eqc::rt {

namespace {

size_t discreteOffset(const eqc_model &m) { return static_cast<size_t>(m.n_params); }
size_t preOffset(const eqc_model &m) { return discreteOffset(m) + static_cast<size_t>(m.n_discretes); }
size_t preContinuousOffset(const eqc_model &m) { return preOffset(m) + static_cast<size_t>(m.n_discretes); }
size_t initialFlag(const eqc_model &m) { return preContinuousOffset(m) + static_cast<size_t>(m.n_pre_continuous); }

/// A value that changed (NaN to NaN is no change).
bool moved(double now, double before) { return now != before && !(std::isnan(now) && std::isnan(before)); }

} // namespace

bool eventTableValid(const eqc_model &m) {
  if (m.n_discretes < 0 || m.n_indicators < 0 || m.n_pre_continuous < 0)
    return false;
  if (m.n_delays < 0 || (m.n_delays > 0 && !m.delays))
    return false;
  // The delay context is the last entry of p, after the parameters and the event part.
  const int delayEntry = m.n_delays > 0 ? 1 : 0;
  if (m.n_discretes == 0 && m.n_pre_continuous == 0)
    return m.n_indicators == 0 && (m.n_p == 0 || m.n_p == m.n_params + delayEntry) &&
           (!delayEntry || m.delay_context == m.n_params);
  if (m.n_p != m.n_params + 2 * m.n_discretes + m.n_pre_continuous + 1 + delayEntry ||
      (delayEntry && m.delay_context != m.n_p - 1))
    return false;
  if (!m.discrete_start || !m.event || (m.n_discretes > 0 && !m.discrete_names))
    return false;
  for (int j = 0; j < m.n_discretes; ++j)
    if (!m.discrete_names[j])
      return false;
  if (m.n_indicators > 0 && (!m.zc || !m.indicator_discrete))
    return false;
  for (int k = 0; k < m.n_indicators; ++k)
    if (m.indicator_discrete[k] < 0 || m.indicator_discrete[k] >= m.n_discretes)
      return false;
  if (m.n_pre_continuous > 0 && !m.pre_continuous_source)
    return false;
  for (int k = 0; k < m.n_pre_continuous; ++k)
    if (m.pre_continuous_source[k] < 0 || m.pre_continuous_source[k] >= 2 * m.n_states + m.n_algebraics)
      return false;
  return true;
}

void EventIteration::attach(const eqc_model &m, const double *p) {
  const size_t n = static_cast<size_t>(m.n_states), nz = static_cast<size_t>(m.n_indicators);
  conditions_.assign(nz, 0);
  for (size_t k = 0; k < nz; ++k)
    conditions_[k] = p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] != 0 ? 1 : 0;
  z_.assign(nz, 0.0);
  zAhead_.assign(nz, 0.0);
  xAhead_.assign(n, 0.0);
  dxAhead_.assign(n, 0.0);
  dx_.assign(n, 0.0);
  xBefore_.assign(n, 0.0);
  before_.assign(static_cast<size_t>(m.n_discretes), 0.0);
  last_.assign(static_cast<size_t>(m.n_discretes), 0.0);
}

void EventIteration::crossedBy(const eqc_model &m, const double *z, std::vector<int> &crossed) const {
  crossed.assign(conditions_.size(), 0);
  for (size_t k = 0; k < conditions_.size(); ++k) {
    const bool holds = z[k] > 0 || (z[k] == 0 && m.indicator_at_zero && m.indicator_at_zero[k]);
    crossed[k] = holds != (conditions_[k] != 0) ? 1 : 0;
  }
}

int EventIteration::readConditions(const eqc_model &m, double t, const double *x, double *a, double *p,
                                   const int *crossed) {
  const size_t n = static_cast<size_t>(m.n_states), nz = static_cast<size_t>(m.n_indicators);
  if (int code = m.zc(t, x, dx_.data(), a, p, z_.data()))
    return code;
  // Look just after t along the solution for indicators that crossed or sit at zero; one that
  // stays at zero there takes its relation's value (a <= b holds at a = b, a < b does not).
  bool needAhead = false;
  for (size_t k = 0; k < nz; ++k)
    needAhead = needAhead || (crossed && crossed[k]) || z_[k] == 0.0;
  if (needAhead) {
    const double ahead = 1e-9 * std::max(1.0, std::fabs(t));
    for (size_t i = 0; i < n; ++i)
      xAhead_[i] = x[i] + ahead * dx_[i];
    if (int code = m.rhs(t + ahead, xAhead_.data(), dxAhead_.data(), a, p))
      return code;
    if (int code = m.zc(t + ahead, xAhead_.data(), dxAhead_.data(), a, p, zAhead_.data()))
      return code;
  }
  for (size_t k = 0; k < nz; ++k) {
    const bool look = (crossed && crossed[k]) || z_[k] == 0.0;
    const double zk = look ? zAhead_[k] : z_[k];
    const bool atZero = m.indicator_at_zero && m.indicator_at_zero[k];
    p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] = zk > 0 || (zk == 0 && atZero) ? 1.0 : 0.0;
  }
  // The derivatives and algebraic variables under the new conditions.
  return m.rhs(t, x, dx_.data(), a, p);
}

int EventIteration::conditionsAt(const eqc_model &m, double t, const double *x, double *a, double *p, bool &changed) {
  changed = false;
  const size_t nz = static_cast<size_t>(m.n_indicators);
  std::vector<double> before(nz);
  for (size_t k = 0; k < nz; ++k)
    before[k] = p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])];
  if (int code = m.rhs(t, x, dx_.data(), a, p))
    return code;
  if (int code = readConditions(m, t, x, a, p, nullptr))
    return code;
  for (size_t k = 0; k < nz; ++k)
    changed = changed || p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] != before[k];
  for (size_t k = 0; k < nz; ++k)
    conditions_[k] = p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] != 0 ? 1 : 0;
  return 0;
}

int EventIteration::iterate(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed,
                            bool initial, bool terminal) {
  lastReinit_ = false;
  p[initialFlag(m)] = initial ? 1.0 : 0.0;
  int code = settle(m, t, x, a, p, crossed, initial, terminal);
  p[initialFlag(m)] = 0.0;
  return code;
}

int EventIteration::settle(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed,
                           bool initial, bool terminal) {
  const size_t n = static_cast<size_t>(m.n_states), na = static_cast<size_t>(m.n_algebraics);
  const size_t nd = static_cast<size_t>(m.n_discretes), nz = static_cast<size_t>(m.n_indicators);
  auto discrete = [&](size_t j) -> double & { return p[discreteOffset(m) + j]; };
  Event ev;
  ev.t = t;
  for (size_t j = 0; j < nd; ++j)
    before_[j] = last_[j] = discrete(j);
  for (int iteration = 0; iteration < 100; ++iteration) {
    ++iterations_;
    if (int code = m.rhs(t, x, dx_.data(), a, p))
      return code;
    // pre: the values before this step of the iteration; while initializing, the start values
    // (Modelica's pre(v) = v.start there, so `when initial() then n = pre(n) + 1` runs once).
    if (!initial)
      for (size_t j = 0; j < nd; ++j)
        p[preOffset(m) + j] = discrete(j);
    for (size_t k = 0; k < static_cast<size_t>(m.n_pre_continuous); ++k) {
      const size_t source = static_cast<size_t>(m.pre_continuous_source[k]);
      p[preContinuousOffset(m) + k] = source < n ? x[source] : source < 2 * n ? dx_[source - n] : a[source - 2 * n];
    }
    if (nz)
      if (int code = readConditions(m, t, x, a, p, crossed))
        return code;
    if (terminal && iteration == 0) // terminal() becomes true (its pre() is false)
      for (size_t j = 0; j < nd; ++j)
        if (m.discrete_kind && m.discrete_kind[j] == EQC_DISCRETE_TERMINAL)
          discrete(j) = 1.0;
    std::copy(x, x + n, xBefore_.begin());
    aBefore_.assign(a, a + na);
    int code = m.event(t, x, dx_.data(), a, p);
    if (code && code != EQC_MODEL_EVENT_TERMINATE)
      return code;
    moved_.clear();
    for (size_t i = 0; i < n; ++i)
      if (moved(x[i], xBefore_[i]))
        moved_.push_back(static_cast<int>(i));
    for (size_t i = 0; i < na; ++i)
      if (moved(a[i], aBefore_[i]))
        moved_.push_back(static_cast<int>(n + i));
    bool reinit = false;
    for (int v : moved_)
      reinit = reinit || v < static_cast<int>(n);
    if (afterReinit && !moved_.empty()) {
      if (int failure = afterReinit(t, x, dx_.data(), a, moved_))
        return failure;
      reinit = true;
    }
    ev.reinit = ev.reinit || reinit;
    bool changed = reinit;
    for (size_t j = 0; j < nd; ++j)
      changed = changed || discrete(j) != (initial ? last_[j] : p[preOffset(m) + j]);
    for (size_t j = 0; j < nd; ++j)
      last_[j] = discrete(j);
    if (code == EQC_MODEL_EVENT_TERMINATE) {
      terminated_ = true;
      terminateTime_ = t;
    }
    if (changed && code != EQC_MODEL_EVENT_TERMINATE)
      continue;
    for (size_t j = 0; j < nd; ++j) {
      p[preOffset(m) + j] = discrete(j);
      if (discrete(j) != before_[j])
        ev.changes.emplace_back(static_cast<int>(j), discrete(j));
    }
    lastReinit_ = ev.reinit;
    if (!initial) {
      ++events_;
      idleEvents_ = ev.changes.empty() && !ev.reinit ? idleEvents_ + 1 : 0;
      for (size_t k = 0; crossed && k < nz; ++k)
        if (crossed[k]) {
          lastCrossed_ = static_cast<int>(k);
          break;
        }
      if (keepLog)
        log_.push_back(std::move(ev));
      if (idleLimit > 0 && idleEvents_ > idleLimit)
        return stopCode(StopCode::EventIdle);
    }
    for (size_t k = 0; k < nz; ++k)
      conditions_[k] = discrete(static_cast<size_t>(m.indicator_discrete[k])) != 0 ? 1 : 0;
    return code == EQC_MODEL_EVENT_TERMINATE ? EQC_EVENT_TERMINATE : 0;
  }
  unsettled_.clear();
  for (size_t j = 0; j < nd; ++j)
    if (discrete(j) != (initial ? before_[j] : p[preOffset(m) + j]))
      unsettled_.push_back(static_cast<int>(j));
  return stopCode(StopCode::EventUnsettled);
}

} // namespace eqc::rt
