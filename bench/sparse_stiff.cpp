// `eqc_bench_sparse_stiff`: a large sparse stiff problem, BRUSS-2D on N x N grids (bench/bruss2d.c,
// n = 2 N^2 unknowns), solved by eqc's radau5 with its sparse linear solver (Eigen's SparseLU
// inside eqcrt) and by SUNDIALS CVODE BDF with the KLU sparse direct solver, both with the same
// hand-written right-hand side and analytic sparse Jacobian.
//
// Per grid: a reference by eqc's radau5 at a tight rtol (checked against CVODE at the same rtol),
// then per rtol of the sweep one untimed run of each solver (statistics, error, runs per timed
// batch) and R rounds timing one batch of each, in alternating order, as eqc_bench_workprecision
// does (one round for runs of seconds). The summary compares times at matched achieved error
// (log-log interpolation along each work-precision curve), never at matched rtol; see
// bench/README.md.
#include "bench/WorkPrecision.h"
#include "bench/bruss2d.h"
#include "eqc/eqc_runtime.h"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

static_assert(sizeof(realtype) == sizeof(double), "SUNDIALS must be built in double precision");

namespace {

using namespace eqc::bench;

const char *kUsage = R"(usage: eqc_bench_sparse_stiff [options]

BRUSS-2D (2-D Brusselator with diffusion, periodic, n = 2 N^2) by eqc's radau5 with the sparse
linear solver against SUNDIALS CVODE BDF with KLU, both with the analytic sparse Jacobian. Prints
Markdown: every run, and the time ratio eqc/CVODE at matched error per grid and peer.

options:
  --csv FILE        write every (grid, solver, rtol) as one CSV row
  --grids LIST      grid sizes N, comma-separated (default 16,32,64; add 128 for n = 32768,
                    which takes about half an hour more)
  --n-max N         leave out the grids larger than N
  --rtols LIST      the tolerance sweep, atol = rtol (default 1e-4,1e-6,1e-8)
  --ref-rtol X      rtol of the reference runs (default 1e-10)
  --reps R          timed rounds per tolerance (default 3)
  --long-run-s S    runs longer than this (the untimed run) get one timed round (default 2)
  --batch-ms MS     target duration of one timed batch of runs (default 20)
  --alpha A         diffusion coefficient (default 0.1, Hairer & Wanner's)
  --t-end T         end of the time span [0, T] (default 1.5)
  --klu-orderings L CVODE peers by KLU's fill-reducing ordering: amd (KLU's default), colamd
                    (SUNDIALS' default); the first also checks the reference (default amd,colamd)
  --smoke           the ctest: N = 8, rtol 1e-6, one round of one run; checks the Jacobian
                    and that every solver succeeds with an error below 1
  -h, --help        this help
)";

struct Options {
  std::string csv;
  // N = 128 is left out by default: its sparse LUs take seconds each, its sweep half an hour.
  std::vector<int> grids = {16, 32, 64};
  int nMax = 0; // 0: no limit
  std::vector<double> rtols = {1e-4, 1e-6, 1e-8};
  double refRtol = 1e-10;
  int reps = 3;
  double longRunS = 2.0;
  double batchMs = 20.0;
  double alpha = 0.1, tEnd = 1.5;
  std::vector<std::string> kluOrderings = {"amd", "colamd"};
  bool smoke = false;
};

template <typename T> std::vector<T> parseList(const std::string &s, T (*parse)(const char *)) {
  std::vector<T> out;
  for (const std::string &item : splitList(s))
    out.push_back(parse(item.c_str()));
  return out;
}

int toInt(const char *s) { return std::atoi(s); }
std::string toString(const char *s) { return s; }
double toDouble(const char *s) { return std::atof(s); }

bool parseArgs(int argc, char **argv, Options &o) {
  ArgReader args(argc, argv, "eqc_bench_sparse_stiff", kUsage);
  while (const char *option = args.next()) {
    const std::string a = option;
    if (a == "--csv")
      o.csv = args.value();
    else if (a == "--grids")
      o.grids = parseList(args.value(), toInt);
    else if (a == "--n-max")
      o.nMax = std::atoi(args.value());
    else if (a == "--rtols")
      o.rtols = parseList(args.value(), toDouble);
    else if (a == "--ref-rtol")
      o.refRtol = std::atof(args.value());
    else if (a == "--reps")
      o.reps = std::atoi(args.value());
    else if (a == "--long-run-s")
      o.longRunS = std::atof(args.value());
    else if (a == "--batch-ms")
      o.batchMs = std::atof(args.value());
    else if (a == "--alpha")
      o.alpha = std::atof(args.value());
    else if (a == "--t-end")
      o.tEnd = std::atof(args.value());
    else if (a == "--klu-orderings")
      o.kluOrderings = parseList(args.value(), toString);
    else if (a == "--smoke")
      o.smoke = true;
    else
      return args.unknown();
  }
  bool valid = !o.grids.empty() && !o.rtols.empty() && o.refRtol > 0 && o.reps >= 1 &&
               o.longRunS >= 0 && o.batchMs >= 0 && o.alpha > 0 && o.tEnd > 0 && o.nMax >= 0;
  for (int N : o.grids)
    valid = valid && N >= 3;
  for (double r : o.rtols)
    valid = valid && r > 0;
  valid = valid && !o.kluOrderings.empty();
  for (const std::string &k : o.kluOrderings)
    valid = valid && (k == "amd" || k == "colamd");
  if (!valid) {
    std::fprintf(stderr, "eqc_bench_sparse_stiff: invalid option value\n");
    return false;
  }
  return true;
}

/// One grid: the problem, its pattern as CVODE's index type, the initial and reference states.
struct Grid {
  bruss2d p{};
  std::vector<sunindextype> colStart, rowIndex;
  std::vector<double> y0, ref;
  double cvodeRefErr = NAN; // CVODE at the reference rtol against the reference
  double refSeconds = 0;    // both reference runs
};

// ---- solvers ----

/// eqc's radau5, or CVODE with KLU and one fill-reducing ordering: AMD on A + A^T is KLU's own
/// default, COLAMD (on A^T A) SUNDIALS'; this Jacobian is structurally symmetric, which suits AMD.
struct Solver {
  bool eqc;
  int kluOrdering; // SUNLinSol_KLUSetOrdering: 0 AMD, 1 COLAMD
  std::string name;
};

RunResult runEqc(Grid &g, double tEnd, double rtol) {
  bruss2d &p = g.p;
  const eqc_sparsity pattern{p.nnz, p.col_start, p.row_index};
  eqc_jacobian jac{};
  jac.sparse = bruss2d_jac;
  jac.user = &p;
  jac.pattern = &pattern;
  jac.solver = EQC_LINEAR_SPARSE;
  eqc_options opt;
  eqc_options_default(&opt);
  opt.method = EQC_METHOD_RADAU5;
  opt.t_start = 0.0;
  opt.t_end = tEnd;
  opt.rtol = rtol;
  opt.atol = rtol;
  opt.max_steps = 50000000;
  RunResult r;
  r.y = g.y0;
  eqc_stats st;
  const int rc = eqc_integrate_jac(p.n, bruss2d_rhs, &p, &jac, r.y.data(), &opt, nullptr, nullptr,
                                   nullptr, nullptr, &st);
  takeEqcStats(rc, st, r);
  if (r.ok && st.linear_solver != EQC_LINEAR_SPARSE) {
    r.ok = false;
    r.message = "ran without the sparse linear solver";
  }
  return r;
}

// CVODE calls the same C functions through these adapters. CVODE zeroes its sparse matrix
// (pattern included) before each Jacobian call, so the pattern is copied in every time.
int cvRhs(realtype t, N_Vector y, N_Vector ydot, void *user) {
  auto *g = static_cast<Grid *>(user);
  return bruss2d_rhs(&g->p, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot)) == 0 ? 0 : -1;
}

int cvJac(realtype t, N_Vector y, N_Vector, SUNMatrix J, void *user, N_Vector, N_Vector,
          N_Vector) {
  auto *g = static_cast<Grid *>(user);
  std::copy(g->colStart.begin(), g->colStart.end(), SUNSparseMatrix_IndexPointers(J));
  std::copy(g->rowIndex.begin(), g->rowIndex.end(), SUNSparseMatrix_IndexValues(J));
  return bruss2d_jac(&g->p, t, N_VGetArrayPointer(y), SUNSparseMatrix_Data(J)) == 0 ? 0 : -1;
}

/// CVODE BDF, Newton with KLU (the given ordering; SUNDIALS refactors with the kept pivots while
/// the matrix's condition allows), the analytic Jacobian, to exactly t_end.
RunResult runCvode(SUNContext ctx, Grid &g, double tEnd, double rtol, int kluOrdering) {
  const int n = g.p.n;
  RunResult r;
  N_Vector y = N_VNew_Serial(n, ctx);
  std::copy(g.y0.begin(), g.y0.end(), N_VGetArrayPointer(y));
  void *mem = CVodeCreate(CV_BDF, ctx);
  SUNMatrix A = SUNSparseMatrix(n, n, g.p.nnz, CSC_MAT, ctx);
  SUNLinearSolver LS = SUNLinSol_KLU(y, A, ctx);
  int flag = SUNLinSol_KLUSetOrdering(LS, kluOrdering) == SUNLS_SUCCESS ? CV_SUCCESS : CV_ILL_INPUT;
  if (flag == CV_SUCCESS)
    flag = CVodeInit(mem, cvRhs, 0.0, y);
  if (flag == CV_SUCCESS)
    flag = configureCvode(mem, &g, rtol, rtol, tEnd);
  if (flag == CV_SUCCESS)
    flag = CVodeSetLinearSolver(mem, LS, A);
  if (flag == CV_SUCCESS)
    flag = CVodeSetJacFn(mem, cvJac);
  realtype t = 0.0;
  if (flag == CV_SUCCESS)
    flag = CVode(mem, tEnd, y, &t, CV_NORMAL);
  takeCvodeStats(mem, flag, t, tEnd, true, r); // lus: KLU (re)factorizations of I - gamma J
  r.y.assign(N_VGetArrayPointer(y), N_VGetArrayPointer(y) + n);
  CVodeFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  return r;
}

RunResult runSolver(SUNContext ctx, Grid &g, const Solver &s, double tEnd, double rtol) {
  return s.eqc ? runEqc(g, tEnd, rtol) : runCvode(ctx, g, tEnd, rtol, s.kluOrdering);
}

/// The Test Set's mixed error with atol = rtol: max_i |y_i - ref_i| / (1 + |ref_i|).
double mixedError(const std::vector<double> &ref, const std::vector<double> &y) {
  double e = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    e = std::max(e, std::fabs(y[i] - ref[i]) / (1.0 + std::fabs(ref[i])));
  return std::isfinite(e) ? e : INFINITY;
}

/// The analytic Jacobian against central differences at the initial state and at a perturbed
/// one, densely (n columns of 2 rhs calls each, so only on small grids); entries outside the
/// pattern must vanish. Returns the largest difference relative to max(|J_ij|, 1).
double checkJacobian(bruss2d &p, const std::vector<double> &y0) {
  const int n = p.n;
  double worst = 0;
  std::vector<double> values(p.nnz), dense(size_t(n) * n), fp(n), fm(n);
  for (int trial = 0; trial < 2; ++trial) {
    std::vector<double> y = y0;
    if (trial == 1)
      for (int i = 0; i < n; ++i)
        y[i] += 0.1 * std::sin(1.0 + i);
    bruss2d_jac(&p, 0.0, y.data(), values.data());
    std::fill(dense.begin(), dense.end(), 0.0); // column-major
    for (int j = 0; j < n; ++j)
      for (int k = p.col_start[j]; k < p.col_start[j + 1]; ++k)
        dense[size_t(j) * n + p.row_index[k]] = values[k];
    for (int j = 0; j < n; ++j) {
      const double h = 1e-6 * std::max(1.0, std::fabs(y[j]));
      std::vector<double> yp = y, ym = y;
      yp[j] += h, ym[j] -= h;
      bruss2d_rhs(&p, 0.0, yp.data(), fp.data());
      bruss2d_rhs(&p, 0.0, ym.data(), fm.data());
      for (int i = 0; i < n; ++i) {
        const double fd = (fp[i] - fm[i]) / (2 * h), a = dense[size_t(j) * n + i];
        worst = std::max(worst, std::fabs(fd - a) / std::max(std::fabs(a), 1.0));
      }
    }
  }
  return worst;
}

/// Dense Jacobian checks cost n^2 rhs entries; above this they are skipped.
constexpr int kJacobianCheckMaxUnknowns = 2048;

struct Point {
  int N = 0;
  const Solver *solver = nullptr;
  double rtol = NAN;
  RunResult run;
  double errMixed = NAN;
  Timing timing; // rounds: --reps, or 1 for a long run
};

/// The matched-error curve of one solver on one grid.
std::vector<CurvePoint> curveOf(const std::vector<Point> &points, int N, const Solver *s) {
  return eqc::bench::curveOf(points, [&](const Point &p) { return p.N == N && p.solver == s; });
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parseArgs(argc, argv, o))
    return 2;
  if (o.smoke) {
    o.grids = {8};
    o.rtols = {1e-6};
    o.reps = 1;
    o.batchMs = 0;
  }
  if (o.nMax > 0)
    o.grids.erase(std::remove_if(o.grids.begin(), o.grids.end(), [&](int N) { return N > o.nMax; }),
                  o.grids.end());
  if (o.grids.empty()) {
    std::fprintf(stderr, "eqc_bench_sparse_stiff: no grid left (--n-max)\n");
    return 2;
  }

  SUNContext ctx = nullptr;
  if (SUNContext_Create(nullptr, &ctx) != 0) {
    std::fprintf(stderr, "eqc_bench_sparse_stiff: SUNContext_Create failed\n");
    return 1;
  }

  // eqc, then the peers; pointers into the list are kept.
  std::vector<Solver> solvers = {{true, 0, "eqc radau5 (sparse LU)"}};
  for (const std::string &k : o.kluOrderings) {
    const bool amd = k == "amd";
    solvers.push_back({false, amd ? 0 : 1, amd ? "CVODE BDF (KLU, AMD)" : "CVODE BDF (KLU, COLAMD)"});
  }
  const Solver *eqc = &solvers[0], *refPeer = &solvers[1];

  std::printf("# eqc radau5 (sparse LU) vs SUNDIALS CVODE %s BDF (KLU): BRUSS-2D\n\n",
              SUNDIALS_VERSION);
  std::printf("alpha = %g, t in [0, %g], periodic N x N grid, n = 2 N^2; atol = rtol; error = "
              "max_i |y_i - ref_i| / (1 + |ref_i|) at t_end; reference: eqc radau5 at rtol %.0e. "
              "%d timed round%s per tolerance (one for runs over %g s), batches of about %.0f "
              "ms.\n\n",
              o.alpha, o.tEnd, o.refRtol, o.reps, o.reps == 1 ? "" : "s", o.longRunS, o.batchMs);

  std::vector<Grid> grids(o.grids.size());
  std::vector<Point> points;
  for (size_t gi = 0; gi < o.grids.size(); ++gi) {
    Grid &g = grids[gi];
    const int N = o.grids[gi];
    if (bruss2d_init(&g.p, N, o.alpha) != 0) {
      std::fprintf(stderr, "eqc_bench_sparse_stiff: cannot set up the %d x %d grid\n", N, N);
      return 1;
    }
    g.colStart.assign(g.p.col_start, g.p.col_start + g.p.n + 1);
    g.rowIndex.assign(g.p.row_index, g.p.row_index + g.p.nnz);
    g.y0.resize(g.p.n);
    bruss2d_initial(&g.p, g.y0.data());
    std::fprintf(stderr, "N = %d (n = %d):", N, g.p.n);
    if (g.p.n <= kJacobianCheckMaxUnknowns) {
      const double jacErr = checkJacobian(g.p, g.y0);
      if (jacErr > 1e-6) {
        std::fprintf(stderr, "\nN = %d: analytic Jacobian differs from central differences by %.2e\n",
                     N, jacErr);
        return 1;
      }
    }

    // The reference, and the first CVODE peer at the same rtol as a check of its digits.
    const auto tRef = Clock::now();
    RunResult ref = runEqc(g, o.tEnd, o.refRtol);
    if (!ref.ok) {
      std::fprintf(stderr, "\nN = %d: reference run failed: %s\n", N, ref.message.c_str());
      return 1;
    }
    g.ref = ref.y;
    RunResult check = runSolver(ctx, g, *refPeer, o.tEnd, o.refRtol);
    g.cvodeRefErr = check.ok ? mixedError(g.ref, check.y) : NAN;
    g.refSeconds = secondsSince(tRef);
    std::fprintf(stderr, " ref");

    for (double rtol : o.rtols) {
      std::vector<Point> here;
      for (const Solver &s : solvers) {
        Point pt;
        pt.N = N;
        pt.solver = &s;
        pt.rtol = rtol;
        const auto t0 = Clock::now();
        pt.run = runSolver(ctx, g, s, o.tEnd, rtol);
        const double once = secondsSince(t0);
        if (pt.run.ok) {
          pt.errMixed = mixedError(g.ref, pt.run.y);
          pt.timing.runsPerBatch = runsPerBatch(o.batchMs, once);
          // Runs of seconds are hardly disturbed by the machine's drift between rounds, and
          // R rounds of them would take most of the budget (the largest grids).
          pt.timing.rounds = once > o.longRunS ? 1 : o.reps;
        }
        here.push_back(std::move(pt));
      }
      std::vector<Timing *> timings;
      for (Point &pt : here)
        timings.push_back(&pt.timing);
      timeRotatedRounds(timings, o.reps,
                        [&](size_t i) { (void)runSolver(ctx, g, *here[i].solver, o.tEnd, rtol); });
      for (Point &pt : here)
        points.push_back(std::move(pt));
      std::fprintf(stderr, " %.0e", rtol);
    }
    std::fprintf(stderr, "\n");
  }

  if (!o.csv.empty()) {
    std::ofstream csv(o.csv);
    csv << "grid,n,solver,t_end,alpha,rtol,atol,status," << kCsvStatsColumns << ",err_mixed,"
        << kCsvTimingColumns << ",message\n";
    char buf[512];
    for (const Point &p : points) {
      std::snprintf(buf, sizeof buf, "%d,%d,%s,%.17g,%.17g,%.3e,%.3e,%s,", p.N, 2 * p.N * p.N,
                    p.solver->name.c_str(), o.tEnd, o.alpha, p.rtol, p.rtol,
                    p.run.ok ? "ok" : "failed");
      csv << buf << csvStats(p.run) << "," << csvErr(p.errMixed) << "," << csvTiming(p.timing)
          << "," << csvEscape(p.run.message) << "\n";
    }
    if (!csv) {
      std::fprintf(stderr, "eqc_bench_sparse_stiff: cannot write %s\n", o.csv.c_str());
      return 1;
    }
  }

  // Per grid: every run.
  for (const Grid &g : grids) {
    const int N = g.p.N;
    std::printf("## N = %d (n = %d, nnz(J) = %d)\n\n", N, g.p.n, g.p.nnz);
    std::printf("Reference check: %s at rtol %.0e is %.1e from the reference (both reference "
                "runs: %.1f s).\n\n",
                refPeer->name.c_str(), o.refRtol, g.cvodeRefErr, g.refSeconds);
    std::printf("| solver | rtol | error | steps | rejected | rhs | jac | LU | Newton | time ms | "
                "ms/step |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Solver &s : solvers)
      for (const Point &p : points) {
        if (p.N != N || p.solver != &s)
          continue;
        if (!p.run.ok) {
          std::printf("| %s | %.0e | **failed**: %s | | | | | | | | |\n", s.name.c_str(), p.rtol,
                      p.run.message.c_str());
          continue;
        }
        std::printf("| %s | %.0e | %.2e%s | %ld | %ld | %ld | %ld | %ld | %ld | %.1f | %.3f |\n",
                    s.name.c_str(), p.rtol, p.errMixed, p.errMixed >= kWrong ? " **wrong**" : "",
                    p.run.steps, p.run.rejected, p.run.rhsEvals, p.run.jacEvals, p.run.lus,
                    p.run.nonlinIters, p.timing.median * 1e3,
                    p.timing.median * 1e3 / double(std::max(1L, p.run.steps + p.run.rejected)));
      }
    std::printf("\n");
  }

  // Summary at matched error: one row per grid and peer, the columns every target error that
  // some row reaches on both curves.
  std::vector<int> decades;
  for (int d = 1; d <= 12; ++d) {
    bool reached = false;
    for (const Grid &g : grids)
      for (size_t k = 1; k < solvers.size(); ++k)
        reached = reached || (interpolate(curveOf(points, g.p.N, eqc), -d) &&
                              interpolate(curveOf(points, g.p.N, &solvers[k]), -d));
    if (reached)
      decades.push_back(d);
  }
  auto gridTable = [&](const std::function<std::string(const CurvePoint &, const CurvePoint &)> &cell) {
    printDecadeHeader({"N", "n", "vs"}, {true, true, false}, decades);
    for (const Grid &g : grids) {
      const auto ec = curveOf(points, g.p.N, eqc);
      for (size_t k = 1; k < solvers.size(); ++k) {
        std::printf("| %d | %d | %s |", g.p.N, g.p.n, solvers[k].name.c_str());
        printDecadeCells(ec, curveOf(points, g.p.N, &solvers[k]), decades, cell);
      }
    }
    std::printf("\n");
  };
  std::printf("## Summary: eqc radau5 / CVODE BDF at matched error\n\n");
  if (decades.empty())
    std::printf("The work-precision curves of eqc and its peers do not overlap on any grid: no "
                "matched error.\n\n");
  else {
    std::printf("Time ratio (median run time of eqc / of CVODE, both interpolated in log-log to "
                "the same error); in parentheses the ratio of rhs evaluations. < 1: eqc is "
                "faster. -: the error is outside one of the two curves.\n\n");
    gridTable(timeCell);
    std::printf("Ratios eqc/CVODE of accepted steps / of Jacobian evaluations / of LU "
                "factorizations at matched error (eqc counts radau5's real and complex "
                "factorization as one each; CVODE's are real KLU factorizations of I - gamma "
                "J).\n\n");
    gridTable(workCell);
  }

  // Failures and answers without a correct digit, left out of the summary.
  int problems = 0;
  for (const Point &p : points)
    if (!p.run.ok || p.errMixed >= kWrong) {
      const std::string what = p.run.ok ? "reported success, but no correct digit at t_end"
                                        : "failed: " + p.run.message;
      std::printf("- N = %d, %s, rtol %.0e: %s\n", p.N, p.solver->name.c_str(), p.rtol,
                  what.c_str());
      ++problems;
    }
  for (const Grid &g : grids)
    if (!(g.cvodeRefErr < kWrong)) {
      std::printf("- N = %d, %s at the reference rtol %.0e: failed or no correct digit\n",
                  g.p.N, refPeer->name.c_str(), o.refRtol);
      ++problems;
    }

  for (Grid &g : grids)
    bruss2d_free(&g.p);
  SUNContext_Free(&ctx);
  // Plumbing only, for the ctest: every run (timed in its round) succeeded with a correct digit.
  return o.smoke && problems ? 1 : 0;
}
