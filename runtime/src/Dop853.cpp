// Hairer's DOP853: Dormand-Prince 8(5,3) with the error estimators of order 5
// and 3, step control and the contd8 dense output of order 7.
#include "Events.h"
#include "Integrator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <utility>

namespace eqc::rt {

namespace {

/// Twelve stages per step, the thirteenth (f at the new state, reused as the
/// next step's first) and three more for dense output.
constexpr int Stages = 16;
constexpr int StepStages = 12; ///< stages 0..11 give the solution
constexpr int FsalStage = 12;  ///< f(t + h, x_new); row 12 of A is b
constexpr int DenseStages = 3; ///< stages 13..15, only for dense output

// Coefficients of Hairer's dop853.f (row 12 of A holds the weights b). Checked
// in exact arithmetic: rows sum to C, b satisfies sum b c^k = 1/(k+1) for
// k <= 7, bhh the same for k <= 2, E5 annihilates c^k for k <= 4, and the
// dense polynomial integrates t^k exactly for k <= 6.
// clang-format off
constexpr double C[Stages] = {
    0.0, 0.526001519587677318785587544488e-01, 0.789002279381515978178381316732e-01,
    0.118350341907227396726757197510e00, 0.281649658092772603273242802490e00, 0.333333333333333333333333333333e00,
    0.25e00, 0.307692307692307692307692307692e00, 0.651282051282051282051282051282e00,
    0.6e00, 0.857142857142857142857142857142e00, 1,
    1, 0.1e00, 0.2e00,
    0.777777777777777777777777777778e00,
};

/// A[i][j]: weight of stage j in stage i; row 12 is b (so stage 12 is f at
/// the new state).
constexpr double A[Stages][Stages] = {
    {// stage 0
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 1
     5.26001519587677318785587544488e-2, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 2
     1.97250569845378994544595329183e-2, 5.91751709536136983633785987549e-2, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 3
     2.95875854768068491816892993775e-2, 0.0, 8.87627564304205475450678981324e-2,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 4
     2.41365134159266685502369798665e-1, 0.0, -8.84549479328286085344864962717e-1,
     9.24834003261792003115737966543e-1, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 5
     3.7037037037037037037037037037e-2, 0.0, 0.0,
     1.70828608729473871279604482173e-1, 1.25467687566822425016691814123e-1, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 6
     3.7109375e-2, 0.0, 0.0,
     1.70252211019544039314978060272e-1, 6.02165389804559606850219397283e-2, -1.7578125e-2,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 7
     3.70920001185047927108779319836e-2, 0.0, 0.0,
     1.70383925712239993810214054705e-1, 1.07262030446373284651809199168e-1, -1.53194377486244017527936158236e-2,
     8.27378916381402288758473766002e-3, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 8
     6.24110958716075717114429577812e-1, 0.0, 0.0,
     -3.36089262944694129406857109825e0, -8.68219346841726006818189891453e-1, 2.75920996994467083049415600797e1,
     2.01540675504778934086186788979e1, -4.34898841810699588477366255144e1, 0.0,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 9
     4.77662536438264365890433908527e-1, 0.0, 0.0,
     -2.48811461997166764192642586468e0, -5.90290826836842996371446475743e-1, 2.12300514481811942347288949897e1,
     1.52792336328824235832596922938e1, -3.32882109689848629194453265587e1, -2.03312017085086261358222928593e-2,
     0.0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 10
     -9.3714243008598732571704021658e-1, 0.0, 0.0,
     5.18637242884406370830023853209e0, 1.09143734899672957818500254654e0, -8.14978701074692612513997267357e0,
     -1.85200656599969598641566180701e1, 2.27394870993505042818970056734e1, 2.49360555267965238987089396762e0,
     -3.0467644718982195003823669022e0, 0.0, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 11
     2.27331014751653820792359768449e0, 0.0, 0.0,
     -1.05344954667372501984066689879e1, -2.00087205822486249909675718444e0, -1.79589318631187989172765950534e1,
     2.79488845294199600508499808837e1, -2.85899827713502369474065508674e0, -8.87285693353062954433549289258e0,
     1.23605671757943030647266201528e1, 6.43392746015763530355970484046e-1, 0.0,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 12
     5.42937341165687622380535766363e-2, 0.0, 0.0,
     0.0, 0.0, 4.45031289275240888144113950566e0,
     1.89151789931450038304281599044e0, -5.8012039600105847814672114227e0, 3.1116436695781989440891606237e-1,
     -1.52160949662516078556178806805e-1, 2.01365400804030348374776537501e-1, 4.47106157277725905176885569043e-2,
     0.0, 0.0, 0.0,
     0.0,
    },
    {// stage 13
     5.61675022830479523392909219681e-2, 0.0, 0.0,
     0.0, 0.0, 0.0,
     2.53500210216624811088794765333e-1, -2.46239037470802489917441475441e-1, -1.24191423263816360469010140626e-1,
     1.5329179827876569731206322685e-1, 8.20105229563468988491666602057e-3, 7.56789766054569976138603589584e-3,
     -8.298e-3, 0.0, 0.0,
     0.0,
    },
    {// stage 14
     3.18346481635021405060768473261e-2, 0.0, 0.0,
     0.0, 0.0, 2.83009096723667755288322961402e-2,
     5.35419883074385676223797384372e-2, -5.49237485713909884646569340306e-2, 0.0,
     0.0, -1.08347328697249322858509316994e-4, 3.82571090835658412954920192323e-4,
     -3.40465008687404560802977114492e-4, 1.41312443674632500278074618366e-1, 0.0,
     0.0,
    },
    {// stage 15
     -4.28896301583791923408573538692e-1, 0.0, 0.0,
     0.0, 0.0, -4.69762141536116384314449447206e0,
     7.68342119606259904184240953878e0, 4.06898981839711007970213554331e0, 3.56727187455281109270669543021e-1,
     0.0, 0.0, 0.0,
     -1.39902416515901462129418009734e-3, 2.9475147891527723389556272149e0, -9.15095847217987001081870187138e0,
     0.0,
    },
};

/// Weights of the embedded 3rd-order solution; b - Bhh is the order-3 error
/// estimator.
constexpr double Bhh[Stages] = {
    0.244094488188976377952755905512e00, 0.0, 0.0,
    0.0, 0.0, 0.0,
    0.0, 0.0, 0.733846688281611857341361741547e00,
    0.0, 0.0, 0.220588235294117647058823529412e-01,
    0.0, 0.0, 0.0,
    0.0,
};
/// The order-5 error estimator (Hairer's er1..er12).
constexpr double E5[Stages] = {
    0.1312004499419488073250102996e-01, 0.0, 0.0,
    0.0, 0.0, -0.1225156446376204440720569753e01,
    -0.4957589496572501915214079952e00, 0.1664377182454986536961530415e01, -0.3503288487499736816886487290e00,
    0.3341791187130174790297318841e00, 0.8192320648511571246570742613e-01, -0.2235530786388629525884427845e-01,
    0.0, 0.0, 0.0,
    0.0,
};
/// contd8 coefficients d4*..d7* (rows), over all 16 stages.
constexpr double D[4][Stages] = {
    {
     -0.84289382761090128651353491142e01, 0.0, 0.0,
     0.0, 0.0, 0.56671495351937776962531783590e00,
     -0.30689499459498916912797304727e01, 0.23846676565120698287728149680e01, 0.21170345824450282767155149946e01,
     -0.87139158377797299206789907490e00, 0.22404374302607882758541771650e01, 0.63157877876946881815570249290e00,
     -0.88990336451333310820698117400e-01, 0.18148505520854727256656404962e02, -0.91946323924783554000451984436e01,
     -0.44360363875948939664310572000e01,
    },
    {
     0.10427508642579134603413151009e02, 0.0, 0.0,
     0.0, 0.0, 0.24228349177525818288430175319e03,
     0.16520045171727028198505394887e03, -0.37454675472269020279518312152e03, -0.22113666853125306036270938578e02,
     0.77334326684722638389603898808e01, -0.30674084731089398182061213626e02, -0.93321305264302278729567221706e01,
     0.15697238121770843886131091075e02, -0.31139403219565177677282850411e02, -0.93529243588444783865713862664e01,
     0.35816841486394083752465898540e02,
    },
    {
     0.19985053242002433820987653617e02, 0.0, 0.0,
     0.0, 0.0, -0.38703730874935176555105901742e03,
     -0.18917813819516756882830838328e03, 0.52780815920542364900561016686e03, -0.11573902539959630126141871134e02,
     0.68812326946963000169666922661e01, -0.10006050966910838403183860980e01, 0.77771377980534432092869265740e00,
     -0.27782057523535084065932004339e01, -0.60196695231264120758267380846e02, 0.84320405506677161018159903784e02,
     0.11992291136182789328035130030e02,
    },
    {
     -0.25693933462703749003312586129e02, 0.0, 0.0,
     0.0, 0.0, -0.15418974869023643374053993627e03,
     -0.23152937917604549567536039109e03, 0.35763911791061412378285349910e03, 0.93405324183624310003907691704e02,
     -0.37458323136451633156875139351e02, 0.10409964950896230045147246184e03, 0.29840293426660503123344363579e02,
     -0.43533456590011143754432175058e02, 0.96324553959188282948394950600e02, -0.39177261675615439165231486172e02,
     -0.14972683625798562581422125276e03,
    },
};
// clang-format on

// Step-size control, Hairer's DOP853 defaults.
constexpr double Beta = 0.0; // no PI term by default in DOP853
constexpr double Expo1 = 1.0 / 8.0 - Beta * 0.2;
constexpr double Safety = 0.9;
constexpr double FacMin = 0.333; // fac1: the step shrinks at most by 3 per step
constexpr double FacMax = 6.0;   // fac2: and grows at most by 6
constexpr int DenseCoefficients = 8;

/// Work vectors for one integration, allocated once so the step loop never
/// allocates.
struct Dop853Work {
  explicit Dop853Work(int n) : storage(static_cast<size_t>(n) * (Stages + 4 + DenseCoefficients)) {
    double *base = storage.data();
    auto next = [&]() {
      double *v = base;
      base += n;
      return v;
    };
    for (double *&stage : k)
      stage = next();
    stage = next(), xNew = next(), xOld = next(), dense = next();
    for (double *&coefficient : r)
      coefficient = next();
  }
  std::vector<double> storage;
  double *k[Stages]; ///< k[0] = f(t, x), ..., k[12] = f(t + h, x_new)
  double *stage, *xNew;
  double *xOld;                 ///< the state at the start of the last accepted step
  double *dense;                ///< an interpolated output state
  double *r[DenseCoefficients]; ///< contd8 polynomial of the last step
};

/// Coefficient rows known at compile time: Row::at(j) is the weight of stage j.
template <size_t I> struct RowOfA {
  static constexpr double at(size_t j) { return A[I][j]; }
};
struct ErrorWeights5 {
  static constexpr double at(size_t j) { return E5[j]; }
};
/// The order-3 error estimator, b - Bhh.
struct ErrorWeights3 {
  static constexpr double at(size_t j) { return A[FsalStage][j] - Bhh[j]; }
};
template <size_t M> struct DenseWeights {
  static constexpr double at(size_t j) { return D[M][j]; }
};

/// sum + Row::at(0) k[0][e] + ... + Row::at(J-1) k[J-1][e], in that order,
/// unrolled. Zero weights are skipped only with SkipZeros (the stages, as
/// Hairer's loops do); the error and dense sums keep them, so that a NaN or Inf
/// in any stage shows in the result.
template <typename Row, bool SkipZeros, size_t... J>
inline double weightedSum(double sum, const double *const *k, int e, std::index_sequence<J...>) {
  [[maybe_unused]] auto add = [&](auto j) {
    constexpr double c = Row::at(decltype(j)::value);
    if constexpr (!SkipZeros || c != 0.0)
      sum += c * k[decltype(j)::value][e];
  };
  (add(std::integral_constant<size_t, J>()), ...);
  return sum;
}

/// stage = x + h * sum_j A[I][j] k[j], unrolled over the nonzero A[I][j].
template <size_t I> void stageState(int n, double h, const double *x, const Dop853Work &w, double *stage) {
  for (int e = 0; e < n; ++e)
    stage[e] = x[e] + h * weightedSum<RowOfA<I>, true>(0.0, w.k, e, std::make_index_sequence<I>());
}

using StageStateFn = void (*)(int n, double h, const double *x, const Dop853Work &w, double *stage);

template <size_t... I> constexpr std::array<StageStateFn, Stages> stageStateTable(std::index_sequence<I...>) {
  return {&stageState<I>...};
}

/// StageStates[i] computes the state of stage i (stage 12 is the new solution).
constexpr std::array<StageStateFn, Stages> StageStates = stageStateTable(std::make_index_sequence<Stages>());

/// Runs stages 1..11 of a step of size h from (t, x) (k[0] = f(t, x) is
/// given) and forms the 8th-order solution in w.xNew.
int evaluateStages(IntegrationProblem &p, double t, double h, const double *x, Dop853Work &w) {
  for (int i = 1; i < StepStages; ++i) {
    StageStates[i](p.n, h, x, w, w.stage);
    if (int rc = p.rhs(t + C[i] * h, w.stage, w.k[i]))
      return rc;
  }
  StageStates[FsalStage](p.n, h, x, w, w.xNew);
  return EQC_OK;
}

/// Hairer's combined error: err5^2 / sqrt(err5^2 + 0.01 err3^2), scaled by
/// |h| and RMS over the components, weights atol + rtol*max(|x|, |xNew|).
double errorNorm(const IntegrationProblem &p, double h, const double *x, const Dop853Work &w) {
  const int n = p.n;
  if (n == 0)
    return 0.0;
  double err5 = 0.0, err3 = 0.0;
  for (int e = 0; e < n; ++e) {
    constexpr auto stepStages = std::make_index_sequence<StepStages>();
    double e5 = weightedSum<ErrorWeights5, false>(0.0, w.k, e, stepStages);
    double e3 = weightedSum<ErrorWeights3, false>(0.0, w.k, e, stepStages);
    double sk = p.weight(e, std::max(std::fabs(x[e]), std::fabs(w.xNew[e])));
    err5 += std::pow(scaled(e5, sk), 2);
    err3 += std::pow(scaled(e3, sk), 2);
  }
  double denominator = err5 + 0.01 * err3;
  if (denominator <= 0.0)
    denominator = 1.0;
  return std::fabs(h) * err5 * std::sqrt(1.0 / (n * denominator));
}

/// Hairer's contd8 polynomial of the accepted step from w.xOld to w.xNew over
/// [t, t + h]; needs k[0..12] of that step and evaluates the three extra
/// stages into k[13..15].
int buildDenseOutput(IntegrationProblem &p, double t, double h, Dop853Work &w) {
  const int n = p.n;
  for (int i = FsalStage + 1; i < FsalStage + 1 + DenseStages; ++i) {
    StageStates[i](n, h, w.xOld, w, w.stage);
    if (int rc = p.rhs(t + C[i] * h, w.stage, w.k[i]))
      return rc;
  }
  for (int e = 0; e < n; ++e) {
    double xDiff = w.xNew[e] - w.xOld[e];
    double bspl = h * w.k[0][e] - xDiff;
    w.r[0][e] = w.xOld[e];
    w.r[1][e] = xDiff;
    w.r[2][e] = bspl;
    w.r[3][e] = xDiff - h * w.k[FsalStage][e] - bspl;
    constexpr auto all = std::make_index_sequence<Stages>();
    w.r[4][e] = h * weightedSum<DenseWeights<0>, false>(0.0, w.k, e, all);
    w.r[5][e] = h * weightedSum<DenseWeights<1>, false>(0.0, w.k, e, all);
    w.r[6][e] = h * weightedSum<DenseWeights<2>, false>(0.0, w.k, e, all);
    w.r[7][e] = h * weightedSum<DenseWeights<3>, false>(0.0, w.k, e, all);
  }
  return EQC_OK;
}

/// Evaluates contd8 at theta = (t - tOld) / h into out.
void interpolate(int n, double theta, const Dop853Work &w, double *out) {
  const double theta1 = 1.0 - theta;
  for (int e = 0; e < n; ++e) {
    double conv = w.r[4][e] + theta * (w.r[5][e] + theta1 * (w.r[6][e] + theta * w.r[7][e]));
    out[e] = w.r[0][e] + theta * (w.r[1][e] + theta1 * (w.r[2][e] + theta * (w.r[3][e] + theta1 * conv)));
  }
}

} // namespace

int runDop853(IntegrationProblem &p, double *x, eqc_stats &stats) {
  const int n = p.n;
  const eqc_options &opt = p.opt;
  Dop853Work w(n);
  OutputGrid grid(opt.t_start, opt.t_end, opt.interval, opt.output_origin);

  double t = opt.t_start;
  if (int rc = p.output.emit(t, x))
    return rc;
  if (int rc = p.rhs(t, x, w.k[0]))
    return rc;
  if (int bad = firstNonFinite(n, w.k[0]); bad >= 0) {
    stats.failed_component = bad;
    return EQC_ERR_NONFINITE;
  }

  double h = std::min(opt.h_init, opt.h_max);
  if (opt.h_init == 0) {
    if (int rc = initialStep(p, t, x, w.k[0], w.stage, w.k[1], 8, h))
      return rc;
  }

  double facOld = 1e-4;  // previous accepted error, for a PI term (Beta > 0)
  bool rejected = false; // the previous attempt failed: do not grow the step
  for (;;) {
    if (stats.steps + stats.rejected >= opt.max_steps)
      return EQC_ERR_MAX_STEPS;
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

    if (int rc = evaluateStages(p, t, h, x, w)) {
      if (retryable(rc, stats) && rejectFailedEvaluation(h, t, rejected, stats) == EQC_OK)
        continue;
      return rc;
    }
    const double err = errorNorm(p, h, x, w);
    int bad = firstNonFinite(n, w.xNew);
    if (bad < 0 && !std::isnan(err) && err <= 1.0) {
      // Only an accepted step needs f at its end (Hairer evaluates it there
      // too); a non-finite one sends the step back like a non-finite state.
      if (int rc = p.rhs(tNew, w.xNew, w.k[FsalStage])) {
        if (retryable(rc, stats) && rejectFailedEvaluation(h, t, rejected, stats) == EQC_OK)
          continue;
        return rc;
      }
      bad = firstNonFinite(n, w.k[FsalStage]);
    }
    if (bad >= 0 || std::isnan(err)) {
      if (int rc = rejectNonFiniteStep(h, t, bad, rejected, stats))
        return rc;
      continue;
    }

    const double fac11 = std::pow(err, Expo1);
    if (err > 1.0) {
      h = h / std::min(1.0 / FacMin, fac11 / Safety);
      rejected = true;
      ++stats.rejected;
      if (h < minStep(t))
        return EQC_ERR_STEP_UNDERFLOW;
      continue;
    }

    double fac = fac11 / std::pow(facOld, Beta);
    fac = std::clamp(fac / Safety, 1.0 / FacMax, 1.0 / FacMin);
    double hNew = h / fac;
    facOld = std::max(err, 1e-4);

    const double tOld = t;
    const double hTaken = tNew - tOld;
    std::copy(x, x + n, w.xOld);
    std::copy(w.xNew, w.xNew + n, x);
    t = tNew;
    ++stats.steps;
    stats.t_reached = t;
    // The extra stages are paid only by steps with a grid time strictly
    // inside them.
    bool denseReady = false;
    auto needsDense = [&]() { return grid.hasNext() && grid.next() < t; };
    if (p.events) {
      auto dense = [&](double tDense, double *out) -> int {
        if (!denseReady) {
          if (int rc = buildDenseOutput(p, tOld, h, w))
            return rc;
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
      // The step itself is valid (the hook asked to stop after it): the grid
      // times it covers are emitted from its interpolant, unhooked.
      if (rc != EQC_ERR_NONFINITE && (!needsDense() || buildDenseOutput(p, tOld, h, w) == EQC_OK))
        for (; grid.hasNext() && grid.next() <= t; grid.advance()) {
          double tGrid = grid.next();
          if (tGrid != t)
            interpolate(n, (tGrid - tOld) / hTaken, w, w.dense);
          if (p.output.emit(tGrid, tGrid == t ? x : w.dense))
            break;
        }
      return rc;
    }

    for (; grid.hasNext() && grid.next() <= t; grid.advance()) {
      double tGrid = grid.next();
      if (tGrid == t) {
        if (int rc = p.output.emit(t, x))
          return rc;
        continue;
      }
      if (!denseReady) {
        if (int rc = buildDenseOutput(p, tOld, h, w))
          return rc;
        denseReady = true;
      }
      interpolate(n, (tGrid - tOld) / hTaken, w, w.dense);
      if (int rc = applyOutputHook(p, tGrid, w.dense, stats))
        return rc;
      if (int rc = p.output.emit(tGrid, w.dense))
        return rc;
    }
    if (opt.interval == 0 || last) {
      if (int rc = p.output.emit(t, x))
        return rc;
    }
    if (last)
      return EQC_OK;

    // FSAL: f(tNew, xNew) is the next step's first stage, unless the hook
    // moved the state.
    std::swap(w.k[0], w.k[FsalStage]);
    if (changed) {
      if (int rc = p.rhs(t, x, w.k[0]))
        return rc;
      if (int bad = firstNonFinite(n, w.k[0]); bad >= 0) {
        stats.failed_component = bad;
        return EQC_ERR_NONFINITE;
      }
    }

    hNew = std::min(hNew, opt.h_max);
    if (rejected)
      hNew = std::min(hNew, h);
    rejected = false;
    h = hNew;
  }
}

} // namespace eqc::rt
