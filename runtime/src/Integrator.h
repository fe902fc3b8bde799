// Internal interface shared by eqc_integrate's dispatcher and the individual
// integration methods.
#ifndef EQC_RUNTIME_INTEGRATOR_H
#define EQC_RUNTIME_INTEGRATOR_H

#include "eqc/eqc_runtime.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace eqc::rt {

class EventLocator;

template <typename Signature> class FunctionRef;

/// A non-owning reference to a callable (as LLVM's function_ref): the dense
/// output of a step handed to the event locator without allocating. The
/// callable must outlive the reference.
template <typename Result, typename... Args> class FunctionRef<Result(Args...)> {
public:
  template <typename Callable,
            typename = std::enable_if_t<!std::is_same_v<std::decay_t<Callable>, FunctionRef>>>
  FunctionRef(Callable &&callable) // NOLINT: implicit, like a function pointer
      : object(const_cast<void *>(static_cast<const void *>(std::addressof(callable)))),
        trampoline([](void *target, Args... args) -> Result {
          return (*static_cast<std::remove_reference_t<Callable> *>(target))(std::forward<Args>(args)...);
        }) {}

  Result operator()(Args... args) const { return trampoline(object, std::forward<Args>(args)...); }

private:
  void *object;
  Result (*trampoline)(void *, Args...);
};

/// Calls a user callback and maps its result: 0 gives EQC_OK, any other value
/// (or an exception, counted as -1: it must not unwind through the C ABI)
/// EQC_ERR_RHS with stats.rhs_code set.
template <typename Call>
int callUser(eqc_stats &stats, Call &&call) {
  int code;
  try {
    code = call();
  } catch (...) {
    code = -1;
  }
  if (code == 0)
    return EQC_OK;
  stats.rhs_code = code;
  return EQC_ERR_RHS;
}

/// Calls the model's right-hand side, counts evaluations and records a non-zero
/// return code.
class RhsEvaluator {
public:
  RhsEvaluator(eqc_rhs_fn fn, void *user, eqc_stats &stats)
      : fn(fn), user(user), stats(stats) {}

  /// Evaluates dxdt = f(t, x); returns EQC_OK or EQC_ERR_RHS (with
  /// stats.rhs_code set).
  int operator()(double t, const double *x, double *dxdt) {
    ++stats.rhs_evals;
    return callUser(stats, [&] { return fn(user, t, x, dxdt); });
  }
  /// The statistics it records into (rhs_code of the last failure).
  const eqc_stats &statistics() const { return stats; }

private:
  eqc_rhs_fn fn;
  void *user;
  eqc_stats &stats;
};

/// Forwards states to the user's output callback, never twice at the same time.
class OutputSink {
public:
  OutputSink(eqc_output_fn fn, void *user, eqc_stats &stats)
      : fn(fn), user(user), stats(stats) {}

  /// Reports (t, x); returns EQC_OK or EQC_ERR_STOPPED when the callback asks
  /// to stop.
  int emit(double t, const double *x) {
    if (hasLast && t == lastTime)
      return EQC_OK;
    hasLast = true;
    lastTime = t;
    if (!fn)
      return EQC_OK;
    ++stats.outputs;
    int code;
    try {
      code = fn(user, t, x);
    } catch (...) {
      code = 1;
    }
    return code == 0 ? EQC_OK : EQC_ERR_STOPPED;
  }

  /// Reports (t, x) even when t was the last time reported: the right limit of
  /// an event, written after its left limit at the same time.
  int emitRightLimit(double t, const double *x) {
    hasLast = false;
    return emit(t, x);
  }

  /// Treats t as already reported, so that a method taking over at t (auto's
  /// switch) does not emit it again, nor emit it at all when it is off the grid.
  void markEmitted(double t) {
    hasLast = true;
    lastTime = t;
  }

private:
  eqc_output_fn fn;
  void *user;
  eqc_stats &stats;
  bool hasLast = false;
  double lastTime = 0.0;
};

/// Calls the user's post-step hook, counts the calls and records a non-zero
/// return code; without a hook it does nothing. An observer (`observes`) is a
/// hook that never changes x: it sees the accepted steps only, and the methods
/// neither scan nor compare the state after it.
class StepHook {
public:
  StepHook(eqc_step_fn fn, void *user, eqc_stats &stats, bool observes = false)
      : fn(fn), user(user), stats(stats), observes(observes) {}

  /// True when there is a hook that may change the state.
  bool active() const { return fn != nullptr && !observes; }

  /// Lets the hook change x at t; returns EQC_OK or EQC_ERR_RHS (with
  /// stats.rhs_code set).
  int operator()(double t, double *x) {
    if (!fn)
      return EQC_OK;
    ++stats.hook_calls;
    return callUser(stats, [&] { return fn(user, t, x); });
  }
  /// An observer's call after an accepted step (nothing for a hook that may
  /// change the state, or none).
  int observe(double t, double *x) { return observes ? (*this)(t, x) : EQC_OK; }

private:
  eqc_step_fn fn;
  void *user;
  eqc_stats &stats;
  bool observes;
};

/// The output times t_start + k*interval (k >= 1) strictly before t_end; t_end
/// itself is emitted separately. Grid points within 1e-9*interval of t_end are
/// dropped so that floating-point accumulation never produces a second output a
/// few ulps before t_end.
class OutputGrid {
public:
  /// With a finite `origin`, the grid is origin + k*interval and starts after tStart.
  OutputGrid(double tStart, double tEnd, double interval, double origin = NAN)
      : tStart(std::isfinite(origin) ? origin : tStart), interval(interval), limit(tEnd - 1e-9 * interval) {
    if (std::isfinite(origin) && interval > 0) {
      k = std::max<long long>(1, static_cast<long long>(std::floor((tStart - origin) / interval)));
      while (next() <= tStart + 1e-9 * interval)
        ++k;
    }
  }

  /// True if there is a grid time left (never for interval == 0).
  bool hasNext() const { return interval > 0 && next() < limit; }
  /// The next grid time; computed from k rather than summed to avoid drift.
  double next() const { return tStart + static_cast<double>(k) * interval; }
  /// Moves past the current grid time.
  void advance() { ++k; }

private:
  double tStart, interval, limit;
  long long k = 1;
};

/// Everything a method needs; the options are already validated and defaults
/// resolved.
struct IntegrationProblem {
  int n;
  RhsEvaluator &rhs;
  OutputSink &output;
  StepHook &hook;
  eqc_jacobian jacobian; ///< used by the implicit methods only; pattern validated
  eqc_options
      opt; ///< h_max and max_steps already replaced by their effective values
  /// State events: null without them, so that a method's only cost is one
  /// test per accepted step (see Events.h).
  EventLocator *events = nullptr;
  /// Variable-step methods: lower bound of the automatic first step, 0 for
  /// none. Set after an event: Hairer's heuristic scales the first step by
  /// |x| / |f|, which gives a step of a few ulps at a state near 0 (a ball
  /// that has just bounced); CVODE bounds it the same way.
  double minFirstStep = 0.0;
  /// Fixed-step methods: steps end at fixedStepOrigin + k*dt (NaN: opt.t_start),
  /// so that a restart after an event keeps the step and output grid.
  double fixedStepOrigin = NAN;

  /// The absolute tolerance of component i.
  double atol(int i) const { return opt.atol_vector ? opt.atol_vector[i] : opt.atol; }
  /// The error weight atol_i + rtol * size of component i.
  double weight(int i, double size) const { return atol(i) + opt.rtol * size; }
};

/// Returns the index of the first non-finite entry of v[0..n), or -1 if all are
/// finite.
inline int firstNonFinite(int n, const double *v) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(v[i]))
      return i;
  return -1;
}

/// Passes the accepted state x at t (equal to stepResult on entry) through the
/// hook; changed tells whether the hook modified it. On failure (EQC_ERR_RHS,
/// or EQC_ERR_NONFINITE with stats.failed_component set) x is reset to
/// stepResult, which is still a valid state at t. Requires: x finite (every
/// method rejects a non-finite step before it gets here).
inline int applyStepHook(IntegrationProblem &p, double t, double *x,
                         const double *stepResult, eqc_stats &stats,
                         bool &changed) {
  changed = false;
  if (!p.hook.active())
    return p.hook.observe(t, x); // x stays the finite step result: no scans
  int rc = p.hook(t, x);
  int bad = rc == EQC_OK ? firstNonFinite(p.n, x) : -1;
  if (rc != EQC_OK || bad >= 0) {
    for (int i = 0; i < p.n; ++i)
      x[i] = stepResult[i];
    if (bad >= 0) {
      stats.failed_component = bad;
      return EQC_ERR_NONFINITE;
    }
    return rc;
  }
  for (int i = 0; i < p.n && !changed; ++i)
    changed = x[i] != stepResult[i];
  return EQC_OK;
}

/// Passes an interpolated output state (a scratch copy, not the integrator's
/// state) through the hook, so that dense output obeys it as the steps do.
inline int applyOutputHook(IntegrationProblem &p, double t, double *copy,
                           eqc_stats &stats) {
  if (!p.hook.active())
    return EQC_OK;
  if (int rc = p.hook(t, copy))
    return rc;
  if (int bad = firstNonFinite(p.n, copy); bad >= 0) {
    stats.failed_component = bad;
    return EQC_ERR_NONFINITE;
  }
  return EQC_OK;
}

/// Smallest step that still advances t by more than rounding noise.
inline double minStep(double t) {
  return 10.0 * DBL_EPSILON * std::max(1.0, std::fabs(t));
}

/// Rejects a step that produced NaN or Inf (component `bad`, or -1 for the error estimate): such a
/// step often left the model's domain, and a much shorter one may stay inside it. Returns EQC_OK
/// to retry with the shorter h, or EQC_ERR_NONFINITE once h falls below minStep(t).
inline int rejectNonFiniteStep(double &h, double t, int bad, bool &rejected, eqc_stats &stats) {
  constexpr double NonFiniteShrink = 0.1;
  ++stats.rejected;
  rejected = true;
  h *= NonFiniteShrink;
  if (h < minStep(t)) {
    stats.failed_component = bad >= 0 ? bad : 0;
    return EQC_ERR_NONFINITE;
  }
  return EQC_OK;
}

/// True when `rc` is a right-hand side's failure at a trial point that asked for a retry
/// (EQC_RHS_RETRY in stats.rhs_code).
inline bool retryable(int rc, const eqc_stats &stats) {
  return rc == EQC_ERR_RHS && (stats.rhs_code & EQC_RHS_RETRY) != 0;
}

/// Rejects a trial step in which f could not be evaluated (retryable): the step
/// left the model's domain, and a much shorter one may stay inside it. Returns
/// EQC_OK to retry with the shorter h, or EQC_ERR_RHS (rhs_code kept) once h
/// falls below minStep(t).
inline int rejectFailedEvaluation(double &h, double t, bool &rejected, eqc_stats &stats) {
  constexpr double FailedEvaluationShrink = 0.25;
  ++stats.rejected;
  rejected = true;
  h *= FailedEvaluationShrink;
  return h < minStep(t) ? EQC_ERR_RHS : EQC_OK;
}

/// Ratio e / sk that tolerates sk == 0 (atol == 0 at a zero state): exact zero
/// error stays zero.
inline double scaled(double e, double sk) { return e == 0.0 ? 0.0 : e / sk; }

/// Hairer's initial step (HNW I, II.4) for a method of the given order: a step
/// whose explicit Euler error estimate matches the tolerance, bounded by 100
/// times a first guess from |x| / |f|. f0 = f(t, x); stage and f1 are scratch.
inline int initialStep(IntegrationProblem &p, double t, const double *x,
                       const double *f0, double *stage, double *f1, int order,
                       double &h) {
  const int n = p.n;
  const eqc_options &opt = p.opt;
  double dnf = 0.0, dny = 0.0;
  for (int i = 0; i < n; ++i) {
    double sk = p.weight(i, std::fabs(x[i]));
    dnf += std::pow(scaled(f0[i], sk), 2);
    dny += std::pow(scaled(x[i], sk), 2);
  }
  h = (dnf <= 1e-10 || dny <= 1e-10) ? 1e-6 : std::sqrt(dny / dnf) * 0.01;
  h = std::min(h, opt.h_max);

  for (int i = 0; i < n; ++i)
    stage[i] = x[i] + h * f0[i];
  if (int rc = p.rhs(t + h, stage, f1)) {
    if (!retryable(rc, p.rhs.statistics()))
      return rc;
    h *= 1e-3; // f cannot be evaluated at t + h: start short and let step rejection find the size
    return EQC_OK;
  }
  double der2 = 0.0;
  for (int i = 0; i < n; ++i) {
    double sk = p.weight(i, std::fabs(x[i]));
    der2 += std::pow(scaled(f1[i] - f0[i], sk), 2);
  }
  der2 = std::sqrt(der2) / h;
  double der12 = std::max(std::fabs(der2), std::sqrt(dnf));
  double h1;
  if (!std::isfinite(der12))
    h1 = h * 1e-3; // f blew up at t + h: start small and let step rejection
                   // take over
  else if (der12 <= 1e-15)
    h1 = std::max(1e-6, h * 1e-3);
  else
    h1 = std::pow(0.01 / der12, 1.0 / order);
  h = std::min({100.0 * h, h1, opt.h_max});
  if (p.minFirstStep > 0.0)
    h = std::min(std::max(h, p.minFirstStep), opt.h_max);
  return EQC_OK;
}

/// Checks a Jacobian description: a known solver, a valid pattern, and a
/// pattern wherever the sparse solver (or a values callback) needs one.
bool jacobianValid(int n, const eqc_jacobian &jac);

/// Before an implicit method's first use of p.jacobian: runs its prepare
/// callback (once) and checks the result. Returns EQC_OK, EQC_ERR_RHS (prepare
/// failed, stats.rhs_code set) or EQC_ERR_ARGUMENT (invalid description).
int prepareJacobian(IntegrationProblem &p, eqc_stats &stats);

/// Runs opt.method (auto, dopri5, dop853, radau5 or a fixed-step method) on p.
int runMethod(IntegrationProblem &p, double *x, eqc_stats &stats);

/// Integrates with euler, heun, rk4 or beuler (backward Euler, see
/// BackwardEuler.h).
/// Requires: validated options, x = x(t_start), stats zeroed with t_reached =
/// t_start (or accumulated by earlier segments). Ensures: the hook has seen
/// every accepted step; x and stats.t_reached hold the last valid state and
/// time, also on failure. With p.events, a step in which a condition changes
/// is cut at the event and the method returns EventLocated (the hook does not
/// see that step).
int runFixedStep(IntegrationProblem &p, double *x, eqc_stats &stats);

/// Internal result of runDopri5 with stiffness detection: the problem became
/// stiff. Never returned through the C ABI.
constexpr int StiffnessDetected = -1;

/// Internal result of a method that stopped at a state event located by
/// p.events: x and stats.t_reached hold the event time and the left-limit
/// state (not yet hooked), and every grid time before it has been emitted.
/// Never returned through the C ABI.
constexpr int EventLocated = -2;

/// Integrates with Dormand-Prince 5(4), PI step control and dense output.
/// Requires and ensures the same as runFixedStep. With detectStiffness, runs
/// Hairer's stiffness test after every accepted step and, once it fires, stops
/// after that step (hooked, its outputs emitted) with StiffnessDetected; x and
/// stats.t_reached then hold that step's state and time (t_reached < t_end).
int runDopri5(IntegrationProblem &p, double *x, eqc_stats &stats,
              bool detectStiffness = false);

/// Integrates with Hairer's DOP853 (order 8, error estimators of order 5 and
/// 3), step control and dense output of order 7.
/// Requires and ensures the same as runFixedStep.
int runDop853(IntegrationProblem &p, double *x, eqc_stats &stats);

/// Integrates with Hairer & Wanner's RADAU5 (Radau IIA of order 5, simplified
/// Newton with kept Jacobian and LU factors, dense output of order 3).
/// Requires and ensures the same as runFixedStep.
int runRadau5(IntegrationProblem &p, double *x, eqc_stats &stats);

/// Integrates with dopri5 until Hairer's stiffness test fires, then with radau5
/// from that state to t_end (see EQC_METHOD_AUTO); sets stats.method_used and
/// stats.switch_time. Requires and ensures the same as runFixedStep.
int runAuto(IntegrationProblem &p, double *x, eqc_stats &stats);

/// eqc_integrate_events; with `hookObserves` the hook is an observer (see StepHook): called
/// after accepted steps only and never changing x (eqc_sim's step callback without projection).
/// `flags`: null, or events->nz IndicatorFlags, in/out (shared with the EventIteration that
/// handles the events).
int integrateEvents(int n, eqc_rhs_fn f, void *f_user, const eqc_jacobian *jac, double *x,
                    const eqc_options *opt, eqc_output_fn out, void *out_user, eqc_step_fn hook,
                    void *hook_user, bool hookObserves, const eqc_events *events, eqc_stats *stats,
                    unsigned char *flags = nullptr);

/// Bits of integrateEvents' per-indicator `flags`.
enum IndicatorFlag : unsigned char {
  /// Its changes are taken at the end of the step (or output time) that shows them, without
  /// locating them (a relation that chatters in a sliding motion, which located events would stop
  /// every few ulps); cleared after kRelaxedQuietSteps accepted steps without a change.
  kIndicatorRelaxed = 1,
  /// Held on its boundary: the event iteration found discrete values that are consistent only
  /// with the condition's value kept where the indicator is exactly zero at the event and just
  /// after it (a friction element at its limit while another one takes the rest of the load);
  /// while the indicator stays exactly zero, the condition keeps that value. Cleared where the
  /// event iteration reads the indicator off zero.
  kIndicatorOnBoundary = 2,
};

/// Accepted steps without a change after which a relaxed indicator is located again.
constexpr int kRelaxedQuietSteps = 50;

} // namespace eqc::rt

#endif // EQC_RUNTIME_INTEGRATOR_H
