// The event iteration over an eqc_model's event interface (see EventIteration.h).
#include "EventIteration.h"

#include "Integrator.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace eqc::rt {

namespace {

size_t discreteOffset(const eqc_model &m) { return static_cast<size_t>(m.n_params); }
size_t preOffset(const eqc_model &m) { return discreteOffset(m) + static_cast<size_t>(m.n_discretes); }
size_t preContinuousOffset(const eqc_model &m) { return preOffset(m) + static_cast<size_t>(m.n_discretes); }
size_t initialFlag(const eqc_model &m) { return preContinuousOffset(m) + static_cast<size_t>(m.n_pre_continuous); }

/// A value that changed (NaN to NaN is no change).
bool moved(double now, double before) { return now != before && !(std::isnan(now) && std::isnan(before)); }

/// Discrete j is a value of the model (not an impure call's held value, EQC_DISCRETE_ONCE): its
/// changes are the event iteration's.
bool tracked(const eqc_model &m, size_t j) {
  return !m.discrete_kind || m.discrete_kind[j] != EQC_DISCRETE_ONCE;
}

/// The discrete values a and b (n_discretes each) are the same, held calls aside.
bool sameDiscretes(const eqc_model &m, const double *a, const double *b) {
  for (size_t j = 0; j < static_cast<size_t>(m.n_discretes); ++j)
    if (tracked(m, j) && a[j] != b[j])
      return false;
  return true;
}

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
  return sensitivityTableValid(m);
}

bool sensitivityTableValid(const eqc_model &m) {
  if (m.n_sensitivities < 0)
    return false;
  if (m.n_sensitivities == 0 || m.n_indicators == 0)
    return true;
  if (!m.sensitivity_state || !m.sensitivity_event_time || !m.indicator_sensitivities)
    return false;
  for (int j = 0; j < m.n_sensitivities; ++j) {
    if (m.sensitivity_event_time[j] < 0 || m.sensitivity_event_time[j] >= m.n_discretes)
      return false;
    for (int i = 0; i < m.n_states; ++i) {
      const int s = m.sensitivity_state[j * m.n_states + i];
      if (s < -1 || s >= m.n_states)
        return false;
    }
  }
  return true;
}

void EventIteration::attach(const eqc_model &m, const double *p) {
  const size_t n = static_cast<size_t>(m.n_states), nz = static_cast<size_t>(m.n_indicators);
  conditions_.assign(nz, 0);
  for (size_t k = 0; k < nz; ++k)
    conditions_[k] = p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] != 0 ? 1 : 0;
  z_.assign(nz, 0.0);
  zAhead_.assign(nz, 0.0);
  atBoundary_.assign(nz, 0);
  crossedAt_.assign(nz, -std::numeric_limits<double>::infinity());
  ownFlags_.assign(nz, 0);
  zCrossing_.assign(nz, 0.0);
  dxCrossing_.assign(static_cast<size_t>(m.n_states), 0.0);
  xAhead_.assign(n, 0.0);
  dxAhead_.assign(n, 0.0);
  dx_.assign(n, 0.0);
  xBefore_.assign(n, 0.0);
  before_.assign(static_cast<size_t>(m.n_discretes), 0.0);
  last_.assign(static_cast<size_t>(m.n_discretes), 0.0);
  passStart_.assign(static_cast<size_t>(m.n_discretes), 0.0);
}

void EventIteration::crossedBy(const eqc_model &m, const double *z, std::vector<int> &crossed) const {
  crossed.assign(conditions_.size(), 0);
  for (size_t k = 0; k < conditions_.size(); ++k) {
    const bool holds = z[k] > 0 || (z[k] == 0 && m.indicator_at_zero && m.indicator_at_zero[k]);
    crossed[k] = holds != (conditions_[k] != 0) ? 1 : 0;
  }
}

int EventIteration::lookAhead(const eqc_model &m, double t, const double *x, double *a, double *p,
                              const std::vector<double> &direction, std::vector<double> &z) {
  const size_t n = static_cast<size_t>(m.n_states);
  const double ahead = 1e-9 * std::max(1.0, std::fabs(t));
  for (size_t i = 0; i < n; ++i)
    xAhead_[i] = x[i] + ahead * direction[i];
  if (int code = m.rhs(t + ahead, xAhead_.data(), dxAhead_.data(), a, p))
    return code;
  return m.zc(t + ahead, xAhead_.data(), dxAhead_.data(), a, p, z.data());
}

int EventIteration::readConditions(const eqc_model &m, double t, const double *x, double *a, double *p,
                                   const int *crossed, bool freshCrossing) {
  const size_t nz = static_cast<size_t>(m.n_indicators);
  if (int code = m.zc(t, x, dx_.data(), a, p, z_.data()))
    return code;
  // Look just after t along the solution for indicators that crossed or sit at zero; one that
  // stays at zero there takes its relation's value (a <= b holds at a = b, a < b does not).
  // A crossed one looks along the solution that reached the crossing (its derivatives at the
  // first pass, or after a reinit): the discrete values the iteration tries must not move the
  // side of the crossing that t is on (a friction element's relative speed, crossing zero, would
  // else read the sign of the acceleration of every mode tried).
  if (freshCrossing)
    dxCrossing_ = dx_;
  bool anyCrossed = false, anyZero = false;
  for (size_t k = 0; k < nz; ++k) {
    anyCrossed = anyCrossed || (crossed && crossed[k]);
    anyZero = anyZero || (z_[k] == 0.0 && !(crossed && crossed[k]));
  }
  if (anyZero)
    if (int code = lookAhead(m, t, x, a, p, dx_, zAhead_))
      return code;
  if (anyCrossed)
    if (int code = lookAhead(m, t, x, a, p, dxCrossing_, zCrossing_))
      return code;
  // One held on its boundary keeps its condition while it reads zero at t and ahead.
  unsigned char *held = flags();
  for (size_t k = 0; k < nz; ++k) {
    const double zk = crossed && crossed[k] ? zCrossing_[k] : z_[k] == 0.0 ? zAhead_[k] : z_[k];
    atBoundary_[k] = z_[k] == 0.0 && zk == 0.0;
    if (held[k] & kIndicatorOnBoundary) {
      if (atBoundary_[k])
        continue;
      held[k] &= static_cast<unsigned char>(~kIndicatorOnBoundary);
    }
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
  if (int code = readConditions(m, t, x, a, p, nullptr, true))
    return code;
  for (size_t k = 0; k < nz; ++k)
    changed = changed || p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] != before[k];
  for (size_t k = 0; k < nz; ++k)
    conditions_[k] = p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] != 0 ? 1 : 0;
  return 0;
}

int EventIteration::conditionsOfPoint(const eqc_model &m, double t, const double *x, double *a, double *p,
                                      bool &changed) {
  changed = false;
  if (int code = m.zc(t, x, dx_.data(), a, p, z_.data()))
    return code;
  for (size_t k = 0; k < static_cast<size_t>(m.n_indicators); ++k) {
    const bool atZero = m.indicator_at_zero && m.indicator_at_zero[k];
    const double holds = z_[k] > 0 || (z_[k] == 0 && atZero) ? 1.0 : 0.0;
    double &value = p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])];
    changed = changed || value != holds;
    value = holds;
    conditions_[k] = holds != 0 ? 1 : 0;
  }
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

bool EventIteration::cycles(const eqc_model &m, const double *p) {
  const double *now = p + discreteOffset(m);
  for (size_t i = 0; i < stepHistory_.size(); ++i)
    if (sameDiscretes(m, now, stepHistory_[i].data())) {
      cycleStart_ = i;
      return true;
    }
  return false;
}

int EventIteration::trySetting(const eqc_model &m, double t, double *x, double *a, double *p,
                               const int *crossed, bool onBoundary, bool &repeats, std::vector<int> &held) {
  const size_t nd = static_cast<size_t>(m.n_discretes), nz = static_cast<size_t>(m.n_indicators);
  double *discretes = p + discreteOffset(m);
  repeats = false;
  int code = m.event(t, x, dx_.data(), a, p);
  for (int pass = 0; pass < 2 && !code && !repeats; ++pass) {
    trial_.assign(discretes, discretes + nd);
    if ((code = m.rhs(t, x, dx_.data(), a, p)))
      break;
    if ((code = readConditions(m, t, x, a, p, crossed, false)))
      break;
    held.clear();
    for (size_t k = 0; onBoundary && k < nz; ++k) {
      const size_t j = static_cast<size_t>(m.indicator_discrete[k]);
      if (atBoundary_[k] && discretes[j] != trial_[j]) {
        discretes[j] = trial_[j];
        held.push_back(static_cast<int>(k));
      }
    }
    if ((code = m.event(t, x, dx_.data(), a, p)))
      break;
    repeats = sameDiscretes(m, trial_.data(), discretes);
  }
  return code == EQC_MODEL_EVENT_TERMINATE ? 0 : code;
}

int EventIteration::searchFixedPoint(const eqc_model &m, double t, double *x, double *a, double *p,
                                     const int *crossed, bool &found) {
  found = false;
  const size_t n = static_cast<size_t>(m.n_states), na = static_cast<size_t>(m.n_algebraics);
  const size_t nd = static_cast<size_t>(m.n_discretes), nz = static_cast<size_t>(m.n_indicators);
  double *discretes = p + discreteOffset(m);
  // The conditions that take both values over the cycle.
  std::vector<size_t> cycling;
  for (size_t k = 0; k < nz; ++k) {
    const size_t j = static_cast<size_t>(m.indicator_discrete[k]);
    bool both = false;
    for (size_t i = cycleStart_; i < stepHistory_.size(); ++i)
      both = both || stepHistory_[i][j] != discretes[j];
    if (both && std::find(cycling.begin(), cycling.end(), j) == cycling.end())
      cycling.push_back(j);
  }
  if (cycling.empty() || cycling.size() > kSearchConditions)
    return 0;
  const std::vector<double> base(discretes, discretes + nd);
  const std::vector<double> xBase(x, x + n), aBase(a, a + na);
  const unsigned settings = 1u << cycling.size();
  std::vector<int> held;
  // Settings in the order of how many conditions they flip: the fewest first; strictly read
  // conditions first, then with those on their boundary kept.
  for (bool onBoundary : {false, true})
    for (unsigned flips = 1; flips <= cycling.size(); ++flips)
      for (unsigned mask = 1; mask < settings; ++mask) {
        if (static_cast<unsigned>(__builtin_popcount(mask)) != flips)
          continue;
        std::copy(base.begin(), base.end(), discretes);
        std::copy(xBase.begin(), xBase.end(), x);
        std::copy(aBase.begin(), aBase.end(), a);
        for (size_t i = 0; i < cycling.size(); ++i)
          if (mask & (1u << i))
            discretes[cycling[i]] = base[cycling[i]] != 0 ? 0.0 : 1.0;
        bool repeats = false;
        if (int code = trySetting(m, t, x, a, p, crossed, onBoundary, repeats, held))
          return -code;
        if (repeats && std::equal(xBase.begin(), xBase.end(), x)) {
          found = true;
          for (int k : held) {
            flags()[k] |= kIndicatorOnBoundary;
            boundaryHolds_.emplace_back(t, k);
          }
          return -m.rhs(t, x, dx_.data(), a, p);
        }
      }
  std::copy(base.begin(), base.end(), discretes);
  std::copy(xBase.begin(), xBase.end(), x);
  std::copy(aBase.begin(), aBase.end(), a);
  return 0;
}

void EventIteration::takePre(const eqc_model &m, const double *x, const double *a, double *p, bool initial) {
  const size_t n = static_cast<size_t>(m.n_states), nd = static_cast<size_t>(m.n_discretes);
  // A new step (pre() moves): held impure calls are made again where their branches fire.
  if (!initial)
    for (size_t j = 0; j < nd; ++j) {
      p[preOffset(m) + j] = p[discreteOffset(m) + j];
      if (!tracked(m, j))
        p[discreteOffset(m) + j] = std::numeric_limits<double>::quiet_NaN();
    }
  for (size_t k = 0; k < static_cast<size_t>(m.n_pre_continuous); ++k) {
    const size_t source = static_cast<size_t>(m.pre_continuous_source[k]);
    p[preContinuousOffset(m) + k] = source < n ? x[source] : source < 2 * n ? dx_[source - n] : a[source - 2 * n];
  }
}

int EventIteration::eventPass(const eqc_model &m, double t, double *x, double *a, double *p, bool &reinit,
                              int &code) {
  const size_t n = static_cast<size_t>(m.n_states), na = static_cast<size_t>(m.n_algebraics);
  std::copy(x, x + n, xBefore_.begin());
  aBefore_.assign(a, a + na);
  code = m.event(t, x, dx_.data(), a, p);
  if (code && code != EQC_MODEL_EVENT_TERMINATE)
    return code;
  moved_.clear();
  for (size_t i = 0; i < n; ++i)
    if (moved(x[i], xBefore_[i]))
      moved_.push_back(static_cast<int>(i));
  for (size_t i = 0; i < na; ++i)
    if (moved(a[i], aBefore_[i]))
      moved_.push_back(static_cast<int>(n + i));
  reinit = false;
  for (int v : moved_)
    reinit = reinit || v < static_cast<int>(n);
  if (afterReinit && !moved_.empty()) {
    if (int failure = afterReinit(t, x, dx_.data(), a, moved_))
      return failure;
    reinit = true;
  }
  return 0;
}

int EventIteration::changedPass(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed,
                                bool initial, Passes &passes, bool &stepChanged, bool &endStep) {
  // A pass that brings back the values of an earlier pass of this step cycles: the fixed point
  // is looked for among the settings of the conditions that cycle (a mixed system's Boolean
  // unknowns, searched as other Modelica tools do when iterating does not settle it).
  // Where there is none (`when time >= next then next = pre(next) + T`: its pre() must move
  // first), the step ends with the values of its first pass, as if each pass were a step.
  const size_t nd = static_cast<size_t>(m.n_discretes);
  if (!cycles(m, p)) {
    stepHistory_.emplace_back(p + discreteOffset(m), p + discreteOffset(m) + nd);
    return 0;
  }
  // One search per event: one that found nothing is not repeated for the same cycle.
  bool found = false;
  if (!passes.searchedInVain)
    if (int failed = searchFixedPoint(m, t, x, a, p, crossed, found))
      return -failed;
  passes.searchedInVain = !found;
  stepChanged = !found;
  if (found) {
    ++searches_;
  } else if (!initial) { // (while initializing, pre() never moves: passes go on)
    std::copy(stepHistory_.front().begin(), stepHistory_.front().end(), p + discreteOffset(m));
    endStep = true;
  }
  return 0;
}

int EventIteration::finishEvent(const eqc_model &m, double *p, Event &ev, const int *crossed, bool initial, int code) {
  const size_t nd = static_cast<size_t>(m.n_discretes), nz = static_cast<size_t>(m.n_indicators);
  for (size_t j = 0; j < nd; ++j) {
    const double value = p[discreteOffset(m) + j];
    p[preOffset(m) + j] = value;
    if (tracked(m, j) && value != before_[j])
      ev.changes.emplace_back(static_cast<int>(j), value);
  }
  lastReinit_ = ev.reinit;
  if (!initial) {
    ++events_;
    bool relaxedOnly = indicatorFlags && crossed;
    for (size_t k = 0; relaxedOnly && k < nz; ++k)
      relaxedOnly = !crossed[k] || (indicatorFlags[k] & kIndicatorRelaxed);
    if (!ev.changes.empty() || ev.reinit)
      idleEvents_ = 0;
    else if (!relaxedOnly)
      ++idleEvents_;
    for (size_t k = 0; crossed && k < nz; ++k)
      if (crossed[k]) {
        lastCrossed_ = static_cast<int>(k);
        break;
      }
    const double t = ev.t;
    const bool reinit = ev.reinit;
    for (size_t k = 0; crossed && k < nz; ++k)
      if (crossed[k])
        crossedAt_[k] = t;
    if (keepLog)
      log_.push_back(std::move(ev));
    if (idleLimit > 0 && idleEvents_ > idleLimit) {
      if (!indicatorFlags || !crossed)
        return stopCode(StopCode::EventIdle);
      relax(crossed, t, Relaxed::Idle);
      idleEvents_ = 0;
    }
    // Events that move no state, faster than the integrator may locate them.
    if (reinit)
      switching_.clear();
    else if (indicatorFlags && crossed && !relaxedOnly && switching_.tooMany(t)) {
      relax(crossed, t, Relaxed::Chattering);
      switching_.clear();
    }
  }
  for (size_t k = 0; k < nz; ++k)
    conditions_[k] = p[discreteOffset(m) + static_cast<size_t>(m.indicator_discrete[k])] != 0 ? 1 : 0;
  return code == EQC_MODEL_EVENT_TERMINATE ? EQC_EVENT_TERMINATE : 0;
}

void EventIteration::relax(const int *crossed, double t, Relaxed why) {
  for (size_t k = 0; k < conditions_.size(); ++k)
    if ((crossed[k] || (why == Relaxed::Chattering && t - crossedAt_[k] <= chatterWindow_)) &&
        !(indicatorFlags[k] & kIndicatorRelaxed)) {
      indicatorFlags[k] |= kIndicatorRelaxed;
      relaxations_.push_back({t, static_cast<int>(k), why});
    }
}

int EventIteration::settle(const eqc_model &m, double t, double *x, double *a, double *p, const int *crossed,
                           bool initial, bool terminal) {
  const size_t nd = static_cast<size_t>(m.n_discretes), nz = static_cast<size_t>(m.n_indicators);
  auto discrete = [&](size_t j) -> double & { return p[discreteOffset(m) + j]; };
  Event ev;
  ev.t = t;
  for (size_t j = 0; j < nd; ++j)
    before_[j] = last_[j] = discrete(j);
  // Two levels, as Modelica's event iteration (MLS 3.5, 8.6): a step of the outer iteration
  // solves every equation with pre() fixed, then pre() takes the new values; where discrete
  // variables and continuous ones form a loop (a friction element's mode, its start flags and
  // its acceleration), that step is itself an iteration, with pre() fixed, until the discrete
  // values repeat. Updating pre() on every pass instead reads pre(v) = v of a half-solved step
  // (MSL's PartialFriction then alternates between sliding forward and backward forever).
  // The crossed conditions look along the first pass's derivatives, again after a reinit.
  Passes passes;
  stepHistory_.clear();
  for (int iteration = 0; iteration < kIterations; ++iteration) {
    ++iterations_;
    if (int code = m.rhs(t, x, dx_.data(), a, p))
      return code;
    // pre: the values before this step of the iteration; while initializing, the start values
    // (Modelica's pre(v) = v.start there, so `when initial() then n = pre(n) + 1` runs once).
    if (passes.outerStep)
      takePre(m, x, a, p, initial);
    if (nz)
      if (int code = readConditions(m, t, x, a, p, crossed, passes.readCrossed))
        return code;
    passes.readCrossed = false;
    if (terminal && iteration == 0) // terminal() becomes true (its pre() is false)
      for (size_t j = 0; j < nd; ++j)
        if (m.discrete_kind && m.discrete_kind[j] == EQC_DISCRETE_TERMINAL)
          discrete(j) = 1.0;
    bool reinit = false;
    int code = 0;
    if (int failure = eventPass(m, t, x, a, p, reinit, code))
      return failure;
    ev.reinit = ev.reinit || reinit;
    passes.readCrossed = reinit;
    // Changed within this step (pre fixed).
    bool stepChanged = false, endStep = false;
    for (size_t j = 0; j < nd; ++j)
      stepChanged = stepChanged || (tracked(m, j) && discrete(j) != last_[j]);
    if (stepChanged && !reinit && code != EQC_MODEL_EVENT_TERMINATE)
      if (int failed = changedPass(m, t, x, a, p, crossed, initial, passes, stepChanged, endStep))
        return failed;
    bool preChanged = false;
    for (size_t j = 0; j < nd; ++j)
      preChanged = preChanged || (tracked(m, j) && discrete(j) != p[preOffset(m) + j]);
    // Go on within the step while it changes values (not after a reinit: its when-clause would
    // fire again; and not for ever: a loop without a fixed point falls back to updating pre()).
    // (While initializing every pass is one of the one step: pre() are the start values.)
    const bool stepEnds = reinit || endStep || !stepChanged || ++passes.inner >= kInnerIterations;
    passes.outerStep = initial || stepEnds;
    if (stepEnds) {
      passes.inner = 0;
      stepHistory_.clear();
    }
    const bool changed = reinit || stepChanged || (!initial && preChanged);
    passStart_.swap(last_);
    for (size_t j = 0; j < nd; ++j)
      last_[j] = discrete(j);
    if (code == EQC_MODEL_EVENT_TERMINATE) {
      terminated_ = true;
      terminateTime_ = t;
    }
    if (!changed || code == EQC_MODEL_EVENT_TERMINATE)
      return finishEvent(m, p, ev, crossed, initial, code);
  }
  unsettled_.clear();
  for (size_t j = 0; j < nd; ++j)
    if (tracked(m, j) &&
        (discrete(j) != (initial ? before_[j] : p[preOffset(m) + j]) || discrete(j) != passStart_[j]))
      unsettled_.push_back(static_cast<int>(j));
  return stopCode(StopCode::EventUnsettled);
}

} // namespace eqc::rt
