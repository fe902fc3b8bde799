// State events: the root finder on a step's dense output, the event locator the
// methods call after each accepted step, and the segment loop that hands each
// event to the caller and restarts the method (eqc_integrate_events).
#include "Events.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace eqc::rt {

namespace {

constexpr long DefaultChatterEvents = 100;
/// The default chatter window, relative to t_end - t_start.
constexpr double DefaultChatterWindow = 1e-8;

/// After an event the automatic first step is at least this many DBL_EPSILON
/// times max(|t|, |t_end|) (CVODE's lower bound for its first step, cvHin).
constexpr double MinFirstStepEps = 100.0;

} // namespace

ChatterLimit chatterLimit(const eqc_events &events, double tStart, double tEnd) {
  return {events.chatter_events > 0 ? events.chatter_events : DefaultChatterEvents,
          events.chatter_window > 0 ? events.chatter_window : DefaultChatterWindow * (tEnd - tStart)};
}

int locateCrossing(int nz, const HeldConditions &held, double tl, double *zl, double tr, double *zr,
                   IndicatorFunction indicators, double *zMid, CrossingResult &result) {
  const double tolerance = RootToleranceEps * DBL_EPSILON * std::max({std::fabs(tl), std::fabs(tr), tr - tl});
  // Anderson-Bjorck: when the same end moves twice in a row, the values kept
  // at the other end are scaled down (by 1 - z_new / z_old, or 1/2), so that
  // the secant moves that end too; the signs, and so the conditions, stay.
  int side = 0; // 1: tr moved last, 2: tl moved last
  double widthsBefore[3] = {INFINITY, INFINITY, INFINITY}; // 1, 2 and 3 iterations ago
  result.iterations = 0;
  while (tr - tl > tolerance && result.iterations < MaxRootIterations) {
    const double width = tr - tl;
    // The earliest secant estimate among the indicators that changed in
    // (tl, tr]; only those consistent at tl have a bracketing pair of values.
    double candidate = NAN;
    for (int k = 0; k < nz; ++k) {
      if (!held.changedAt(zr, k) || held.changedAt(zl, k))
        continue;
      // z_k(tl) and z_k(tr) lie on different sides of 0 (one may be 0), so
      // the denominator is never 0.
      const double estimate = tr - width * zr[k] / (zr[k] - zl[k]);
      if (std::isfinite(estimate) && !(candidate <= estimate))
        candidate = estimate;
    }
    if (std::isnan(candidate) || width > 0.5 * widthsBefore[2])
      candidate = tl + 0.5 * width;
    candidate = std::min(std::max(candidate, tl + 0.5 * tolerance), tr - 0.5 * tolerance);
    if (!(candidate > tl && candidate < tr))
      break; // the bracket cannot be split further
    ++result.iterations;
    if (int rc = indicators(candidate, zMid))
      return rc;
    const bool rightMoves = held.anyChanged(nz, zMid);
    double *moving = rightMoves ? zr : zl, *kept = rightMoves ? zl : zr;
    if (side == (rightMoves ? 1 : 2))
      for (int k = 0; k < nz; ++k) {
        const double factor = 1.0 - zMid[k] / moving[k];
        kept[k] *= factor > 0.0 && factor < 1.0 ? factor : 0.5;
      }
    std::copy(zMid, zMid + nz, moving);
    (rightMoves ? tr : tl) = candidate;
    side = rightMoves ? 1 : 2;
    widthsBefore[2] = widthsBefore[1];
    widthsBefore[1] = widthsBefore[0];
    widthsBefore[0] = width;
  }
  result.time = tr;
  return EQC_OK;
}

EventLocator::EventLocator(int n, const eqc_events &events, eqc_stats &stats, unsigned char *flags)
    : n(n), nz(events.nz), events(events), stats(stats),
      flags(flags), held{events.conditions, events.at_zero, flags}, zLeft(nz), zRight(nz), zMid(nz),
      scratch(n), eventState(n), crossedFlags(nz), quietSteps(nz, 0) {}

int EventLocator::evaluate(double t, const double *x, double *z) {
  if (int rc = callUser(stats, [&] { return events.zc(events.user, t, x, z); }))
    return rc;
  for (int k = 0; k < nz; ++k)
    if (!std::isfinite(z[k])) {
      stats.event_indicator = k;
      stats.failed_component = -1;
      return EQC_ERR_NONFINITE;
    }
  return EQC_OK;
}

int EventLocator::afterStep(double tOld, double tNew, const double *xNew, DenseOutput dense, bool &located,
                            const OutputGrid *grid) {
  located = false;
  auto indicators = [&](double t, double *z) -> int {
    if (int rc = dense(t, scratch.data()))
      return rc;
    return evaluate(t, scratch.data(), z);
  };
  // The conditions are checked at the output times inside the step, then at its end: a
  // condition that changes and changes back between two of these points is not seen, so the
  // output interval bounds how short a switching episode can be and still be found, however long
  // the step (a stiff solver may step over many periods of a source that the states barely feel).
  double tl = tOld;
  bool haveLeft = false;
  double tr = tNew;
  bool found = false;
  if (grid) {
    OutputGrid g = *grid;
    for (; g.hasNext() && g.next() < tNew; g.advance()) {
      const double tg = g.next();
      if (tg <= tOld)
        continue;
      if (int rc = indicators(tg, zRight.data()))
        return rc;
      if (held.anyChanged(nz, zRight.data())) {
        tr = tg;
        found = true;
        break;
      }
      tl = tg;
      std::copy(zRight.begin(), zRight.end(), zLeft.begin());
      haveLeft = true;
    }
  }
  if (!found) {
    if (int rc = evaluate(tNew, xNew, zRight.data()))
      return rc;
    if (!held.anyChanged(nz, zRight.data())) {
      if (flags)
        for (int k = 0; k < nz; ++k)
          if ((flags[k] & kIndicatorRelaxed) && ++quietSteps[static_cast<size_t>(k)] >= kRelaxedQuietSteps)
            flags[k] &= static_cast<unsigned char>(~kIndicatorRelaxed); // it stayed put: located again
      return EQC_OK;
    }
  }
  // Only relaxed indicators changed: the event is where the change shows (no location).
  bool relaxedOnly = flags != nullptr;
  for (int k = 0; relaxedOnly && k < nz; ++k)
    if (held.changedAt(zRight.data(), k))
      relaxedOnly = (flags[k] & kIndicatorRelaxed) != 0;
  if (relaxedOnly) {
    for (int k = 0; k < nz; ++k) {
      crossedFlags[static_cast<size_t>(k)] = held.changedAt(zRight.data(), k) ? 1 : 0;
      if (crossedFlags[static_cast<size_t>(k)])
        quietSteps[static_cast<size_t>(k)] = 0;
    }
    iterations = 0;
    relaxed = true;
    eventTime = tr;
    if (tr == tNew)
      std::copy(xNew, xNew + n, eventState.begin());
    else if (int rc = dense(tr, eventState.data()))
      return rc;
    located = true;
    return EQC_OK;
  }
  // z at the bracket's left end, on the dense output (the state the step started from, after the
  // hook), so that both ends of the bracket lie on one curve.
  if (!haveLeft)
    if (int rc = indicators(tl, zLeft.data()))
      return rc;
  relaxed = false;
  CrossingResult result;
  HeldConditions others = held;
  others.skipRelaxed = true;
  if (int rc =
          locateCrossing(nz, others, tl, zLeft.data(), tr, zRight.data(), indicators, zMid.data(), result))
    return rc;
  iterations = result.iterations;
  eventTime = result.time;
  if (eventTime == tNew) {
    std::copy(xNew, xNew + n, eventState.begin());
  } else if (int rc = dense(eventTime, eventState.data())) {
    return rc;
  }
  for (int k = 0; k < nz; ++k)
    crossedFlags[k] = held.changedAt(zRight.data(), k) ? 1 : 0;
  located = true;
  return EQC_OK;
}

int EventLocator::stopAtEvent(IntegrationProblem &p, OutputGrid *grid, DenseOutput dense, double *x) {
  std::copy(eventState.begin(), eventState.end(), x);
  stats.t_reached = eventTime;
  if (grid)
    for (; grid->hasNext() && grid->next() < eventTime; grid->advance()) {
      const double tGrid = grid->next();
      if (int rc = dense(tGrid, scratch.data()))
        return rc;
      if (int rc = applyOutputHook(p, tGrid, scratch.data(), stats))
        return rc;
      if (int rc = p.output.emit(tGrid, scratch.data()))
        return rc;
    }
  return EventLocated;
}

int EventLocator::checkStep(IntegrationProblem &p, double tOld, double tNew, const double *xNew,
                            DenseOutput dense, OutputGrid *grid, double *x) {
  bool located;
  if (int rc = afterStep(tOld, tNew, xNew, dense, located, grid))
    return rc;
  return located ? stopAtEvent(p, grid, dense, x) : EQC_OK;
}

int EventLocator::firstCrossed() const {
  for (int k = 0; k < nz; ++k)
    if (crossedFlags[k])
      return k;
  return -1;
}

namespace {

/// Whether t is a time of the output grid origin + k * interval (to the grid's 1e-9 of an interval).
bool onOutputGrid(double interval, double origin, double t) {
  if (!(interval > 0))
    return false;
  const double k = std::round((t - origin) / interval);
  return std::fabs(t - (origin + k * interval)) <= 1e-9 * interval;
}

} // namespace

int runWithEvents(IntegrationProblem &p, double *x, eqc_stats &stats, const eqc_events &events,
                  unsigned char *flags) {
  const int n = p.n;
  EventLocator locator(n, events, stats, flags);
  p.events = &locator;
  const double tStart = p.opt.t_start;
  const ChatterLimit limit = chatterLimit(events, tStart, p.opt.t_end);
  ChatterGuard chatter(limit.events, limit.window);
  const double outputOrigin = std::isfinite(p.opt.output_origin) ? p.opt.output_origin : tStart;
  std::vector<double> left(n);

  for (;;) {
    if (int rc = runMethod(p, x, stats); rc != EventLocated)
      return rc;
    const double t = stats.t_reached;
    stats.t_event = t;
    stats.event_indicator = locator.firstCrossed();

    // The left limit obeys the hook as an interpolated output does: a hook
    // that decides on steps (a state-selection monitor) is not asked to
    // decide on this state, which ends no step.
    std::copy(x, x + n, left.begin());
    if (int rc = applyOutputHook(p, t, left.data(), stats))
      return rc;
    std::copy(left.begin(), left.end(), x);
    // An event of relaxed indicators ends a step of a sliding motion, one of thousands: it writes
    // no rows of its own (a grid time still gets its row), as the steps between output times do.
    const bool quiet = locator.relaxedEvent() && !onOutputGrid(p.opt.interval, outputOrigin, t);
    if (!quiet)
      if (int rc = p.output.emit(t, x))
        return rc;
    // (Relaxed indicators' events come at step ends, as far apart as the integrator's steps.)
    if (!locator.relaxedEvent() && chatter.tooMany(t))
      return EQC_ERR_CHATTERING;

    ++stats.events;
    // An event that relaxes indicators (EventIteration's chatter watch) starts a new count.
    const long relaxedBefore =
        flags ? std::count_if(flags, flags + events.nz,
                              [](unsigned char f) { return (f & kIndicatorRelaxed) != 0; })
              : 0;
    int decision = 0;
    if (int rc = callUser(stats, [&] {
          decision = events.handle(events.user, t, x, locator.crossed(), events.conditions);
          return decision == EQC_EVENT_TERMINATE ? 0 : decision;
        })) {
      std::copy(left.begin(), left.end(), x);
      return rc;
    }
    if (int bad = firstNonFinite(n, x); bad >= 0) {
      std::copy(left.begin(), left.end(), x);
      stats.failed_component = bad;
      return EQC_ERR_NONFINITE;
    }
    if (locator.relaxedEvent())
      p.output.markEmitted(t);
    else if (int rc = p.output.emitRightLimit(t, x))
      return rc;
    if (flags && std::count_if(flags, flags + events.nz,
                               [](unsigned char f) { return (f & kIndicatorRelaxed) != 0; }) > relaxedBefore)
      chatter.clear();
    if (decision == EQC_EVENT_TERMINATE)
      return EQC_OK;
    if (!(p.opt.t_end - t >= minStep(p.opt.t_end))) {
      // Nothing representable is left to integrate (an event at or a few
      // ulps before t_end): the state is carried to t_end.
      stats.t_reached = p.opt.t_end;
      return p.output.emit(p.opt.t_end, x);
    }

    // A fresh start of the method from the right limit, on the original grid; after an event of
    // relaxed indicators (a sliding motion) with the step that showed it: an automatic first
    // step scales with the state's distance from the surface, and would shrink with it.
    p.opt.t_start = t;
    p.opt.h_init = locator.relaxedEvent() && stats.h_last > 0 ? stats.h_last : 0.0;
    p.opt.output_origin = outputOrigin;
    p.fixedStepOrigin = tStart;
    p.minFirstStep = MinFirstStepEps * DBL_EPSILON * std::max(std::fabs(t), std::fabs(p.opt.t_end));
    if (p.opt.method == EQC_METHOD_AUTO && stats.method_used == EQC_METHOD_RADAU5)
      p.opt.method = EQC_METHOD_RADAU5; // once stiff, stiff for good
  }
}

} // namespace eqc::rt
