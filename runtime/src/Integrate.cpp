// eqc_integrate, eqc_integrate_with_hook, eqc_integrate_ex, eqc_integrate_jac
// and eqc_integrate_events: validate options, resolve defaults and dispatch to
// an integration method (through the event loop when there are events).
#include "Events.h"
#include "Integrator.h"
#include "Jacobian.h"

#include <cmath>
#include <cstring>
#include <new>
#include <type_traits>

using namespace eqc::rt;

namespace {

constexpr long DefaultMaxSteps = 10000000;

bool isFinite(double v) { return std::isfinite(v); }

/// Checks the options that the chosen method reads; unknown methods are
/// rejected too.
bool optionsValid(int n, const eqc_options &opt) {
  if (!isFinite(opt.t_start) || !isFinite(opt.t_end) ||
      !(opt.t_end > opt.t_start))
    return false;
  if (!isFinite(opt.interval) || opt.interval < 0 || opt.max_steps < 0)
    return false;
  // A C caller may store any int in the enum field; loading an out-of-range
  // eqc_method in C++ is undefined, so inspect its bytes as the underlying
  // integer.
  std::underlying_type_t<eqc_method> method;
  static_assert(sizeof method == sizeof opt.method,
                "eqc_method is stored as its underlying type");
  std::memcpy(&method, &opt.method, sizeof method);
  switch (method) {
  case EQC_METHOD_EULER:
  case EQC_METHOD_HEUN:
  case EQC_METHOD_RK4:
  case EQC_METHOD_BEULER:
    return isFinite(opt.dt) && opt.dt > 0;
  case EQC_METHOD_DOPRI5:
  case EQC_METHOD_DOP853:
  case EQC_METHOD_RADAU5:
  case EQC_METHOD_AUTO:
    if (opt.atol_vector)
      for (int i = 0; i < n; ++i)
        if (!isFinite(opt.atol_vector[i]) || opt.atol_vector[i] < 0)
          return false;
    return isFinite(opt.rtol) && opt.rtol > 0 && isFinite(opt.atol) &&
           opt.atol >= 0 && isFinite(opt.h_init) && opt.h_init >= 0 &&
           isFinite(opt.h_max) && opt.h_max >= 0;
  }
  return false;
}

/// Checks an event description with indicators: callbacks and conditions
/// present, chattering limits non-negative.
bool eventsValid(const eqc_events &events) {
  return events.zc && events.handle && events.conditions && events.chatter_events >= 0 &&
         std::isfinite(events.chatter_window) && events.chatter_window >= 0;
}

} // namespace

namespace eqc::rt {

int runMethod(IntegrationProblem &p, double *x, eqc_stats &stats) {
  switch (p.opt.method) {
  case EQC_METHOD_AUTO:
    return runAuto(p, x, stats);
  case EQC_METHOD_DOPRI5:
    return runDopri5(p, x, stats);
  case EQC_METHOD_DOP853:
    return runDop853(p, x, stats);
  case EQC_METHOD_RADAU5:
    return runRadau5(p, x, stats);
  default:
    return runFixedStep(p, x, stats);
  }
}

bool jacobianValid(int n, const eqc_jacobian &jac) {
  std::underlying_type_t<eqc_linear_solver> solver;
  static_assert(sizeof solver == sizeof jac.solver,
                "eqc_linear_solver is stored as its underlying type");
  std::memcpy(&solver, &jac.solver, sizeof solver);
  if (solver != EQC_LINEAR_AUTO && solver != EQC_LINEAR_DENSE &&
      solver != EQC_LINEAR_SPARSE)
    return false;
  if (jac.pattern)
    return sparsityValid(n, *jac.pattern);
  return solver != EQC_LINEAR_SPARSE && !jac.sparse;
}

int prepareJacobian(IntegrationProblem &p, eqc_stats &stats) {
  if (!p.jacobian.prepare)
    return EQC_OK;
  auto prepare = p.jacobian.prepare;
  p.jacobian.prepare = nullptr; // once, even when auto hands the problem on
  if (int rc = callUser(stats, [&] { return prepare(p.jacobian.user, &p.jacobian); }))
    return rc;
  return jacobianValid(p.n, p.jacobian) ? EQC_OK : EQC_ERR_ARGUMENT;
}

} // namespace eqc::rt

namespace {

void resetStats(eqc_stats &stats, double tStart) {
  stats.steps = 0;
  stats.rejected = 0;
  stats.rhs_evals = 0;
  stats.outputs = 0;
  stats.t_reached = tStart;
  stats.h_last = 0.0;
  stats.failed_component = -1;
  stats.rhs_code = 0;
  stats.hook_calls = 0;
  stats.jac_evals = 0;
  stats.lu_decompositions = 0;
  stats.newton_iterations = 0;
  stats.method_used = -1;
  stats.switch_time = NAN;
  stats.linear_solver = EQC_LINEAR_AUTO;
  stats.events = 0;
  stats.t_event = NAN;
  stats.event_indicator = -1;
}

} // namespace

extern "C" int eqc_integrate_events(int n, eqc_rhs_fn f, void *f_user, const eqc_jacobian *jac, double *x,
                                    const eqc_options *opt, eqc_output_fn out, void *out_user,
                                    eqc_step_fn hook, void *hook_user, const eqc_events *events,
                                    eqc_stats *stats) {
  return eqc::rt::integrateEvents(n, f, f_user, jac, x, opt, out, out_user, hook, hook_user, false, events, stats);
}

int eqc::rt::integrateEvents(int n, eqc_rhs_fn f, void *f_user, const eqc_jacobian *jac, double *x,
                             const eqc_options *opt, eqc_output_fn out, void *out_user, eqc_step_fn hook,
                             void *hook_user, bool hookObserves, const eqc_events *events, eqc_stats *stats,
                             unsigned char *flags) {
  // Callers that do not care about statistics may pass NULL; the methods always
  // need somewhere to count.
  eqc_stats localStats;
  eqc_stats &st = stats ? *stats : localStats;
  resetStats(st, opt ? opt->t_start : 0.0);
  if (n < 0 || !f || !opt || (n > 0 && !x) || !optionsValid(n, *opt))
    return EQC_ERR_ARGUMENT;
  if (events && (events->nz < 0 || (events->nz > 0 && !eventsValid(*events))))
    return EQC_ERR_ARGUMENT;
  eqc_jacobian jacobian{};
  if (jac) {
    jacobian = *jac;
    // A description completed by prepare is checked when it is prepared.
    if (!jacobian.prepare && !jacobianValid(n, jacobian))
      return EQC_ERR_ARGUMENT;
  }

  int bad = firstNonFinite(n, x);
  if (bad >= 0) {
    st.failed_component = bad;
    return EQC_ERR_NONFINITE;
  }

  try {
    RhsEvaluator rhs(f, f_user, st);
    OutputSink output(out, out_user, st);
    StepHook stepHook(hook, hook_user, st, hookObserves);
    IntegrationProblem problem{n, rhs, output, stepHook, jacobian, *opt};
    eqc_options &effective = problem.opt;
    if (effective.max_steps == 0)
      effective.max_steps = DefaultMaxSteps;
    if (effective.h_max == 0)
      effective.h_max = effective.t_end - effective.t_start;
    st.method_used = effective.method;
    if (events && events->nz > 0)
      return runWithEvents(problem, x, st, *events, flags);
    return runMethod(problem, x, st);
  } catch (const std::bad_alloc &) {
    // The only exception the methods can raise themselves: the work vectors for
    // n are too large.
    return EQC_ERR_ARGUMENT;
  } catch (...) {
    return EQC_ERR_ARGUMENT;
  }
}

extern "C" int eqc_integrate_jac(int n, eqc_rhs_fn f, void *f_user, const eqc_jacobian *jac, double *x,
                                 const eqc_options *opt, eqc_output_fn out, void *out_user, eqc_step_fn hook,
                                 void *hook_user, eqc_stats *stats) {
  return eqc_integrate_events(n, f, f_user, jac, x, opt, out, out_user, hook, hook_user, nullptr, stats);
}

extern "C" int eqc_integrate_ex(int n, eqc_rhs_fn f, void *f_user,
                                eqc_jac_fn jac, void *jac_user, double *x,
                                const eqc_options *opt, eqc_output_fn out,
                                void *out_user, eqc_step_fn hook,
                                void *hook_user, eqc_stats *stats) {
  eqc_jacobian dense{};
  dense.dense = jac;
  dense.user = jac_user;
  return eqc_integrate_jac(n, f, f_user, &dense, x, opt, out, out_user, hook,
                           hook_user, stats);
}

extern "C" int eqc_integrate_with_hook(int n, eqc_rhs_fn f, void *f_user,
                                       double *x, const eqc_options *opt,
                                       eqc_output_fn out, void *out_user,
                                       eqc_step_fn hook, void *hook_user,
                                       eqc_stats *stats) {
  return eqc_integrate_ex(n, f, f_user, nullptr, nullptr, x, opt, out,
                          out_user, hook, hook_user, stats);
}

extern "C" int eqc_integrate(int n, eqc_rhs_fn f, void *f_user, double *x,
                             const eqc_options *opt, eqc_output_fn out,
                             void *out_user, eqc_stats *stats) {
  return eqc_integrate_with_hook(n, f, f_user, x, opt, out, out_user, nullptr,
                                 nullptr, stats);
}
