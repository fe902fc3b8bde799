// Fixed-step integrators: Euler, Heun (explicit trapezoid), classical
// Runge-Kutta 4 and backward Euler (its Newton solve is in BackwardEuler.cpp).
#include "BackwardEuler.h"
#include "Events.h"
#include "Integrator.h"

#include <cfloat>

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>

namespace eqc::rt {

namespace {

/// Work vectors for one integration, allocated once so the step loop never
/// allocates.
struct FixedStepWork {
  explicit FixedStepWork(int n) : storage(static_cast<size_t>(n) * 6) {
    double *base = storage.data();
    k1 = base;
    k2 = base + n;
    k3 = base + 2 * n;
    k4 = base + 3 * n;
    stage = base + 4 * n;
    xNew = base + 5 * n;
  }
  std::vector<double> storage;
  double *k1, *k2, *k3, *k4, *stage, *xNew;
};

/// Computes xNew from x over [t, t + h]; k1 = f(t, x) is already in w.k1.
int takeStep(eqc_method method, int n, RhsEvaluator &rhs, double t, double h,
             const double *x, FixedStepWork &w) {
  switch (method) {
  case EQC_METHOD_EULER:
    for (int i = 0; i < n; ++i)
      w.xNew[i] = x[i] + h * w.k1[i];
    return EQC_OK;
  case EQC_METHOD_HEUN: {
    for (int i = 0; i < n; ++i)
      w.stage[i] = x[i] + h * w.k1[i];
    if (int rc = rhs(t + h, w.stage, w.k2))
      return rc;
    for (int i = 0; i < n; ++i)
      w.xNew[i] = x[i] + 0.5 * h * (w.k1[i] + w.k2[i]);
    return EQC_OK;
  }
  default: { // EQC_METHOD_RK4; the dispatcher only sends fixed-step methods
             // here, and beuler does not come through takeStep.
    const double half = 0.5 * h;
    for (int i = 0; i < n; ++i)
      w.stage[i] = x[i] + half * w.k1[i];
    if (int rc = rhs(t + half, w.stage, w.k2))
      return rc;
    for (int i = 0; i < n; ++i)
      w.stage[i] = x[i] + half * w.k2[i];
    if (int rc = rhs(t + half, w.stage, w.k3))
      return rc;
    for (int i = 0; i < n; ++i)
      w.stage[i] = x[i] + h * w.k3[i];
    if (int rc = rhs(t + h, w.stage, w.k4))
      return rc;
    for (int i = 0; i < n; ++i)
      w.xNew[i] =
          x[i] + h / 6.0 * (w.k1[i] + 2.0 * w.k2[i] + 2.0 * w.k3[i] + w.k4[i]);
    return EQC_OK;
  }
  }
}

/// Number of steps covering [t_start, t_end]: a remainder below 1e-9*dt is
/// absorbed into the previous step instead of producing a sliver step.
long long stepCount(const eqc_options &opt) {
  double ratio = (opt.t_end - opt.t_start) / opt.dt;
  // dt = span / N comes back as N times (1 +- a few eps): a fraction of a step below that
  // rounding is no extra step (it gave N + 1 steps from N = 3e7 on).
  double steps = std::max(1.0, std::ceil(ratio - std::max(1e-9, 16.0 * DBL_EPSILON * ratio)));
  // Beyond this the step limit stops the loop long before the count matters.
  return steps >= 9e18 ? LLONG_MAX : static_cast<long long>(steps);
}

/// Output every stride steps approximates the requested interval on the step
/// grid.
long long outputStride(const eqc_options &opt) {
  if (opt.interval == 0)
    return 1;
  double ratio = opt.interval / opt.dt;
  if (ratio >= 9e18)
    return LLONG_MAX;
  return std::max(1LL, static_cast<long long>(std::llround(ratio)));
}

/// The first step index k (steps end at origin + k*dt) after tStart: a
/// restart after an event keeps the step grid of the first start, its first
/// step shortened (a remainder below 1e-9*dt joins the next step).
long long firstStep(const eqc_options &opt, double origin, long long total) {
  if (!(opt.t_start > origin))
    return 1;
  const double done = std::floor((opt.t_start - origin) / opt.dt);
  long long k = done >= static_cast<double>(total) ? total : std::max(1LL, static_cast<long long>(done));
  while (k < total && origin + static_cast<double>(k) * opt.dt <= opt.t_start + 1e-9 * opt.dt)
    ++k;
  return k;
}

/// x(t) on the cubic Hermite interpolant of (x0, f0) at tOld and (x1, f1) at
/// tOld + h: the dense output of a fixed step, for event location. Exact for
/// cubics; its error is O(h^4), below that of every fixed-step method but rk4.
void hermite(int n, double tOld, double h, const double *x0, const double *f0, const double *x1,
             const double *f1, double t, double *out) {
  const double s = (t - tOld) / h, s2 = s * s, s3 = s2 * s;
  const double h00 = 2.0 * s3 - 3.0 * s2 + 1.0, h10 = s3 - 2.0 * s2 + s;
  const double h01 = -2.0 * s3 + 3.0 * s2, h11 = s3 - s2;
  for (int i = 0; i < n; ++i)
    out[i] = h00 * x0[i] + h * (h10 * f0[i] + h11 * f1[i]) + h01 * x1[i];
}

} // namespace

int runFixedStep(IntegrationProblem &p, double *x, eqc_stats &stats) {
  const int n = p.n;
  const eqc_options &opt = p.opt;
  FixedStepWork w(n);
  // Steps end on the grid of the first start also after a restart at an event.
  const double origin = std::isfinite(p.fixedStepOrigin) ? p.fixedStepOrigin : opt.t_start;
  eqc_options gridOptions = opt;
  gridOptions.t_start = origin;
  const long long total = stepCount(gridOptions);
  const long long stride = outputStride(opt);
  const long long first = firstStep(opt, origin, total);
  // Only the implicit method needs f's Jacobian and a Newton solver; it needs
  // no f(t, x) at the start of a step.
  std::unique_ptr<BackwardEulerSolver> implicitSolver;
  if (opt.method == EQC_METHOD_BEULER) {
    if (int rc = prepareJacobian(p, stats))
      return rc;
    implicitSolver = std::make_unique<BackwardEulerSolver>(p, stats);
  }

  double t = opt.t_start;
  if (int rc = p.output.emit(t, x))
    return rc;
  if (int rc = p.rhs(t, x, w.k1))
    return rc;
  if (int bad = firstNonFinite(n, w.k1); bad >= 0) {
    stats.failed_component = bad;
    return EQC_ERR_NONFINITE;
  }

  bool haveK1 =
      true; // k1 at the current state is reused from the finiteness check above
  for (long long k = first; k <= total; ++k) {
    if (stats.steps >= opt.max_steps)
      return EQC_ERR_MAX_STEPS;
    // Times from k*dt, not by summation, so t_k carries no accumulated
    // rounding.
    const double tNew =
        k == total ? opt.t_end : origin + static_cast<double>(k) * opt.dt;
    const double h = tNew - t;
    stats.h_last = h;
    if (!haveK1 && !implicitSolver) {
      if (int rc = p.rhs(t, x, w.k1))
        return rc;
    }
    haveK1 = false;
    int rc = implicitSolver ? implicitSolver->step(tNew, h, x, w.xNew)
                            : takeStep(opt.method, n, p.rhs, t, h, x, w);
    if (rc != EQC_OK)
      return rc;
    if (int bad = firstNonFinite(n, w.xNew); bad >= 0) {
      stats.failed_component = bad;
      return EQC_ERR_NONFINITE;
    }
    if (p.events) {
      // The Hermite interpolant needs f at both ends: at the start the
      // explicit methods have it in k1, beuler computes it (into k1), and f at
      // the end goes to k2 (both are recomputed by the next step). Only a
      // step with an event pays for them.
      bool haveStart = !implicitSolver, haveEnd = false;
      const double tOld = t;
      auto dense = [&](double tDense, double *out) -> int {
        if (!haveStart) {
          if (int rc = p.rhs(tOld, x, w.k1))
            return rc;
          haveStart = true;
        }
        if (!haveEnd) {
          if (int rc = p.rhs(tNew, w.xNew, w.k2))
            return rc;
          haveEnd = true;
        }
        hermite(n, tOld, h, x, w.k1, w.xNew, w.k2, tDense, out);
        return EQC_OK;
      };
      if (int rc = p.events->checkStep(p, tOld, tNew, w.xNew, dense, nullptr, x)) {
        stats.steps += rc == EventLocated; // the step up to the event counts
        return rc;
      }
    }
    std::copy(w.xNew, w.xNew + n, x);
    t = tNew;
    ++stats.steps;
    stats.t_reached = t;
    // No stage is carried to the next step, so a state changed by the hook
    // needs no re-evaluation here.
    bool changed;
    if (int rc = applyStepHook(p, t, x, w.xNew, stats, changed)) {
      // The step itself is valid (the hook asked to stop after it): its output is not lost.
      if ((k % stride == 0 || k == total) && rc != EQC_ERR_NONFINITE)
        p.output.emit(t, x);
      return rc;
    }
    if (k % stride == 0 || k == total) {
      if (int rc = p.output.emit(t, x))
        return rc;
    }
  }
  return EQC_OK;
}

} // namespace eqc::rt
