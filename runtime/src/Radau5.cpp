// Hairer & Wanner's RADAU5 (Solving ODEs II, IV.8): the 3-stage Radau IIA method
// of order 5 with simplified Newton on the transformed stage system, the
// embedded error estimate, Gustafsson's predictive step control and the
// collocation polynomial as dense output.
#include "Events.h"
#include "Integrator.h"
#include "Jacobian.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>

namespace eqc::rt {

namespace {

// Collocation nodes and the transformation T that block-diagonalizes the
// inverse of the Radau IIA matrix into the real eigenvalue gamma and the
// complex pair alpha +- i beta, as in radau5.f.
const double Sqrt6 = std::sqrt(6.0);
const double C1 = (4.0 - Sqrt6) / 10.0, C2 = (4.0 + Sqrt6) / 10.0;
const double C1m1 = C1 - 1.0, C2m1 = C2 - 1.0, C1mC2 = C1 - C2;
const double Dd1 = -(13.0 + 7.0 * Sqrt6) / 3.0, Dd2 = (-13.0 + 7.0 * Sqrt6) / 3.0, Dd3 = -1.0 / 3.0;
const double Cbrt81 = std::cbrt(81.0), Cbrt9 = std::cbrt(9.0);
const double GammaInv = (6.0 + Cbrt81 - Cbrt9) / 30.0;
const double AlphaRaw = (12.0 - Cbrt81 + Cbrt9) / 60.0;
const double BetaRaw = (Cbrt81 + Cbrt9) * std::sqrt(3.0) / 60.0;
const double Gamma = 1.0 / GammaInv; ///< u1 of radau5.f: real eigenvalue of A^-1
const double Alpha = AlphaRaw / (AlphaRaw * AlphaRaw + BetaRaw * BetaRaw);
const double Beta = BetaRaw / (AlphaRaw * AlphaRaw + BetaRaw * BetaRaw);
// clang-format off
constexpr double T11 = 9.1232394870892942792e-02, T12 = -0.14125529502095420843, T13 = -3.0029194105147424492e-02;
constexpr double T21 = 0.24171793270710701896, T22 = 0.20412935229379993199, T23 = 0.38294211275726193779;
constexpr double T31 = 0.96604818261509293619;
constexpr double Ti11 = 4.3255798900631553510, Ti12 = 0.33919925181580986954, Ti13 = 0.54177053993587487119;
constexpr double Ti21 = -4.1787185915519047273, Ti22 = -0.32768282076106238708, Ti23 = 0.47662355450055045196;
constexpr double Ti31 = -0.50287263494578687595, Ti32 = 2.5719269498556054292, Ti33 = -0.59603920482822492497;
// clang-format on

// RADAU5's defaults.
constexpr int MaxNewton = 7;                  ///< nit
constexpr double Safety = 0.9;                ///< safe
constexpr double FacL = 5.0, FacR = 1.0 / 8.0; ///< 1/8 <= hnew/h <= 5
constexpr int MaxSingular = 5;                ///< singular Newton matrices before giving up

/// When radau5 re-evaluates J and refactors (RADAU5's thet, quot1, quot2).
struct ReusePolicy {
  double keepJacobian; ///< thet: keep J after a step whose Newton contraction theta <= thet
  double quot1, quot2; ///< keep h (and the LU) when J is kept and hnew/h is in [quot1, quot2]
};
/// RADAU5's defaults, which Hairer recommends for small systems.
constexpr ReusePolicy SmallSystems{0.001, 1.0, 1.2};
/// Hairer's settings for large systems, whose LU (and J) are expensive.
constexpr ReusePolicy LargeSystems{0.1, 0.99, 2.0};
/// Systems from this size on are large: the smallest where the large-system settings were
/// measured faster (BRUSS-2D, n = 18, dense LU: 1.1-1.7x); ROBER (n = 3) ran about 1.5x slower
/// with them, HIRES (n = 8) no faster.
constexpr int LargeSystemSize = 16;

/// Why the last attempt failed, so that a step size shrinking to nothing is
/// reported by its cause.
enum class Failure { None, Newton, NonFinite, Evaluation };

/// State of one RADAU5 integration; all storage is allocated by the
/// constructor, so the step loop never allocates.
class Radau5Solver {
public:
  Radau5Solver(IntegrationProblem &p, eqc_stats &stats)
      : p(p), stats(stats), n(p.n), f0(n), z1(n), z2(n), z3(n), w1(n), w2(n), w3(n), cont1(n), cont2(n),
        cont3(n), yNew(n), stage(n), scratch(n), fPerturbed(n), scale(n), atolScaled(n), atolUser(n),
        jacobian(n, p.jacobian, stats), lu1(jacobian), lu2(jacobian), rhs2(n), solution2(n),
        policy(choosePolicy()), theta(policy.keepJacobian) {
    // RADAU5's tolerance transformation: the embedded estimate is of order 3,
    // and this choice makes the global error of the order-5 solution about rtol.
    rtol = 0.1 * std::pow(p.opt.rtol, 2.0 / 3.0);
    for (int i = 0; i < n; ++i) {
      atolUser[i] = p.atol(i);
      atolScaled[i] = rtol * (atolUser[i] / p.opt.rtol);
    }
    fnewt = std::max(10.0 * DBL_EPSILON / rtol, std::min(0.03, std::sqrt(rtol)));
  }

  int run(double *x);

private:
  ReusePolicy choosePolicy() const;
  int evaluateJacobian(double t, const double *x);
  /// Factors gamma/h I - J and (alpha + i beta)/h I - J.
  int factor(double h);
  /// The simplified Newton iteration of one step from (t, x); on success z
  /// holds the stage increments. hFactor receives RADAU5's step reduction on
  /// slow convergence (then the step is retried, not failed).
  int newton(double t, double h, const double *x, bool &slow, double &hFactor);
  /// RADAU5's estimate (estrad) of the step just solved, RMS-scaled; NaN when
  /// it is not finite. secondTry allows the filtered re-estimate.
  int errorEstimate(double t, double h, const double *x, bool secondTry, double &err);
  void computeScale(const double *x);
  double rms(const Eigen::VectorXd &v) const;
  /// Emits the grid times in (t - h, t] from the step's polynomial, passed
  /// through the hook when hooked.
  int emitOutputs(OutputGrid &grid, double t, double h, const double *x, bool hooked);
  void interpolate(double s, double *out) const;

  IntegrationProblem &p;
  eqc_stats &stats;
  const int n;
  double rtol, fnewt;
  Eigen::VectorXd f0, z1, z2, z3, w1, w2, w3, cont1, cont2, cont3, yNew, stage, scratch, fPerturbed, scale;
  std::vector<double> atolScaled, atolUser; ///< RADAU5's transformed atol, and the user's
  JacobianMatrix jacobian;
  ShiftedLU<double> lu1;
  ShiftedLU<std::complex<double>> lu2;
  Eigen::VectorXcd rhs2, solution2; ///< the complex block's right-hand side and solution
  const ReusePolicy policy;
  double theta;                ///< contraction of the last Newton iteration
  double faccon = 1.0;         ///< theta / (1 - theta) of the last iteration, kept across steps
  int nonFiniteComponent = -1;
  int iterations = 0; ///< Newton iterations of the last attempt
};

ReusePolicy Radau5Solver::choosePolicy() const {
  // By size, not by the linear solver, so that a dense and a sparse LU take the same steps. In a
  // large system an LU (and a finite-difference J) costs far more than the Newton iterations an
  // older J or h costs: BRUSS-2D ran 1.7-5x faster with the large-system settings with a dense
  // LU (n = 72 ... 288) and about 3x with the sparse one. In a small one an LU is cheap and the
  // extra iterations are not.
  return n >= LargeSystemSize ? LargeSystems : SmallSystems;
}

void Radau5Solver::computeScale(const double *x) {
  for (int i = 0; i < n; ++i)
    scale[i] = atolScaled[i] + rtol * std::fabs(x[i]);
}

double Radau5Solver::rms(const Eigen::VectorXd &v) const {
  if (n == 0)
    return 0.0;
  double sum = 0.0;
  for (int i = 0; i < n; ++i)
    sum += std::pow(scaled(v[i], scale[i]), 2);
  return std::sqrt(sum / n);
}

int Radau5Solver::evaluateJacobian(double t, const double *x) {
  // Finite differences relative to max(|x_j|, atol_j), not max(|x_j|, 1) as
  // beuler: a long stiff step multiplies every error of J by h, and on
  // components far below 1 (ROBER's y2 ~ 1e-13) an increment of sqrt(eps)
  // makes the quadratic terms of f swamp the true derivative.
  return jacobian.evaluate(p.rhs, t, x, f0.data(), atolUser.data());
}

int Radau5Solver::factor(double h) {
  stats.lu_decompositions += 2;
  if (int rc = lu1.factor(Gamma / h))
    return rc;
  return lu2.factor(std::complex<double>(Alpha / h, Beta / h));
}

int Radau5Solver::newton(double t, double h, const double *x, bool &slow, double &hFactor) {
  slow = false;
  faccon = std::pow(std::max(faccon, DBL_EPSILON), 0.8);
  theta = policy.keepJacobian;
  double previousNorm = 0.0, previousRatio = 0.0;
  const double gammaH = Gamma / h, alphaH = Alpha / h, betaH = Beta / h;
  for (int iteration = 0;; ++iteration) {
    if (iteration >= MaxNewton)
      return EQC_ERR_NEWTON;
    // f at the three stages, transformed by T^-1.
    const double ct[3] = {t + C1 * h, t + C2 * h, t + h};
    Eigen::VectorXd *zs[3] = {&z1, &z2, &z3};
    for (int s = 0; s < 3; ++s) {
      for (int i = 0; i < n; ++i)
        stage[i] = x[i] + (*zs[s])[i];
      if (int rc = p.rhs(ct[s], stage.data(), zs[s]->data()))
        return rc;
      if (int bad = firstNonFinite(n, zs[s]->data()); bad >= 0) {
        nonFiniteComponent = bad;
        return EQC_ERR_NONFINITE;
      }
    }
    for (int i = 0; i < n; ++i) {
      const double a1 = z1[i], a2 = z2[i], a3 = z3[i];
      z1[i] = Ti11 * a1 + Ti12 * a2 + Ti13 * a3 - gammaH * w1[i];
      const double s2 = Ti21 * a1 + Ti22 * a2 + Ti23 * a3;
      const double s3 = Ti31 * a1 + Ti32 * a2 + Ti33 * a3;
      rhs2[i] = std::complex<double>(s2 - alphaH * w2[i] + betaH * w3[i], s3 - alphaH * w3[i] - betaH * w2[i]);
    }
    lu1.solve(z1, scratch);
    z1.swap(scratch);
    lu2.solve(rhs2, solution2);
    for (int i = 0; i < n; ++i) {
      z2[i] = solution2[i].real();
      z3[i] = solution2[i].imag();
    }
    ++stats.newton_iterations;
    const int done = iteration + 1;
    iterations = done;
    double norm = 0.0;
    for (int i = 0; i < n; ++i)
      norm += std::pow(scaled(z1[i], scale[i]), 2) + std::pow(scaled(z2[i], scale[i]), 2) +
              std::pow(scaled(z3[i], scale[i]), 2);
    norm = n == 0 ? 0.0 : std::sqrt(norm / (3.0 * n));
    if (!std::isfinite(norm))
      return EQC_ERR_NEWTON;
    if (done > 1 && done < MaxNewton) {
      const double ratio = norm / previousNorm;
      theta = done == 2 ? ratio : std::sqrt(ratio * previousRatio);
      previousRatio = ratio;
      if (!(theta < 0.99))
        return EQC_ERR_NEWTON;
      faccon = theta / (1.0 - theta);
      // The error predicted after the remaining iterations still exceeds the
      // tolerance: retry now with the smaller step RADAU5 predicts.
      const double predicted = faccon * norm * std::pow(theta, MaxNewton - 1 - done) / fnewt;
      if (predicted >= 1.0) {
        const double qNewt = std::clamp(predicted, 1e-4, 20.0);
        hFactor = 0.8 * std::pow(qNewt, -1.0 / (4.0 + MaxNewton - 1 - done));
        slow = true;
        return EQC_OK;
      }
    }
    previousNorm = std::max(norm, DBL_EPSILON);
    w1 += z1;
    w2 += z2;
    w3 += z3;
    for (int i = 0; i < n; ++i) {
      z1[i] = T11 * w1[i] + T12 * w2[i] + T13 * w3[i];
      z2[i] = T21 * w1[i] + T22 * w2[i] + T23 * w3[i];
      z3[i] = T31 * w1[i] + w2[i];
    }
    if (faccon * norm <= fnewt)
      return EQC_OK;
  }
}

int Radau5Solver::errorEstimate(double t, double h, const double *x, bool secondTry, double &err) {
  // err = (gamma/h I - J)^-1 (f0 + sum_k dd_k z_k / h), RADAU5's estrad.
  for (int i = 0; i < n; ++i)
    yNew[i] = (Dd1 * z1[i] + Dd2 * z2[i] + Dd3 * z3[i]) / h;
  scratch = f0 + yNew;
  lu1.solve(scratch, stage);
  err = std::max(rms(stage), 1e-10);
  if (!(err >= 1.0) || !secondTry)
    return EQC_OK;
  // After a rejection or on the first step the estimate can be far too
  // pessimistic on stiff components; one more solve with f at the corrected
  // point filters them (HNW IV.8, (8.20)).
  for (int i = 0; i < n; ++i)
    stage[i] += x[i];
  if (int rc = p.rhs(t, stage.data(), fPerturbed.data()))
    return rc;
  scratch = fPerturbed + yNew;
  lu1.solve(scratch, stage);
  err = std::max(rms(stage), 1e-10);
  return EQC_OK;
}

void Radau5Solver::interpolate(double s, double *out) const {
  for (int i = 0; i < n; ++i)
    out[i] = yNew[i] + s * (cont1[i] + (s - C2m1) * (cont2[i] + (s - C1m1) * cont3[i]));
}

int Radau5Solver::emitOutputs(OutputGrid &grid, double t, double h, const double *x, bool hooked) {
  for (; grid.hasNext() && grid.next() <= t; grid.advance()) {
    const double tGrid = grid.next();
    if (tGrid == t) {
      if (int rc = p.output.emit(t, x))
        return rc;
      continue;
    }
    interpolate((tGrid - t) / h, stage.data());
    if (hooked) {
      if (int rc = applyOutputHook(p, tGrid, stage.data(), stats))
        return rc;
    }
    if (int rc = p.output.emit(tGrid, stage.data()))
      return rc;
  }
  return EQC_OK;
}

int Radau5Solver::run(double *x) {
  const eqc_options &opt = p.opt;
  OutputGrid grid(opt.t_start, opt.t_end, opt.interval, opt.output_origin);
  double t = opt.t_start;
  if (int rc = p.output.emit(t, x))
    return rc;
  if (int rc = p.rhs(t, x, f0.data()))
    return rc;
  if (int bad = firstNonFinite(n, f0.data()); bad >= 0) {
    stats.failed_component = bad;
    return EQC_ERR_NONFINITE;
  }
  computeScale(x);

  double h = std::min(opt.h_init, opt.h_max);
  if (opt.h_init == 0) {
    // Hairer's initial step for the order-3 embedded estimate, under the
    // transformed tolerances the estimate is measured against.
    IntegrationProblem scaledProblem = p;
    scaledProblem.opt.rtol = rtol;
    scaledProblem.opt.atol_vector = atolScaled.data();
    if (int rc = initialStep(scaledProblem, t, x, f0.data(), stage.data(), scratch.data(), 3, h))
      return rc;
  }
  bool last = false;
  if (t + 1.01 * h >= opt.t_end) {
    h = opt.t_end - t;
    last = true;
  }

  bool first = true;          // no step accepted yet: no polynomial to start Newton from
  bool rejected = false;      // the previous attempt failed
  bool needJacobian = true;   // J is stale (or missing): evaluate at (t, x) before the next attempt
  bool jacobianFresh = false; // J was evaluated at the current (t, x)
  double factoredStep = 0.0;  // h of the current LU factors, 0 for none
  double hOld = h;            // the last accepted step, for the starting values
  double hAccepted = 0.0, errAccepted = 0.0; // Gustafsson's memory
  int singular = 0;
  Failure failure = Failure::None;

  for (;;) {
    if (stats.steps + stats.rejected >= opt.max_steps)
      return EQC_ERR_MAX_STEPS;
    if (!(h >= minStep(t))) {
      if (failure == Failure::NonFinite) {
        stats.failed_component = nonFiniteComponent >= 0 ? nonFiniteComponent : 0;
        return EQC_ERR_NONFINITE;
      }
      if (failure == Failure::Evaluation)
        return EQC_ERR_RHS; // rhs_code: the last failed evaluation's
      return failure == Failure::Newton ? EQC_ERR_NEWTON : EQC_ERR_STEP_UNDERFLOW;
    }
    stats.h_last = h;
    const double tNew = last ? opt.t_end : t + h;

    if (needJacobian) {
      if (int rc = evaluateJacobian(t, x))
        return rc;
      needJacobian = false;
      jacobianFresh = true;
      factoredStep = 0.0;
    }
    // A failed attempt ends by shrinking h and retrying with the kept J when
    // it is fresh, else with a new one (RADAU5's label 78).
    auto retry = [&](double factor, Failure cause) {
      h *= factor;
      ++stats.rejected;
      rejected = true;
      last = false;
      failure = cause;
      needJacobian = !jacobianFresh;
    };
    if (h != factoredStep) {
      int rc = factor(h);
      factoredStep = rc == EQC_OK ? h : 0.0;
      if (rc != EQC_OK) {
        if (++singular >= MaxSingular)
          return EQC_ERR_SINGULAR;
        retry(0.5, Failure::Newton);
        continue;
      }
    }

    // Starting values: the collocation polynomial of the last step, extended.
    if (first) {
      z1.setZero(), z2.setZero(), z3.setZero();
      w1.setZero(), w2.setZero(), w3.setZero();
    } else {
      const double c3q = h / hOld, c1q = C1 * c3q, c2q = C2 * c3q;
      for (int i = 0; i < n; ++i) {
        const double ak1 = cont1[i], ak2 = cont2[i], ak3 = cont3[i];
        z1[i] = c1q * (ak1 + (c1q - C2m1) * (ak2 + (c1q - C1m1) * ak3));
        z2[i] = c2q * (ak1 + (c2q - C2m1) * (ak2 + (c2q - C1m1) * ak3));
        z3[i] = c3q * (ak1 + (c3q - C2m1) * (ak2 + (c3q - C1m1) * ak3));
        w1[i] = Ti11 * z1[i] + Ti12 * z2[i] + Ti13 * z3[i];
        w2[i] = Ti21 * z1[i] + Ti22 * z2[i] + Ti23 * z3[i];
        w3[i] = Ti31 * z1[i] + Ti32 * z2[i] + Ti33 * z3[i];
      }
    }

    bool slow;
    double hFactor = 1.0;
    const int newtonRc = newton(t, h, x, slow, hFactor);
    if (newtonRc == EQC_ERR_RHS) {
      if (!retryable(newtonRc, stats))
        return newtonRc;
      retry(0.5, Failure::Evaluation);
      continue;
    }
    if (newtonRc != EQC_OK) {
      retry(0.5, newtonRc == EQC_ERR_NONFINITE ? Failure::NonFinite : Failure::Newton);
      continue;
    }
    if (slow) {
      retry(hFactor, Failure::Newton);
      continue;
    }

    double err;
    if (int rc = errorEstimate(t, h, x, first || rejected, err)) {
      if (!retryable(rc, stats))
        return rc;
      retry(0.5, Failure::Evaluation);
      continue;
    }
    if (std::isnan(err)) {
      nonFiniteComponent = -1;
      retry(0.5, Failure::NonFinite);
      continue;
    }
    // Fewer Newton iterations allow a larger step (RADAU5's fac).
    const double fac = std::min(Safety, Safety * (1 + 2 * MaxNewton) / (iterations + 2 * MaxNewton));
    double quot = std::clamp(std::pow(err, 0.25) / fac, FacR, FacL);
    double hNew = h / quot;
    if (err >= 1.0) {
      retry(first ? 0.1 : hNew / h, Failure::None);
      continue;
    }

    if (hAccepted > 0.0) {
      // Gustafsson's predictive controller: also uses how the error changed
      // over the last two accepted steps.
      double facGus = (hAccepted / h) * std::pow(err * err / errAccepted, 0.25) / Safety;
      quot = std::max(quot, std::clamp(facGus, FacR, FacL));
      hNew = h / quot;
    }
    hAccepted = h;
    errAccepted = std::max(1e-2, err);
    first = false;
    failure = Failure::None;

    // The collocation polynomial of the step, for dense output and the next
    // step's starting values.
    for (int i = 0; i < n; ++i) {
      yNew[i] = x[i] + z3[i];
      cont1[i] = (z2[i] - z3[i]) / C2m1;
      const double ak = (z1[i] - z2[i]) / C1mC2;
      const double acont3 = (ak - z1[i] / C1) / C2;
      cont2[i] = (ak - cont1[i]) / C1m1;
      cont3[i] = cont2[i] - acont3;
    }
    if (int bad = firstNonFinite(n, yNew.data()); bad >= 0) {
      nonFiniteComponent = bad;
      retry(0.5, Failure::NonFinite);
      continue;
    }
    // f at the new point (the next step's f0) before the step is accepted: a point where the
    // model cannot be evaluated is no step to accept.
    if (!last) {
      if (int rc = p.rhs(tNew, yNew.data(), fPerturbed.data())) {
        if (!retryable(rc, stats))
          return rc;
        retry(0.5, Failure::Evaluation);
        continue;
      }
    }
    const double tOld = t;
    std::copy(yNew.data(), yNew.data() + n, x);
    t = tNew;
    hOld = h;
    ++stats.steps;
    stats.t_reached = t;
    if (p.events) {
      auto dense = [&](double tDense, double *out) -> int {
        interpolate((tDense - t) / h, out);
        return EQC_OK;
      };
      if (int rc = p.events->checkStep(p, tOld, t, x, dense, &grid, x))
        return rc;
    }
    bool changed;
    if (int rc = applyStepHook(p, t, x, yNew.data(), stats, changed)) {
      // The step itself is valid (the hook asked to stop after it): the grid
      // times it covers are emitted from its polynomial, unhooked.
      if (rc != EQC_ERR_NONFINITE)
        emitOutputs(grid, t, h, x, false);
      return rc;
    }
    if (int rc = emitOutputs(grid, t, h, x, true))
      return rc;
    if (opt.interval == 0 || last) {
      if (int rc = p.output.emit(t, x))
        return rc;
    }
    if (last)
      return EQC_OK;

    if (p.events || changed) { // x moved after the step (event, reinit, projection)
      if (int rc = p.rhs(t, x, f0.data()))
        return rc;
    } else {
      f0.swap(fPerturbed);
    }
    if (int bad = firstNonFinite(n, f0.data()); bad >= 0) {
      stats.failed_component = bad;
      return EQC_ERR_NONFINITE;
    }
    computeScale(x);
    jacobianFresh = false;
    needJacobian = theta > policy.keepJacobian;
    hNew = std::min(hNew, opt.h_max);
    if (rejected)
      hNew = std::min(hNew, h);
    rejected = false;
    // Stretching by up to 1% to reach t_end avoids a tiny final step.
    if (t + 1.01 * hNew >= opt.t_end) {
      h = opt.t_end - t;
      last = true;
    } else if (needJacobian || hNew / h < policy.quot1 || hNew / h > policy.quot2) {
      h = hNew;
    }
    // else: a small increase is not worth a new factorization; keep h.
  }
}

} // namespace

int runRadau5(IntegrationProblem &p, double *x, eqc_stats &stats) {
  if (int rc = prepareJacobian(p, stats))
    return rc;
  Radau5Solver solver(p, stats);
  return solver.run(x);
}

} // namespace eqc::rt
