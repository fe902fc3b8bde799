// `eqc_bench_workprecision`: work-precision of eqc's runtime (dopri5, dop853, radau5, auto)
// against its peers, on the same hand-written C right-hand sides (bench/wp_problems.c): SUNDIALS
// CVODE (BDF + Newton + dense LU with the analytic Jacobian on the stiff problems, Adams +
// fixed-point iteration on the non-stiff ones) and, on the non-stiff problems and when built with
// them, Boost.Odeint's runge_kutta_dopri5 and GSL's rk8pd; and of eqc's fixed-step methods (euler,
// heun, rk4 on the non-stiff problems, beuler with the analytic Jacobian on the stiff ones)
// against eqc's best variable-step method.
//
// For each problem and each tolerance of the sweep, every solver runs once untimed (statistics,
// error at t_end, and the number of runs per timed batch), then R rounds each time one batch of
// every solver in rotated order, so that eqc and its peers share the machine's noise. The
// fixed-step methods sweep the number of steps N (dt = span / N) instead of rtol: the k-th N of
// every fixed-step method joins the rounds of the k-th tolerance (after the last tolerance the
// fixed-step points are timed among themselves), and a method's sweep ends after the first step
// count whose median run time exceeds --fixed-max-ms. Times are medians over the rounds. The summaries compare
// times at matched achieved error (log-log interpolation along each work-precision curve), never
// at matched rtol or dt; see bench/README.md.
#include "bench/WorkPrecision.h"
#include "bench/wp_problems.h"
#include "eqc/eqc_runtime.h"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#ifdef EQC_BENCH_HAVE_ODEINT
#include <boost/numeric/odeint.hpp>
#include <boost/version.hpp>
#endif
#ifdef EQC_BENCH_HAVE_GSL
#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_version.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

static_assert(sizeof(realtype) == sizeof(double), "SUNDIALS must be built in double precision");

namespace {

using namespace eqc::bench;

const char *kUsage = R"(usage: eqc_bench_workprecision [options]

Work-precision of eqc's integrators against SUNDIALS CVODE on ROBER, HIRES, VDPOL (mu = 1e6),
Arenstorf, Pleiades, Lorenz and RigidBody (on the last four also against Boost.Odeint's dopri5 and
GSL's rk8pd, when built with them), and of eqc's fixed-step methods against its best variable-step
method. Prints a Markdown summary of time ratios eqc/peer and fixed-step/variable-step at matched
error.

options:
  --csv FILE          write every (problem, solver, tolerance or step count) as one CSV row
  --problems LIST     comma-separated subset, e.g. ROBER,HIRES (default: all)
  --eqc-methods LIST  eqc methods for every problem (dopri5,dop853,radau5,auto); default:
                      radau5,auto on the stiff problems, dopri5,dop853,auto on the others
  --rtol-max X        loosest rtol of the sweep (default 1e-3)
  --rtol-min X        tightest rtol of the sweep (default 1e-12)
  --per-decade K      tolerances per decade (default 2)
  --reps R            timed rounds per tolerance (default 7)
  --batch-ms MS       target duration of one timed batch of runs (default 20)
  --rober-tend T      end time of ROBER (default 1e11, the Test Set's); other values compute
                      their reference with eqc's radau5 at rtol 1e-13
  --fixed-methods L   fixed-step methods (euler,heun,rk4,beuler) for every problem, or none;
                      default: beuler on the stiff problems, euler,heun,rk4 on the others
  --fixed-per-decade K  step counts N per decade of the fixed-step sweep (default 3)
  --fixed-n-min N     first step count of the sweep (default 10)
  --fixed-n-max N     largest step count (default 1e8)
  --fixed-max-ms MS   a fixed-step sweep ends after the first step count whose (median) run
                      time exceeds this (default 250)
  --rober-short-tend T  also run ROBER on [0, T] (problem ROBER-T, default T = 40) with the
                      fixed-step and eqc's variable-step methods (no peer), reference by
                      eqc's radau5 at rtol 1e-13; 0: not
  --print-problems    print the problems' data (name, stiff, t_end, atol_ratio, y0, reference)
                      as JSON and exit: bench/scipy_peer.py reads them from here
  --smoke             the ctest: rtol 1e-4, 1e-5, 1e-6 (odeint and GSL: 1e-6), one round, one
                      run per batch, one step count per fixed-step method; checks the Jacobians,
                      that every run succeeds and that the error is plausible
  -h, --help          this help
)";

struct Options {
  std::string csv;
  std::vector<std::string> problems;
  std::vector<std::string> eqcMethods;
  double rtolMax = 1e-3, rtolMin = 1e-12;
  int perDecade = 2;
  int reps = 7;
  double batchMs = 20.0;
  double roberTend = 1e11;
  std::vector<std::string> fixedMethods;
  bool noFixed = false; // --fixed-methods none
  int fixedPerDecade = 3;
  double fixedNMin = 10, fixedNMax = 1e8;
  double fixedMaxMs = 250;
  double roberShortTend = 40;
  bool smoke = false;
  bool printProblems = false;
};

bool parseArgs(int argc, char **argv, Options &o) {
  ArgReader args(argc, argv, "eqc_bench_workprecision", kUsage);
  while (const char *option = args.next()) {
    const std::string a = option;
    if (a == "--csv")
      o.csv = args.value();
    else if (a == "--problems")
      o.problems = splitList(args.value());
    else if (a == "--eqc-methods")
      o.eqcMethods = splitList(args.value());
    else if (a == "--rtol-max")
      o.rtolMax = std::atof(args.value());
    else if (a == "--rtol-min")
      o.rtolMin = std::atof(args.value());
    else if (a == "--per-decade")
      o.perDecade = std::atoi(args.value());
    else if (a == "--reps")
      o.reps = std::atoi(args.value());
    else if (a == "--batch-ms")
      o.batchMs = std::atof(args.value());
    else if (a == "--rober-tend")
      o.roberTend = std::atof(args.value());
    else if (a == "--fixed-methods") {
      o.fixedMethods = splitList(args.value());
      o.noFixed = o.fixedMethods.size() == 1 && o.fixedMethods[0] == "none";
      if (o.noFixed)
        o.fixedMethods.clear();
    } else if (a == "--fixed-per-decade")
      o.fixedPerDecade = std::atoi(args.value());
    else if (a == "--fixed-n-min")
      o.fixedNMin = std::atof(args.value());
    else if (a == "--fixed-n-max")
      o.fixedNMax = std::atof(args.value());
    else if (a == "--fixed-max-ms")
      o.fixedMaxMs = std::atof(args.value());
    else if (a == "--rober-short-tend")
      o.roberShortTend = std::atof(args.value());
    else if (a == "--smoke")
      o.smoke = true;
    else if (a == "--print-problems")
      o.printProblems = true;
    else
      return args.unknown();
  }
  if (!(o.rtolMax > 0) || !(o.rtolMin > 0) || o.rtolMin > o.rtolMax || o.perDecade < 1 ||
      o.reps < 1 || o.batchMs < 0 || !(o.roberTend > 0) || o.fixedPerDecade < 1 ||
      !(o.fixedNMin >= 1) || o.fixedNMax < o.fixedNMin || !(o.fixedMaxMs > 0) ||
      !(o.roberShortTend >= 0)) {
    std::fprintf(stderr, "eqc_bench_workprecision: invalid option value\n");
    return false;
  }
  return true;
}

// ---- the problems as the bench uses them (ROBER's span may be changed) ----

struct Problem {
  std::string name; // p.name, or ROBER-<t_end> for the short ROBER span
  wp_problem p;
  std::vector<double> ref;
  std::string refSource;
  bool peers = true; // compared with the peer libraries (the short ROBER span is not)
};

// ---- solvers ----

// Every kind but Eqc is a peer library; only the peers that were built are in the solver list.
enum class Kind { Eqc, CvodeBdf, CvodeAdams, OdeintDopri5, GslRk8pd };

struct Solver {
  Kind kind;
  eqc_method method = EQC_METHOD_DOPRI5; // Eqc only
  std::string name;                      // "eqc radau5", "CVODE BDF", "GSL rk8pd", ...
  bool isPeer() const { return kind != Kind::Eqc; }
};

std::optional<eqc_method> methodByName(const std::string &s) {
  if (s == "euler")
    return EQC_METHOD_EULER;
  if (s == "heun")
    return EQC_METHOD_HEUN;
  if (s == "rk4")
    return EQC_METHOD_RK4;
  if (s == "beuler")
    return EQC_METHOD_BEULER;
  if (s == "dopri5")
    return EQC_METHOD_DOPRI5;
  if (s == "dop853")
    return EQC_METHOD_DOP853;
  if (s == "radau5")
    return EQC_METHOD_RADAU5;
  if (s == "auto")
    return EQC_METHOD_AUTO;
  return std::nullopt;
}

bool isFixedStep(eqc_method m) {
  return m == EQC_METHOD_EULER || m == EQC_METHOD_HEUN || m == EQC_METHOD_RK4 ||
         m == EQC_METHOD_BEULER;
}

const char *methodName(int m) {
  switch (m) {
  case EQC_METHOD_EULER:
    return "euler";
  case EQC_METHOD_HEUN:
    return "heun";
  case EQC_METHOD_RK4:
    return "rk4";
  case EQC_METHOD_BEULER:
    return "beuler";
  case EQC_METHOD_DOPRI5:
    return "dopri5";
  case EQC_METHOD_DOP853:
    return "dop853";
  case EQC_METHOD_RADAU5:
    return "radau5";
  case EQC_METHOD_AUTO:
    return "auto";
  default:
    return "?";
  }
}

/// One eqc run; the fixed-step methods use dt (and ignore rtol, atol), the others rtol and atol.
RunResult runEqc(const Problem &pr, eqc_method method, double rtol, double atol, double dt = 0) {
  const wp_problem &p = pr.p;
  eqc_options opt;
  eqc_options_default(&opt);
  opt.method = method;
  opt.t_start = 0.0;
  opt.t_end = p.t_end;
  opt.rtol = rtol;
  opt.atol = atol;
  opt.max_steps = 50000000;
  if (isFixedStep(method)) {
    opt.dt = dt;
    opt.max_steps = std::max(opt.max_steps, long(std::ceil(p.t_end / dt)) + 1);
  }
  RunResult r;
  r.y.assign(p.y0, p.y0 + p.n);
  eqc_stats st;
  const int rc = eqc_integrate_ex(p.n, p.rhs, nullptr, p.jac, nullptr, r.y.data(), &opt, nullptr,
                                  nullptr, nullptr, nullptr, &st);
  takeEqcStats(rc, st, r);
  r.methodUsed = methodName(st.method_used);
  r.switchTime = st.switch_time;
  return r;
}

// CVODE calls the same C functions through these adapters; the Jacobian is written row-major
// into a scratch buffer and transposed into CVODE's column-major dense matrix.
struct CvodeUser {
  const wp_problem *p;
  std::vector<double> rowMajor;
};

int cvRhs(realtype t, N_Vector y, N_Vector ydot, void *user) {
  const auto *u = static_cast<CvodeUser *>(user);
  return u->p->rhs(nullptr, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot)) == 0 ? 0 : -1;
}

int cvJac(realtype t, N_Vector y, N_Vector, SUNMatrix J, void *user, N_Vector, N_Vector,
          N_Vector) {
  auto *u = static_cast<CvodeUser *>(user);
  const int n = u->p->n;
  if (u->p->jac(nullptr, t, N_VGetArrayPointer(y), u->rowMajor.data()) != 0)
    return -1;
  double *col = SUNDenseMatrix_Data(J); // column-major, leading dimension n
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      col[j * n + i] = u->rowMajor[i * n + j];
  return 0;
}

RunResult runCvode(SUNContext ctx, const Problem &pr, bool bdf, double rtol, double atol) {
  const wp_problem &p = pr.p;
  RunResult r;
  CvodeUser user{&p, std::vector<double>(size_t(p.n) * p.n)};
  N_Vector y = N_VNew_Serial(p.n, ctx);
  std::copy(p.y0, p.y0 + p.n, N_VGetArrayPointer(y));
  void *mem = CVodeCreate(bdf ? CV_BDF : CV_ADAMS, ctx);
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  SUNNonlinearSolver NLS = nullptr;
  int flag = CVodeInit(mem, cvRhs, 0.0, y);
  if (flag == CV_SUCCESS)
    flag = configureCvode(mem, &user, rtol, atol, p.t_end);
  if (flag == CV_SUCCESS) {
    if (bdf) {
      A = SUNDenseMatrix(p.n, p.n, ctx);
      LS = SUNLinSol_Dense(y, A, ctx);
      flag = CVodeSetLinearSolver(mem, LS, A);
      if (flag == CV_SUCCESS)
        flag = CVodeSetJacFn(mem, cvJac);
    } else {
      NLS = SUNNonlinSol_FixedPoint(y, 0, ctx);
      flag = CVodeSetNonlinearSolver(mem, NLS);
    }
  }
  realtype t = 0.0;
  if (flag == CV_SUCCESS)
    flag = CVode(mem, p.t_end, y, &t, CV_NORMAL);
  takeCvodeStats(mem, flag, t, p.t_end, bdf, r); // lus: dense LUs of I - gamma J
  r.y.assign(N_VGetArrayPointer(y), N_VGetArrayPointer(y) + p.n);
  r.methodUsed = bdf ? "BDF" : "Adams";
  CVodeFree(&mem);
  if (LS)
    SUNLinSolFree(LS);
  if (A)
    SUNMatDestroy(A);
  if (NLS)
    SUNNonlinSolFree(NLS);
  N_VDestroy(y);
  return r;
}

#if defined(EQC_BENCH_HAVE_ODEINT) || defined(EQC_BENCH_HAVE_GSL)
/// First trial step of the Runge-Kutta peers (a fraction of t_end), which unlike eqc and CVODE do
/// not estimate one. Small enough that their first step is never rejected on Arenstorf and
/// Pleiades at rtol 1e-3 ... 1e-12; both controllers grow the step by up to 5x per step, so it
/// costs a few short steps (about 40 rhs calls; 1e-3 t_end saves them at loose tolerances but is
/// rejected at tight ones).
constexpr double kPeerInitialStep = 1e-6;
#endif

#ifdef EQC_BENCH_HAVE_ODEINT
// Odeint calls the system as f(y, dydt, t) and copies it, so the count lives in the caller.
struct OdeintRhs {
  const wp_problem *p;
  long *calls;
  void operator()(const std::vector<double> &y, std::vector<double> &dydt, double t) const {
    ++*calls;
    if (p->rhs(nullptr, t, y.data(), dydt.data()) != 0)
      throw std::runtime_error("rhs failed");
  }
};

/// Odeint's Dormand-Prince 5(4) with its default controller (make_controlled: error norm max_i
/// |err_i| / (atol + rtol (|y_i| + h |y'_i|))), integrate_adaptive to exactly t_end.
RunResult runOdeint(const Problem &pr, double rtol, double atol) {
  namespace odeint = boost::numeric::odeint;
  const wp_problem &p = pr.p;
  RunResult r;
  r.y.assign(p.y0, p.y0 + p.n);
  long calls = 0;
  try {
    auto stepper =
        odeint::make_controlled(atol, rtol, odeint::runge_kutta_dopri5<std::vector<double>>());
    r.steps = long(odeint::integrate_adaptive(stepper, OdeintRhs{&p, &calls}, r.y, 0.0, p.t_end,
                                              kPeerInitialStep * p.t_end));
    r.ok = true;
    // integrate_adaptive counts accepted steps only. Its FSAL controller evaluates f once at
    // t = 0 and then six new stages per attempted step, accepted or not.
    r.rejected = (calls - 1) / 6 - r.steps;
  } catch (const std::exception &e) { // odeint throws when the step size cannot be adjusted
    r.message = e.what();
  }
  r.rhsEvals = calls;
  r.methodUsed = "dopri5";
  return r;
}
#endif

#ifdef EQC_BENCH_HAVE_GSL
struct GslUser {
  const wp_problem *p;
  long calls = 0;
};

int gslRhs(double t, const double y[], double dydt[], void *params) {
  auto *u = static_cast<GslUser *>(params);
  ++u->calls;
  return u->p->rhs(nullptr, t, y, dydt) == 0 ? GSL_SUCCESS : GSL_EBADFUNC;
}

/// GSL's Prince-Dormand 8(7) through the odeiv2 driver with its standard control (y_new: error
/// norm max_i |err_i| / (atol + rtol |y_i|)), to exactly t_end. The driver, stepper and
/// controller are allocated and freed in each run, as CVODE's objects are.
RunResult runGsl(const Problem &pr, double rtol, double atol) {
  const wp_problem &p = pr.p;
  RunResult r;
  GslUser user{&p};
  gsl_odeiv2_system sys{gslRhs, nullptr, size_t(p.n), &user};
  gsl_odeiv2_driver *d = gsl_odeiv2_driver_alloc_y_new(&sys, gsl_odeiv2_step_rk8pd,
                                                       kPeerInitialStep * p.t_end, atol, rtol);
  gsl_odeiv2_driver_set_nmax(d, 50000000);
  r.y.assign(p.y0, p.y0 + p.n);
  double t = 0.0;
  const int status = gsl_odeiv2_driver_apply(d, &t, p.t_end, r.y.data());
  r.ok = status == GSL_SUCCESS;
  if (!r.ok)
    r.message = std::string(gsl_strerror(status)) + " at t = " + std::to_string(t);
  // The evolve object counts every step the stepper computed, also those the error test rejected.
  r.rejected = long(d->e->failed_steps);
  r.steps = long(d->e->count) - r.rejected;
  r.rhsEvals = user.calls;
  r.methodUsed = "rk8pd";
  gsl_odeiv2_driver_free(d);
  return r;
}
#endif

RunResult runSolver(SUNContext ctx, const Problem &pr, const Solver &s, double rtol, double atol,
                    double dt) {
  if (s.kind == Kind::Eqc)
    return runEqc(pr, s.method, rtol, atol, dt);
#ifdef EQC_BENCH_HAVE_ODEINT
  if (s.kind == Kind::OdeintDopri5)
    return runOdeint(pr, rtol, atol);
#endif
#ifdef EQC_BENCH_HAVE_GSL
  if (s.kind == Kind::GslRk8pd)
    return runGsl(pr, rtol, atol);
#endif
  return runCvode(ctx, pr, s.kind == Kind::CvodeBdf, rtol, atol);
}

/// The Test Set's mixed error: max_i |y_i - ref_i| / (atol/rtol + |ref_i|), i.e. 10^-mescd.
double mixedError(const Problem &pr, const std::vector<double> &y) {
  double e = 0;
  for (int i = 0; i < pr.p.n; ++i)
    e = std::max(e, std::fabs(y[i] - pr.ref[i]) / (pr.p.atol_ratio + std::fabs(pr.ref[i])));
  return std::isfinite(e) ? e : INFINITY;
}

/// max_i |y_i - ref_i| / |ref_i| over the components with ref_i != 0 (10^-scd).
double relativeError(const Problem &pr, const std::vector<double> &y) {
  double e = 0;
  for (int i = 0; i < pr.p.n; ++i)
    if (pr.ref[i] != 0)
      e = std::max(e, std::fabs(y[i] - pr.ref[i]) / std::fabs(pr.ref[i]));
  return std::isfinite(e) ? e : INFINITY;
}

struct Point {
  std::string problem;
  const Solver *solver;
  double rtol = NAN, atol = NAN; // variable-step solvers
  double dt = NAN;               // fixed-step methods: span / nSteps
  long nSteps = 0;
  RunResult run;
  double errMixed = NAN, errRel = NAN;
  Timing timing;      // rounds: 0 for fixed-step runs without a correct digit (not timed)
  double tOnce = NAN; // the untimed run
};

/// Jacobian against central differences at y0 and at a perturbed state; returns the largest
/// difference relative to max(|J_ij|, row scale).
double checkJacobian(const wp_problem &p) {
  const int n = p.n;
  double worst = 0;
  for (int trial = 0; trial < 2; ++trial) {
    std::vector<double> y(p.y0, p.y0 + n);
    if (trial == 1)
      for (int i = 0; i < n; ++i)
        y[i] = y[i] * (1.0 + 0.01 * (i % 3 + 1)) + 1e-3 * ((i % 2) ? 1 : -1) * (1 + std::fabs(y[i]));
    std::vector<double> J(size_t(n) * n), fp(n), fm(n);
    p.jac(nullptr, 0.0, y.data(), J.data());
    std::vector<double> fd(size_t(n) * n);
    for (int j = 0; j < n; ++j) {
      const double h = 1e-6 * std::max(1e-3, std::fabs(y[j]));
      std::vector<double> yp = y, ym = y;
      yp[j] += h, ym[j] -= h;
      p.rhs(nullptr, 0.0, yp.data(), fp.data());
      p.rhs(nullptr, 0.0, ym.data(), fm.data());
      for (int i = 0; i < n; ++i)
        fd[size_t(i) * n + j] = (fp[i] - fm[i]) / (2 * h);
    }
    for (int i = 0; i < n; ++i) {
      double rowScale = 0;
      for (int j = 0; j < n; ++j)
        rowScale = std::max(rowScale, std::fabs(J[size_t(i) * n + j]));
      for (int j = 0; j < n; ++j) {
        const double d = std::fabs(J[size_t(i) * n + j] - fd[size_t(i) * n + j]);
        worst = std::max(worst, d / std::max(rowScale, 1e-300));
      }
    }
  }
  return worst;
}

// ---- matched-error comparison ----

/// Curve of one solver on one problem (see CurveBuilder).
std::vector<CurvePoint> curveOf(const std::vector<Point> &points, const std::string &problem,
                                const Solver *s) {
  return eqc::bench::curveOf(points,
                             [&](const Point &p) { return p.problem == problem && p.solver == s; });
}

std::string fmtMs(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", seconds * 1e3);
  return buf;
}

/// A fixed-step sweep ends once its error is below this: the summaries stop at 1e-11.
constexpr double kFixedErrStop = 1e-12;

/// The one step count per fixed-step method of --smoke: a few ms each, enough steps for an error
/// below 1. 0: not run (VDPOL's beuler fails below about 3e6 steps, see bench/README.md).
long smokeSteps(const std::string &problem, eqc_method m) {
  if (problem == "VDPOL" && m == EQC_METHOD_BEULER)
    return 0;
  if (problem == "ROBER")
    return 10000; // beuler's Newton fails in the first step for N <= 1000
  if (problem == "Arenstorf")
    return 100000;
  if (problem == "Pleiades")
    return m == EQC_METHOD_EULER ? 220000 : 10000;
  return 1000;
}

/// --smoke runs these peers only at its tightest rtol: at rtol 1e-4 odeint's dopri5 loses the
/// Arenstorf orbit (error 1.9), a real answer that the smoke test's plausibility check rejects.
bool smokeOnlyTightest(const Solver &s) {
  return s.kind == Kind::OdeintDopri5 || s.kind == Kind::GslRk8pd;
}

/// A fixed-step method's sweep on one problem.
struct Sweep {
  const Solver *solver = nullptr;
  long lastN = 0;
  bool stopped = false;
  std::string why; // why the sweep ended
};

} // namespace

/// The table of wp_problems.c as JSON, every number to 17 digits: the one source of the data.
void printProblems() {
  auto numbers = [](const double *v, int n) {
    for (int i = 0; i < n; ++i)
      std::printf("%s%.17g", i ? ", " : "", v[i]);
  };
  std::printf("[\n");
  for (int k = 0; k < wp_problem_count; ++k) {
    const wp_problem &p = wp_problems[k];
    std::printf("  {\"name\": \"%s\", \"stiff\": %s, \"t_end\": %.17g, \"atol_ratio\": %.17g, \"y0\": [", p.name,
                p.stiff ? "true" : "false", p.t_end, p.atol_ratio);
    numbers(p.y0, p.n);
    std::printf("], \"ref\": [");
    numbers(p.ref, p.n);
    std::printf("]}%s\n", k + 1 < wp_problem_count ? "," : "");
  }
  std::printf("]\n");
}

int main(int argc, char **argv) {
  Options o;
  if (!parseArgs(argc, argv, o))
    return 2;
  if (o.printProblems) {
    printProblems();
    return 0;
  }
  if (o.smoke) {
    o.rtolMax = 1e-4, o.rtolMin = 1e-6, o.perDecade = 1, o.reps = 1, o.batchMs = 0;
  }

  SUNContext ctx = nullptr;
  if (SUNContext_Create(nullptr, &ctx) != 0) {
    std::fprintf(stderr, "eqc_bench_workprecision: SUNContext_Create failed\n");
    return 1;
  }
#ifdef EQC_BENCH_HAVE_GSL
  // GSL's default error handler aborts; a failing driver is a failed run like any other.
  gsl_set_error_handler_off();
#endif

  // Solvers.
  std::vector<Solver> solvers;
  solvers.reserve(16); // pointers into it are kept
  auto addEqc = [&](eqc_method m) {
    solvers.push_back({Kind::Eqc, m, std::string("eqc ") + methodName(m)});
  };
  for (const char *m : {"dopri5", "dop853", "radau5", "auto", "euler", "heun", "rk4", "beuler"})
    addEqc(*methodByName(m));
  solvers.push_back({Kind::CvodeBdf, EQC_METHOD_DOPRI5, "CVODE BDF"});
  solvers.push_back({Kind::CvodeAdams, EQC_METHOD_DOPRI5, "CVODE Adams"});
#ifdef EQC_BENCH_HAVE_ODEINT
  solvers.push_back({Kind::OdeintDopri5, EQC_METHOD_DOPRI5, "odeint dopri5"});
#endif
#ifdef EQC_BENCH_HAVE_GSL
  solvers.push_back({Kind::GslRk8pd, EQC_METHOD_DOPRI5, "GSL rk8pd"});
#endif
  auto eqcSolver = [&](eqc_method m) -> const Solver * {
    for (const Solver &s : solvers)
      if (s.kind == Kind::Eqc && s.method == m)
        return &s;
    return nullptr;
  };
  std::vector<eqc_method> userMethods, userFixed;
  for (const std::string &m : o.eqcMethods) {
    auto em = methodByName(m);
    if (!em || isFixedStep(*em)) {
      std::fprintf(stderr, "eqc_bench_workprecision: unknown variable-step eqc method %s%s\n",
                   m.c_str(), em ? " (fixed-step methods: --fixed-methods)" : "");
      return 2;
    }
    userMethods.push_back(*em);
  }
  for (const std::string &m : o.fixedMethods) {
    auto em = methodByName(m);
    if (!em || !isFixedStep(*em)) {
      std::fprintf(stderr, "eqc_bench_workprecision: unknown fixed-step method %s\n", m.c_str());
      return 2;
    }
    userFixed.push_back(*em);
  }
  auto fixedOf = [&](const Problem &pr) {
    std::vector<const Solver *> list;
    if (o.noFixed)
      return list;
    std::vector<eqc_method> ms = userFixed;
    if (ms.empty())
      ms = pr.p.stiff ? std::vector<eqc_method>{EQC_METHOD_BEULER}
                      : std::vector<eqc_method>{EQC_METHOD_EULER, EQC_METHOD_HEUN, EQC_METHOD_RK4};
    for (eqc_method m : ms)
      list.push_back(eqcSolver(m));
    return list;
  };

  // Problems.
  auto selected = [&](const std::string &name) {
    return o.problems.empty() ||
           std::find(o.problems.begin(), o.problems.end(), name) != o.problems.end();
  };
  std::string roberShortName;
  if (o.roberShortTend > 0) {
    char b[64];
    std::snprintf(b, sizeof b, "ROBER-%g", o.roberShortTend);
    roberShortName = b;
  }
  std::vector<Problem> problems;
  for (int i = 0; i < wp_problem_count; ++i) {
    const wp_problem &p = wp_problems[i];
    if (selected(p.name))
      problems.push_back({p.name, p, std::vector<double>(p.ref, p.ref + p.n), p.ref_source});
    // ROBER's uniform steps over [0, 1e11] say little (see bench/README.md): the fixed-step
    // methods also run on [0, roberShortTend], against eqc's variable-step methods there.
    if (std::string(p.name) == "ROBER" && !roberShortName.empty() && !o.noFixed &&
        (selected(p.name) || selected(roberShortName))) {
      Problem sp{roberShortName, p, {}, "eqc radau5, rtol 1e-13, atol 1e-17 (computed by this run)",
                 false};
      sp.p.t_end = o.roberShortTend;
      RunResult ref = runEqc(sp, EQC_METHOD_RADAU5, 1e-13, 1e-17);
      if (!ref.ok) {
        std::fprintf(stderr, "%s: reference run failed: %s\n", sp.name.c_str(),
                     ref.message.c_str());
        return 1;
      }
      sp.ref = ref.y;
      problems.push_back(std::move(sp));
    }
  }
  if (problems.empty()) {
    std::fprintf(stderr, "eqc_bench_workprecision: no problem selected\n");
    return 2;
  }
  int failures = 0;
  for (Problem &pr : problems) {
    const double jacErr = checkJacobian(pr.p);
    if (jacErr > 1e-5) {
      std::fprintf(stderr, "%s: analytic Jacobian differs from central differences by %.2e\n",
                   pr.name.c_str(), jacErr);
      ++failures;
    }
    if (pr.name == "ROBER" && o.roberTend != pr.p.t_end) {
      pr.p.t_end = o.roberTend;
      RunResult ref = runEqc(pr, EQC_METHOD_RADAU5, 1e-13, 1e-17);
      if (!ref.ok) {
        std::fprintf(stderr, "ROBER: reference run failed: %s\n", ref.message.c_str());
        return 1;
      }
      pr.ref = ref.y;
      pr.refSource = "eqc radau5, rtol 1e-13, atol 1e-17 (computed by this run)";
    }
  }
  if (failures)
    return 1;

  // The peers that fit a problem: CVODE BDF for the stiff ones, every other peer (all explicit)
  // for the others.
  auto peersOf = [&](const Problem &pr) {
    std::vector<const Solver *> list;
    for (const Solver &s : solvers)
      if (s.isPeer() && (s.kind == Kind::CvodeBdf) == bool(pr.p.stiff))
        list.push_back(&s);
    return list;
  };
  // Variable-step solvers of a problem: eqc's methods, then its peers (when compared with them).
  auto solversOf = [&](const Problem &pr) {
    std::vector<const Solver *> list;
    std::vector<eqc_method> ms = userMethods;
    if (ms.empty())
      ms = pr.p.stiff ? std::vector<eqc_method>{EQC_METHOD_RADAU5, EQC_METHOD_AUTO}
                      : std::vector<eqc_method>{EQC_METHOD_DOPRI5, EQC_METHOD_DOP853,
                                                EQC_METHOD_AUTO};
    for (eqc_method m : ms)
      list.push_back(eqcSolver(m));
    if (pr.peers)
      for (const Solver *s : peersOf(pr))
        list.push_back(s);
    return list;
  };

  // Tolerances: 10^(-k / perDecade) from rtolMax down to rtolMin.
  std::vector<double> rtols;
  {
    const double lmax = std::log10(o.rtolMax), lmin = std::log10(o.rtolMin);
    for (int k = 0;; ++k) {
      const double l = lmax - double(k) / o.perDecade;
      if (l < lmin - 1e-9)
        break;
      rtols.push_back(std::pow(10.0, l));
    }
  }
  // Step counts of the fixed-step sweep: fixedNMin * 10^(k / fixedPerDecade), rounded.
  auto stepCountOf = [&](size_t k) {
    return std::llround(o.fixedNMin * std::pow(10.0, double(k) / o.fixedPerDecade));
  };

  std::string peerVersions = std::string("SUNDIALS CVODE ") + SUNDIALS_VERSION;
#ifdef EQC_BENCH_HAVE_ODEINT
  peerVersions += std::string(", Boost.Odeint (Boost ") + BOOST_LIB_VERSION + ")";
#endif
#ifdef EQC_BENCH_HAVE_GSL
  peerVersions += std::string(", GSL ") + GSL_VERSION;
#endif
  std::printf("# eqc vs %s: work-precision\n\n", peerVersions.c_str());
  std::printf("%zu tolerances per problem (rtol %.0e ... %.0e), %d timed round%s each, batches of "
              "about %.0f ms.\n\n",
              rtols.size(), rtols.front(), rtols.back(), o.reps, o.reps == 1 ? "" : "s", o.batchMs);
  if (!o.noFixed) {
    if (o.smoke)
      std::printf("Fixed-step methods: one step count N each (--smoke).\n\n");
    else
      std::printf("Fixed-step methods: N = %g * 10^(k/%d) steps (dt = span / N) up to %g, each "
                  "sweep ending after the first run longer than %g ms or with an error below "
                  "%.0e; runs without a correct digit are not timed.\n\n",
                  o.fixedNMin, o.fixedPerDecade, o.fixedNMax, o.fixedMaxMs, kFixedErrStop);
  }

  // One untimed run: statistics, error, and the number of runs per timed batch.
  auto measureOnce = [&](const Problem &pr, Point &pt) {
    const auto t0 = Clock::now();
    pt.run = runSolver(ctx, pr, *pt.solver, pt.rtol, pt.atol, pt.dt);
    pt.tOnce = secondsSince(t0);
    if (pt.run.ok) {
      pt.errMixed = mixedError(pr, pt.run.y);
      pt.errRel = relativeError(pr, pt.run.y);
      pt.timing.runsPerBatch = runsPerBatch(o.batchMs, pt.tOnce);
    }
  };

  std::vector<Point> points;
  std::vector<std::vector<Sweep>> sweeps(problems.size());
  for (size_t pi = 0; pi < problems.size(); ++pi) {
    const Problem &pr = problems[pi];
    const auto list = solversOf(pr);
    std::vector<Sweep> &sw = sweeps[pi];
    for (const Solver *s : fixedOf(pr)) {
      Sweep sweep;
      sweep.solver = s;
      sw.push_back(sweep);
    }
    std::fprintf(stderr, "%s (n = %d, t_end = %g):", pr.name.c_str(), pr.p.n, pr.p.t_end);
    for (size_t slot = 0;; ++slot) {
      const bool haveRtol = slot < rtols.size();
      bool sweeping = false;
      for (const Sweep &s : sw)
        sweeping = sweeping || !s.stopped;
      if (!haveRtol && !sweeping)
        break;
      std::vector<Point> here;
      std::vector<Sweep *> sweepOf; // per point of here: its fixed-step sweep, or null
      if (haveRtol) {
        const double rtol = rtols[slot], atol = pr.p.atol_ratio * rtol;
        for (const Solver *s : list) {
          if (o.smoke && smokeOnlyTightest(*s) && slot + 1 != rtols.size())
            continue;
          Point pt;
          pt.problem = pr.name;
          pt.solver = s;
          pt.rtol = rtol;
          pt.atol = atol;
          measureOnce(pr, pt);
          pt.timing.rounds = pt.run.ok ? o.reps : 0;
          here.push_back(std::move(pt));
          sweepOf.push_back(nullptr);
        }
      }
      // The slot-th step count of every fixed-step sweep that has not ended.
      for (Sweep &s : sw) {
        if (s.stopped)
          continue;
        long N;
        if (o.smoke) {
          N = slot == 0 ? smokeSteps(pr.name, s.solver->method) : 0;
          if (N == 0) {
            s.stopped = true;
            s.why = slot == 0 ? "not run by --smoke" : "--smoke: one step count";
            continue;
          }
        } else {
          N = stepCountOf(slot);
          if (N <= s.lastN)
            continue; // the same rounded count again
          if (double(N) > o.fixedNMax) {
            s.stopped = true;
            s.why = "N would exceed --fixed-n-max";
            continue;
          }
        }
        s.lastN = N;
        Point pt;
        pt.problem = pr.name;
        pt.solver = s.solver;
        pt.nSteps = N;
        pt.dt = pr.p.t_end / double(N);
        measureOnce(pr, pt);
        pt.timing.rounds = pt.run.ok && (pt.errMixed < kWrong || o.smoke) ? o.reps : 0;
        here.push_back(std::move(pt));
        sweepOf.push_back(&s);
      }
      std::vector<Timing *> timings;
      for (Point &pt : here)
        timings.push_back(&pt.timing);
      timeRotatedRounds(timings, o.reps, [&](size_t i) {
        const Point &pt = here[i];
        (void)runSolver(ctx, pr, *pt.solver, pt.rtol, pt.atol, pt.dt);
      });
      for (size_t q = 0; q < here.size(); ++q) {
        Point &pt = here[q];
        // A fixed-step sweep ends after its first run longer than the cap (the median when
        // timed, else the untimed run) or with an error past the summaries' range.
        if (Sweep *s = sweepOf[q]; s && !o.smoke) {
          const double t = pt.timing.times.empty() ? pt.tOnce : pt.timing.median;
          if (t * 1e3 > o.fixedMaxMs) {
            s->stopped = true;
            s->why = "run time " + fmtMs(t) + " ms > " + fmtMs(o.fixedMaxMs * 1e-3) + " ms";
          } else if (pt.run.ok && pt.errMixed < kFixedErrStop) {
            s->stopped = true;
            s->why = "error below 1e-12";
          }
        }
        points.push_back(std::move(pt));
      }
      if (haveRtol)
        std::fprintf(stderr, " %.0e", rtols[slot]);
      else
        std::fprintf(stderr, " +");
    }
    std::fprintf(stderr, "\n");
  }

  auto methodLabel = [](const Solver *s) -> std::string {
    switch (s->kind) {
    case Kind::Eqc:
      return methodName(s->method);
    case Kind::CvodeBdf:
      return "BDF";
    case Kind::CvodeAdams:
      return "Adams";
    case Kind::OdeintDopri5:
      return "dopri5";
    case Kind::GslRk8pd:
      return "rk8pd";
    }
    return "?";
  };
  auto isFixedPoint = [](const Point &p) {
    return p.solver->kind == Kind::Eqc && isFixedStep(p.solver->method);
  };

  // CSV.
  if (!o.csv.empty()) {
    std::ofstream csv(o.csv);
    csv << "problem,solver,method,t_end,rtol,atol,dt,status," << kCsvStatsColumns
        << ",err_mixed,err_rel," << kCsvTimingColumns << ",method_used,switch_time,message\n";
    char buf[640];
    for (const Point &p : points) {
      const double tEnd = [&] {
        for (const Problem &pr : problems)
          if (pr.name == p.problem)
            return pr.p.t_end;
        return double(NAN);
      }();
      std::snprintf(buf, sizeof buf, "%s,%s,%s,%.17g,%.3e,%.3e,%.17g,%s,", p.problem.c_str(),
                    p.solver->name.c_str(), methodLabel(p.solver).c_str(), tEnd, p.rtol, p.atol,
                    p.dt, p.run.ok ? "ok" : "failed");
      csv << buf << csvStats(p.run) << "," << csvErr(p.errMixed) << "," << csvErr(p.errRel) << ","
          << csvTiming(p.timing) << ",";
      std::snprintf(buf, sizeof buf, "%s,%.6g,", p.run.methodUsed.c_str(), p.run.switchTime);
      csv << buf << csvEscape(p.run.message) << "\n";
    }
    if (!csv) {
      std::fprintf(stderr, "eqc_bench_workprecision: cannot write %s\n", o.csv.c_str());
      return 1;
    }
  }

  // Per-problem detail: the curves.
  for (size_t pi = 0; pi < problems.size(); ++pi) {
    const Problem &pr = problems[pi];
    std::printf("## %s (n = %d, t_end = %g, atol = %g rtol; reference: %s)\n\n", pr.name.c_str(),
                pr.p.n, pr.p.t_end, pr.p.atol_ratio, pr.refSource.c_str());
    std::printf("| solver | rtol | error | steps | rejected | rhs | jac | LU | time ms | us/step |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Solver *s : solversOf(pr))
      for (const Point &p : points) {
        if (p.problem != pr.name || p.solver != s)
          continue;
        if (!p.run.ok) {
          std::printf("| %s | %.0e | **failed**: %s | | | | | | | |\n", s->name.c_str(), p.rtol,
                      p.run.message.c_str());
          continue;
        }
        std::string extra;
        if (s->kind == Kind::Eqc && s->method == EQC_METHOD_AUTO) {
          char b[64];
          if (std::isfinite(p.run.switchTime))
            std::snprintf(b, sizeof b, " (radau5 from t = %.3g)", p.run.switchTime);
          else
            std::snprintf(b, sizeof b, " (no switch)");
          extra = b;
        }
        std::printf("| %s%s | %.0e | %.2e%s | %ld | %ld | %ld | %ld | %ld | %.3f | %.2f |\n",
                    s->name.c_str(), extra.c_str(), p.rtol, p.errMixed,
                    p.errMixed >= kWrong ? " **wrong**" : "", p.run.steps, p.run.rejected,
                    p.run.rhsEvals, p.run.jacEvals, p.run.lus, p.timing.median * 1e3,
                    p.timing.median * 1e6 / double(std::max(1L, p.run.steps + p.run.rejected)));
      }
    std::printf("\n");
    if (sweeps[pi].empty())
      continue;
    std::printf("Fixed-step methods (dt = %g / N):\n\n", pr.p.t_end);
    std::printf("| method | N | dt | error | steps | rhs | jac | LU | Newton | time ms | us/step |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Sweep &s : sweeps[pi])
      for (const Point &p : points) {
        if (p.problem != pr.name || p.solver != s.solver)
          continue;
        std::printf("| %s | %ld | %.3g | ", methodName(s.solver->method), p.nSteps, p.dt);
        if (!p.run.ok)
          std::printf("**failed**: %s (%ld steps)", p.run.message.c_str(), p.run.steps);
        else
          std::printf("%.2e%s", p.errMixed, p.errMixed >= kWrong ? " (no digit)" : "");
        std::printf(" | %ld | %ld | %ld | %ld | %ld | ", p.run.steps, p.run.rhsEvals, p.run.jacEvals,
                    p.run.lus, p.run.nonlinIters);
        if (p.timing.times.empty())
          std::printf("- | - |\n");
        else
          std::printf("%.3f | %.3f |\n", p.timing.median * 1e3,
                      p.timing.median * 1e6 / double(std::max(1L, p.run.steps)));
      }
    std::printf("\n");
  }

  // The stored references against eqc's tightest runs (radau5 on the stiff problems, dop853 on
  // the others) and each fitting peer's at rtol 1e-12 (also on the short ROBER span, which is not
  // compared with the peers): a check of the digits, not part of the comparison.
  if (!o.smoke) {
    std::vector<const Solver *> columns; // every peer that fits some problem, in solver order
    for (const Solver &s : solvers)
      if (std::any_of(problems.begin(), problems.end(), [&](const Problem &pr) {
            const auto fit = peersOf(pr);
            return std::find(fit.begin(), fit.end(), &s) != fit.end();
          }))
        columns.push_back(&s);
    std::printf("## Reference check\n\n");
    std::printf("Mixed error of the stored reference against tight runs of eqc and of each peer "
                "(-: the peer does not fit the problem).\n\n");
    std::printf("| problem | reference | eqc radau5 / dop853 rtol 1e-13 |");
    for (const Solver *s : columns)
      std::printf(" %s rtol 1e-12 |", s->name.c_str());
    std::printf("\n|---|---|---:|");
    for (size_t i = 0; i < columns.size(); ++i)
      std::printf("---:|");
    std::printf("\n");
    for (const Problem &pr : problems) {
      const double tight = 1e-13;
      std::string eqcCol = "(the reference)";
      if (pr.peers) {
        RunResult e = runEqc(pr, pr.p.stiff ? EQC_METHOD_RADAU5 : EQC_METHOD_DOP853, tight,
                             pr.p.atol_ratio * tight);
        eqcCol = e.ok ? fmtErr(mixedError(pr, e.y)) : "failed";
      }
      std::printf("| %s | %s | %s |", pr.name.c_str(), pr.refSource.c_str(), eqcCol.c_str());
      const auto fit = peersOf(pr);
      for (const Solver *s : columns) {
        if (std::find(fit.begin(), fit.end(), s) == fit.end()) {
          std::printf(" - |");
          continue;
        }
        RunResult c = runSolver(ctx, pr, *s, 1e-12, pr.p.atol_ratio * 1e-12, 0);
        std::printf(" %s |", c.ok ? fmtErr(mixedError(pr, c.y)).c_str() : "failed");
      }
      std::printf("\n");
    }
    std::printf("\n");
  }

  // Summary at matched error: one row per problem, peer and eqc method, with cell(eqc, peer) at
  // each target error; "-" where the error is outside one of the two curves or cell is empty.
  const std::vector<int> decades = {3, 4, 5, 6, 7, 8, 9, 10, 11};
  auto pairTable = [&](bool stiffOnly,
                       const std::function<std::string(const CurvePoint &, const CurvePoint &)> &cell) {
    printDecadeHeader({"problem", "eqc method", "vs"}, {}, decades);
    for (const Problem &pr : problems) {
      if (!pr.peers || (stiffOnly && !pr.p.stiff))
        continue;
      const auto list = solversOf(pr);
      for (const Solver *peer : list) {
        if (!peer->isPeer())
          continue;
        const auto pc = curveOf(points, pr.name, peer);
        for (const Solver *s : list) {
          if (s->isPeer())
            continue;
          const auto ec = curveOf(points, pr.name, s);
          std::printf("| %s | %s | %s |", pr.name.c_str(), methodName(s->method),
                      peer->name.c_str());
          printDecadeCells(ec, pc, decades, cell);
        }
      }
    }
    std::printf("\n");
  };
  if (std::any_of(problems.begin(), problems.end(), [](const Problem &pr) { return pr.peers; })) {
    std::printf("## Summary: eqc / peers at matched error\n\n");
    std::printf("Time ratio (median run time of eqc / of the peer, both interpolated in log-log to "
                "the same mixed error); in parentheses the ratio of rhs evaluations. < 1: eqc is "
                "faster. -: the error is outside one of the two curves.\n\n");
    pairTable(false, timeCell);
  }
  // Jacobians and LU factorizations on the stiff problems.
  if (std::any_of(problems.begin(), problems.end(),
                  [](const Problem &pr) { return pr.peers && pr.p.stiff; })) {
    std::printf("Stiff problems: ratios eqc/CVODE of accepted steps / of Jacobian evaluations / of "
                "LU factorizations at matched error (eqc counts radau5's real and complex "
                "factorization as one each; CVODE's are real LUs of I - gamma J). -: outside a "
                "curve, or no Jacobian (auto without a switch).\n\n");
    pairTable(true, workCell);
  }

  // Fixed-step methods against the best variable-step eqc method, one table per problem.
  bool anyFixed = false;
  for (const auto &sw : sweeps)
    anyFixed = anyFixed || !sw.empty();
  if (anyFixed) {
    std::printf("## Summary: fixed-step methods / eqc's best variable-step method at matched "
                "error\n\n");
    std::printf("Per problem, the first row names the variable-step eqc method (of those above) "
                "with the smallest time at that error; each further row gives a fixed-step "
                "method's time ratio to it (median run times interpolated in log-log to the same "
                "mixed error), in parentheses the ratio of rhs evaluations. > 1: the fixed-step "
                "method is slower. -: the error is outside one of the two curves. Only the "
                "errors that some fixed-step method reaches are shown; the last columns give the "
                "smallest error of each sweep, its N, and why the sweep ended.\n\n");
  }
  for (size_t pi = 0; pi < problems.size(); ++pi) {
    const Problem &pr = problems[pi];
    if (sweeps[pi].empty())
      continue;
    std::vector<const Solver *> variable;
    for (const Solver *s : solversOf(pr))
      if (!s->isPeer())
        variable.push_back(s);
    // Best variable-step method per target error.
    std::vector<const Solver *> best(decades.size(), nullptr);
    std::vector<CurvePoint> bestAt(decades.size());
    for (const Solver *s : variable) {
      const auto c = curveOf(points, pr.name, s);
      for (size_t i = 0; i < decades.size(); ++i)
        if (auto a = interpolate(c, -decades[i]); a && (!best[i] || a->logTime < bestAt[i].logTime))
          best[i] = s, bestAt[i] = *a;
    }
    struct Row {
      const Sweep *sweep;
      std::vector<std::string> cells;
      const Point *smallest = nullptr;
    };
    std::vector<Row> rows;
    std::vector<bool> shown(decades.size(), false);
    for (const Sweep &s : sweeps[pi]) {
      Row r{&s, std::vector<std::string>(decades.size(), "-")};
      const auto fc = curveOf(points, pr.name, s.solver);
      for (size_t i = 0; i < decades.size(); ++i) {
        const auto a = interpolate(fc, -decades[i]);
        if (!a)
          continue;
        shown[i] = true;
        if (best[i])
          r.cells[i] = timeCell(*a, bestAt[i]);
      }
      for (const Point &p : points)
        if (p.problem == pr.name && p.solver == s.solver && p.run.ok &&
            (!r.smallest || p.errMixed < r.smallest->errMixed))
          r.smallest = &p;
      rows.push_back(std::move(r));
    }
    std::printf("### %s (t_end = %g)\n\n| method |", pr.name.c_str(), pr.p.t_end);
    for (size_t i = 0; i < decades.size(); ++i)
      if (shown[i])
        std::printf(" err 1e-%d |", decades[i]);
    std::printf(" smallest error | at N | sweep ended |\n|---|");
    for (size_t i = 0; i < decades.size(); ++i)
      if (shown[i])
        std::printf("---:|");
    std::printf("---:|---:|---|\n");
    if (std::find(shown.begin(), shown.end(), true) != shown.end()) {
      std::printf("| best variable-step |");
      for (size_t i = 0; i < decades.size(); ++i)
        if (shown[i])
          std::printf(" %s |", best[i] ? methodName(best[i]->method) : "-");
      std::printf(" | | |\n");
    }
    for (const Row &r : rows) {
      std::printf("| %s |", methodName(r.sweep->solver->method));
      for (size_t i = 0; i < decades.size(); ++i)
        if (shown[i])
          std::printf(" %s |", r.cells[i].c_str());
      if (r.smallest)
        std::printf(" %s | %ld |", fmtErr(r.smallest->errMixed).c_str(), r.smallest->nSteps);
      else
        std::printf(" no successful run | |");
      std::printf(" %s |\n", r.sweep->why.empty() ? "-" : r.sweep->why.c_str());
    }
    std::printf("\n");
    // Failures and runs without a digit, per method.
    for (const Sweep &s : sweeps[pi]) {
      long nFailed = 0, nWrong = 0, failLo = 0, failHi = 0, wrongLo = 0, wrongHi = 0;
      const Point *lastFailed = nullptr;
      for (const Point &p : points) {
        if (p.problem != pr.name || p.solver != s.solver)
          continue;
        if (!p.run.ok) {
          failLo = nFailed++ ? failLo : p.nSteps, failHi = p.nSteps, lastFailed = &p;
        } else if (p.errMixed >= kWrong)
          wrongLo = nWrong++ ? wrongLo : p.nSteps, wrongHi = p.nSteps;
      }
      if (nFailed)
        std::printf("- %s, %s: %ld run%s failed, N = %ld ... %ld; at N = %ld: %s (after %ld "
                    "steps)\n",
                    pr.name.c_str(), methodName(s.solver->method), nFailed, nFailed > 1 ? "s" : "",
                    failLo, failHi, lastFailed->nSteps, lastFailed->run.message.c_str(),
                    lastFailed->run.steps);
      if (nWrong)
        std::printf("- %s, %s: %ld run%s without a correct digit (err >= 1), N = %ld ... %ld (not "
                    "timed)\n",
                    pr.name.c_str(), methodName(s.solver->method), nWrong, nWrong > 1 ? "s" : "",
                    wrongLo, wrongHi);
    }
    std::printf("\n");
  }

  // Failures and wrong answers of the variable-step solvers.
  bool anyFailed = false;
  for (const Point &p : points)
    if (!isFixedPoint(p) && (!p.run.ok || p.errMixed >= kWrong)) {
      if (!anyFailed)
        std::printf("Failed runs and answers without a correct digit (left out of the summary):\n\n");
      anyFailed = true;
      if (!p.run.ok)
        std::printf("- %s, %s, rtol %.0e: failed: %s\n", p.problem.c_str(), p.solver->name.c_str(),
                    p.rtol, p.run.message.c_str());
      else
        std::printf("- %s, %s, rtol %.0e: reported success, but no correct digit at t_end (error "
                    "%.1e)\n",
                    p.problem.c_str(), p.solver->name.c_str(), p.rtol, p.errMixed);
    }
  if (anyFailed)
    std::printf("\n");

  if (o.smoke) {
    // Plumbing only: every run succeeded, got a few digits (Arenstorf at rtol 1e-4 has errors
    // of 0.1 to 0.7; the fixed-step step counts are chosen for an error below 1) and was timed.
    for (const Point &p : points) {
      const std::string what = isFixedPoint(p) ? "N = " + std::to_string(p.nSteps)
                                               : "rtol " + fmtErr(p.rtol);
      if (!p.run.ok) {
        std::fprintf(stderr, "%s, %s, %s: failed: %s\n", p.problem.c_str(),
                     p.solver->name.c_str(), what.c_str(), p.run.message.c_str());
        ++failures;
        continue;
      }
      if (!(p.errMixed < 1.0)) {
        std::fprintf(stderr, "%s, %s, %s: error %.2e is implausible\n", p.problem.c_str(),
                     p.solver->name.c_str(), what.c_str(), p.errMixed);
        ++failures;
      }
      if (p.timing.times.empty()) {
        std::fprintf(stderr, "%s, %s, %s: no timing\n", p.problem.c_str(), p.solver->name.c_str(),
                     what.c_str());
        ++failures;
      }
    }
  }
  SUNContext_Free(&ctx);
  return failures ? 1 : 0;
}
