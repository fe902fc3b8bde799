// Dormand-Prince 5(4) with Hairer's PI step control, initial-step heuristic and
// dense output.
#include "Events.h"
#include "Integrator.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <utility>

namespace eqc::rt {

namespace {

// Butcher tableau and error/dense coefficients, as in Hairer's DOPRI5
// (dopri5.f).
constexpr double C2 = 0.2, C3 = 0.3, C4 = 0.8, C5 = 8.0 / 9.0;
constexpr double A21 = 0.2;
constexpr double A31 = 3.0 / 40.0, A32 = 9.0 / 40.0;
constexpr double A41 = 44.0 / 45.0, A42 = -56.0 / 15.0, A43 = 32.0 / 9.0;
constexpr double A51 = 19372.0 / 6561.0, A52 = -25360.0 / 2187.0,
                 A53 = 64448.0 / 6561.0, A54 = -212.0 / 729.0;
constexpr double A61 = 9017.0 / 3168.0, A62 = -355.0 / 33.0,
                 A63 = 46732.0 / 5247.0, A64 = 49.0 / 176.0,
                 A65 = -5103.0 / 18656.0;
constexpr double A71 = 35.0 / 384.0, A73 = 500.0 / 1113.0, A74 = 125.0 / 192.0,
                 A75 = -2187.0 / 6784.0, A76 = 11.0 / 84.0;
constexpr double E1 = 71.0 / 57600.0, E3 = -71.0 / 16695.0, E4 = 71.0 / 1920.0,
                 E5 = -17253.0 / 339200.0, E6 = 22.0 / 525.0, E7 = -1.0 / 40.0;
constexpr double D1 = -12715105075.0 / 11282082432.0,
                 D3 = 87487479700.0 / 32700410799.0,
                 D4 = -10690763975.0 / 1880347072.0,
                 D5 = 701980252875.0 / 199316789632.0,
                 D6 = -1453857185.0 / 822651844.0, D7 = 69997945.0 / 29380423.0;

// Step-size controller constants (Hairer's defaults).
constexpr double Beta = 0.04;
constexpr double Expo1 = 0.2 - Beta * 0.75;
constexpr double Safety = 0.9;
constexpr double FacMin = 0.2;  // fac1: the step shrinks at most by 5 per step
constexpr double FacMax = 10.0; // fac2: and grows at most by 10
constexpr double MinFacOld = 1e-4; // facold never drops below this

// Hairer's stiffness test (dopri5.f, iasti/nonsti), run after every accepted
// step: h|lambda| beyond StiffBoundary on StiffSteps accepted steps, not
// interrupted by NonStiffSteps steps below it, declares stiffness. dopri5.f
// uses 3.25, the edge of the stability region on the negative real axis; but at
// tight tolerances the step controller holds h|lambda| at 2.5-3 on a
// stability-bound problem and the test never fires (HIRES at rtol 1e-10: 19,199
// dopri5 steps where radau5 needs 499). A mode that still contributes to the
// solution cannot be integrated with h|lambda| >= 2 (its local error would be
// about (h|lambda|)^6 / 6! ~ 0.09 of its size), so a step held there is bound by
// stability, not accuracy: that is stiffness at any tolerance.
constexpr double StiffBoundary = 2.0;
constexpr int StiffSteps = 15;
constexpr int NonStiffSteps = 6;

/// Counts accepted steps whose dominant eigenvalue estimate lies outside
/// dopri5's stability region.
class StiffnessDetector {
public:
  /// Feeds the accepted step of size h; stage6 is its sixth stage state, k6 and
  /// k7 the derivatives there and at xNew. Returns true when stiffness is declared.
  bool accepted(int n, double h, const double *stage6, const double *xNew,
                const double *k6, const double *k7) {
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; ++i) {
      num += (k7[i] - k6[i]) * (k7[i] - k6[i]);
      den += (xNew[i] - stage6[i]) * (xNew[i] - stage6[i]);
    }
    // Both stages at the same state: no new information, keep the last estimate.
    if (den > 0.0)
      hLambda = h * std::sqrt(num / den);
    if (hLambda > StiffBoundary) {
      nonStiff = 0;
      return ++stiff >= StiffSteps;
    }
    if (++nonStiff == NonStiffSteps)
      stiff = 0;
    return false;
  }

private:
  double hLambda = 0.0; ///< hlamb: the last estimate of h|lambda|
  int stiff = 0;        ///< iasti
  int nonStiff = 0;     ///< nonsti
};

/// Work vectors for one integration, allocated once so the step loop never
/// allocates.
struct Dopri5Work {
  explicit Dopri5Work(int n) : storage(static_cast<size_t>(n) * 15) {
    double *v[15];
    for (int i = 0; i < 15; ++i)
      v[i] = storage.data() + static_cast<size_t>(i) * n;
    k1 = v[0], k2 = v[1], k3 = v[2], k4 = v[3], k5 = v[4], k6 = v[5], k7 = v[6];
    stage = v[7], xNew = v[8], xOld = v[9];
    r1 = v[10], r2 = v[11], r3 = v[12], r4 = v[13], r5 = v[14];
  }
  std::vector<double> storage;
  double *k1, *k2, *k3, *k4, *k5, *k6, *k7, *stage, *xNew;
  double *xOld; ///< the state before the last accepted step (kept only with events)
  double *r1, *r2, *r3, *r4,
      *r5; ///< dense-output polynomial of the last accepted step
};

/// Runs the six new stages of a step of size h from (t, x); k1 = f(t, x) is in
/// w.k1, and w.xNew, w.k7 = f(tNew, xNew) receive the 5th-order solution.
/// Each state is summed as x + (h a_1) k_1 + ... + (h a_j) k_j, newest stage
/// last, so that the next rhs call waits for one multiply and one add after
/// the previous one, not for the four operations of dopri5.f's
/// x + h (a_1 k_1 + ... + a_j k_j) (the same values up to rounding; on small
/// systems a step is mostly this chain of latencies).
int evaluateStages(IntegrationProblem &p, double t, double h, double tNew,
                   const double *x, Dopri5Work &w) {
  const int n = p.n;
  double *s = w.stage;
  const double *k1 = w.k1, *k2 = w.k2, *k3 = w.k3, *k4 = w.k4, *k5 = w.k5, *k6 = w.k6;
  for (int i = 0; i < n; ++i)
    s[i] = x[i] + h * A21 * k1[i];
  if (int rc = p.rhs(t + C2 * h, s, w.k2))
    return rc;
  {
    const double b1 = h * A31, b2 = h * A32;
    for (int i = 0; i < n; ++i)
      s[i] = x[i] + b1 * k1[i] + b2 * k2[i];
  }
  if (int rc = p.rhs(t + C3 * h, s, w.k3))
    return rc;
  {
    const double b1 = h * A41, b2 = h * A42, b3 = h * A43;
    for (int i = 0; i < n; ++i)
      s[i] = x[i] + b1 * k1[i] + b2 * k2[i] + b3 * k3[i];
  }
  if (int rc = p.rhs(t + C4 * h, s, w.k4))
    return rc;
  {
    const double b1 = h * A51, b2 = h * A52, b3 = h * A53, b4 = h * A54;
    for (int i = 0; i < n; ++i)
      s[i] = x[i] + b1 * k1[i] + b2 * k2[i] + b3 * k3[i] + b4 * k4[i];
  }
  if (int rc = p.rhs(t + C5 * h, s, w.k5))
    return rc;
  {
    const double b1 = h * A61, b2 = h * A62, b3 = h * A63, b4 = h * A64, b5 = h * A65;
    for (int i = 0; i < n; ++i)
      s[i] = x[i] + b1 * k1[i] + b2 * k2[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i];
  }
  if (int rc = p.rhs(tNew, s, w.k6))
    return rc;
  {
    const double b1 = h * A71, b3 = h * A73, b4 = h * A74, b5 = h * A75, b6 = h * A76;
    for (int i = 0; i < n; ++i)
      w.xNew[i] = x[i] + b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i];
  }
  return p.rhs(tNew, w.xNew, w.k7);
}

/// The error of a step: the RMS norm of the embedded error estimate, weighted
/// by atol + rtol*max(|x|, |xNew|), and its logarithm for the step-size
/// controller.
struct StepError {
  double err;
  /// log(err), computed from the mean square without the square root, so that
  /// the next step size does not wait for it.
  double logErr;
  /// False when xNew and k7 are certainly finite: a non-finite k7 makes e, and
  /// so the norm, non-finite, and a non-finite xNew makes the plain sum of its
  /// components non-finite (the sum can also overflow, which only costs the
  /// exact scan).
  bool mayBeNonFinite;
};

/// logN = log(n). As in evaluateStages, the estimate is summed with the k7
/// term last, and each weight's reciprocal is ready before k7 is, so that the
/// controller waits for a multiply instead of a division.
StepError errorNorm(const IntegrationProblem &p, double h, const double *x,
                    const Dopri5Work &w, double logN) {
  const int n = p.n;
  double sum = 0.0, xNewSum = 0.0;
  const double c1 = h * E1, c3 = h * E3, c4 = h * E4, c5 = h * E5, c6 = h * E6, c7 = h * E7;
  for (int i = 0; i < n; ++i) {
    double e = c1 * w.k1[i] + c3 * w.k3[i] + c4 * w.k4[i] + c5 * w.k5[i] + c6 * w.k6[i] + c7 * w.k7[i];
    double inverseWeight = 1.0 / p.weight(i, std::max(std::fabs(x[i]), std::fabs(w.xNew[i])));
    double scaledError = e == 0.0 ? 0.0 : e * inverseWeight; // as scaled(): 0 stays 0 at weight 0
    sum += scaledError * scaledError;
    xNewSum += w.xNew[i];
  }
  StepError result;
  result.err = n == 0 ? 0.0 : std::sqrt(sum / n);
  result.logErr = n == 0 ? -HUGE_VAL : 0.5 * (std::log(sum) - logN);
  result.mayBeNonFinite = !std::isfinite(result.err) || !std::isfinite(xNewSum);
  return result;
}

/// Hairer's contd5 polynomial for the accepted step from xOld to w.xNew, whose
/// first stage was k1 and whose f at the new state is k7 (the two are passed
/// explicitly: after the step, FSAL has swapped w.k1 and w.k7).
void buildDenseOutput(int n, double h, const double *xOld, const double *k1,
                      const double *k7, Dopri5Work &w) {
  for (int i = 0; i < n; ++i) {
    double xDiff = w.xNew[i] - xOld[i];
    double bspl = h * k1[i] - xDiff;
    w.r1[i] = xOld[i];
    w.r2[i] = xDiff;
    w.r3[i] = bspl;
    w.r4[i] = -h * k7[i] + xDiff - bspl;
    w.r5[i] = h * (D1 * k1[i] + D3 * w.k3[i] + D4 * w.k4[i] + D5 * w.k5[i] +
                   D6 * w.k6[i] + D7 * k7[i]);
  }
}

/// Evaluates the dense-output polynomial at theta = (t - tOld) / h into out.
void interpolate(int n, double theta, const Dopri5Work &w, double *out) {
  const double theta1 = 1.0 - theta;
  for (int i = 0; i < n; ++i)
    out[i] =
        w.r1[i] +
        theta * (w.r2[i] +
                 theta1 * (w.r3[i] + theta * (w.r4[i] + theta1 * w.r5[i])));
}

/// Index of the first non-finite component of the trial step, or -1.
int nonFiniteComponent(int n, const Dopri5Work &w) {
  int bad = firstNonFinite(n, w.xNew);
  return bad >= 0 ? bad : firstNonFinite(n, w.k7);
}

} // namespace

int runDopri5(IntegrationProblem &p, double *x, eqc_stats &stats,
              bool detectStiffness) {
  const int n = p.n;
  const eqc_options &opt = p.opt;
  Dopri5Work w(n);
  StiffnessDetector stiffness;
  OutputGrid grid(opt.t_start, opt.t_end, opt.interval, opt.output_origin);

  double t = opt.t_start;
  if (int rc = p.output.emit(t, x))
    return rc;
  if (int rc = p.rhs(t, x, w.k1))
    return rc;
  if (int bad = firstNonFinite(n, w.k1); bad >= 0) {
    stats.failed_component = bad;
    return EQC_ERR_NONFINITE;
  }

  double h = std::min(opt.h_init, opt.h_max);
  if (opt.h_init == 0) {
    if (int rc = initialStep(p, t, x, w.k1, w.stage, w.k2, 5, h))
      return rc;
  }

  const double logN = std::log(static_cast<double>(n));
  // Beta * log of the previous accepted error (at least MinFacOld): the PI
  // controller's I term.
  double betaLogFacOld = Beta * std::log(MinFacOld);
  bool rejected =
      false; // the previous attempt failed: do not grow the step now
  for (;;) {
    if (stats.steps + stats.rejected >= opt.max_steps)
      return EQC_ERR_MAX_STEPS;
    // Accepted steps can shrink without bound too (e.g. approaching a
    // finite-time blow-up).
    if (!(h >= minStep(t)))
      return EQC_ERR_STEP_UNDERFLOW;
    // Stretching by up to 1% to reach t_end avoids a tiny final step.
    bool last = false;
    if (t + 1.01 * h > opt.t_end) {
      h = opt.t_end - t;
      last = true;
    }
    const double tNew = last ? opt.t_end : t + h;
    stats.h_last = h;

    if (int rc = evaluateStages(p, t, h, tNew, x, w)) {
      if (retryable(rc, stats) && rejectFailedEvaluation(h, t, rejected, stats) == EQC_OK)
        continue;
      return rc;
    }
    const auto [err, logErr, mayBeNonFinite] = errorNorm(p, h, x, w, logN);
    if (mayBeNonFinite) {
      int bad = nonFiniteComponent(n, w);
      if (bad >= 0 || std::isnan(err)) {
        if (int rc = rejectNonFiniteStep(h, t, bad, rejected, stats))
          return rc;
        continue;
      }
    }

    // Hairer's controller, h / clamp(err^Expo1 / facOld^Beta / Safety, ...),
    // computed as h * clamp(Safety * exp(Beta log facOld - Expo1 log err), ...):
    // one exp per step instead of dopri5.f's two pow and two divisions, which
    // all lie on the path from one step's last stage to the next step's first
    // (the same step sizes to a few ulps; err = 0 gives log -inf and the
    // largest growth, as dopri5.f's fac11 = 0 does).
    if (err <= 1.0) {
      // PI control: the I part (facOld^Beta) damps oscillation of the step
      // size.
      const double growth = Safety * std::exp(betaLogFacOld - Expo1 * logErr);
      double hNew = h * std::clamp(growth, FacMin, FacMax);
      betaLogFacOld = Beta * (err > MinFacOld ? logErr : std::log(MinFacOld));
      // w.stage still holds the sixth stage's state here.
      const bool stiff = detectStiffness &&
                         stiffness.accepted(n, h, w.stage, w.xNew, w.k6, w.k7);

      const double tOld = t;
      const double hTaken = tNew - tOld;
      // The dense output is built only for a step that needs it: one with an
      // output time strictly inside, or whose events ask for it. Until the
      // hook runs, the old state is x (or its copy xOld, kept with events),
      // the old first stage k1Old and f at the new state k7New.
      const double *k1Old = w.k1, *k7New = w.k7;
      bool denseReady = false;
      if (grid.hasNext() && grid.next() < tNew) {
        buildDenseOutput(n, h, x, k1Old, k7New, w);
        denseReady = true;
      } else if (p.events) {
        std::copy(x, x + n, w.xOld);
      }
      std::copy(w.xNew, w.xNew + n, x);
      std::swap(w.k1,
                w.k7); // FSAL: f(tNew, xNew) is the next step's first stage
      t = tNew;
      ++stats.steps;
      stats.t_reached = t;
      if (p.events) {
        auto dense = [&](double tDense, double *out) -> int {
          if (!denseReady) {
            buildDenseOutput(n, h, w.xOld, k1Old, k7New, w);
            denseReady = true;
          }
          interpolate(n, (tDense - tOld) / hTaken, w, out);
          return EQC_OK;
        };
        if (int rc = p.events->checkStep(p, tOld, t, x, dense, &grid, x))
          return rc;
      }
      bool changed;
      if (int rc = applyStepHook(p, t, x, w.xNew, stats, changed)) {
        // The step itself is valid (the hook asked to stop after it, e.g. to switch the state
        // selection): the grid times it covers are emitted from its interpolant, unhooked.
        if (rc != EQC_ERR_NONFINITE)
          for (; grid.hasNext() && grid.next() <= t; grid.advance()) {
            double tGrid = grid.next();
            if (tGrid != t)
              interpolate(n, (tGrid - tOld) / hTaken, w, w.stage);
            if (p.output.emit(tGrid, tGrid == t ? x : w.stage))
              break;
          }
        return rc;
      }
      if (changed && !last && !stiff) {
        // The FSAL stage belongs to the state before the hook; the next step
        // must start from f at the state the hook left.
        if (int rc = p.rhs(t, x, w.k1))
          return rc;
        if (int bad = firstNonFinite(n, w.k1); bad >= 0) {
          stats.failed_component = bad;
          return EQC_ERR_NONFINITE;
        }
      }

      for (; grid.hasNext() && grid.next() <= t; grid.advance()) {
        double tGrid = grid.next();
        if (tGrid == t) {
          if (int rc = p.output.emit(t, x))
            return rc;
          continue;
        }
        interpolate(n, (tGrid - tOld) / hTaken, w, w.stage);
        if (int rc = applyOutputHook(p, tGrid, w.stage, stats))
          return rc;
        if (int rc = p.output.emit(tGrid, w.stage))
          return rc;
      }
      if (opt.interval == 0 || last) {
        if (int rc = p.output.emit(t, x))
          return rc;
      }
      if (last)
        return EQC_OK;
      if (stiff)
        return StiffnessDetected;

      hNew = std::min(hNew, opt.h_max);
      if (rejected)
        hNew = std::min(hNew, h);
      rejected = false;
      h = hNew;
    } else {
      h = h * std::max(FacMin, Safety * std::exp(-Expo1 * logErr));
      rejected = true;
      ++stats.rejected;
      if (h < minStep(t))
        return EQC_ERR_STEP_UNDERFLOW;
    }
  }
}

} // namespace eqc::rt
