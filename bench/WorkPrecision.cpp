// What the work-precision benches share (see WorkPrecision.h).
#include "bench/WorkPrecision.h"

#include <cvode/cvode.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace eqc::bench {

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty())
      out.push_back(item);
  return out;
}

ArgReader::ArgReader(int argc, char **argv, const char *program, const char *usage)
    : argc(argc), argv(argv), program(program), usage(usage) {}

const char *ArgReader::next() {
  if (++i >= argc)
    return nullptr;
  if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) {
    std::fputs(usage, stdout);
    std::exit(0);
  }
  return argv[i];
}

const char *ArgReader::value() {
  if (i + 1 >= argc) {
    std::fprintf(stderr, "%s: %s needs a value\n", program, argv[i]);
    std::exit(2);
  }
  return argv[++i];
}

bool ArgReader::unknown() const {
  std::fprintf(stderr, "%s: unknown option %s\n%s", program, argv[i], usage);
  return false;
}

void takeEqcStats(int rc, const eqc_stats &st, RunResult &r) {
  r.ok = rc == EQC_OK;
  if (!r.ok)
    r.message = std::string(eqc_status_message(rc)) + " at t = " + std::to_string(st.t_reached);
  r.steps = st.steps;
  r.rejected = st.rejected;
  r.rhsEvals = st.rhs_evals;
  r.jacEvals = st.jac_evals;
  r.lus = st.lu_decompositions;
  r.nonlinIters = st.newton_iterations;
}

namespace {

std::string cvLastError;

void cvErrHandler(int code, const char *module, const char *function, char *msg, void *) {
  cvLastError = std::string(module) + "/" + function + " (" + std::to_string(code) + "): " + msg;
}

} // namespace

int configureCvode(void *mem, void *user, double rtol, double atol, double tEnd) {
  int flag = CVodeSetUserData(mem, user);
  if (flag == CV_SUCCESS)
    flag = CVodeSStolerances(mem, rtol, atol);
  if (flag == CV_SUCCESS)
    flag = CVodeSetErrHandlerFn(mem, cvErrHandler, nullptr);
  if (flag == CV_SUCCESS)
    flag = CVodeSetMaxNumSteps(mem, 50000000);
  if (flag == CV_SUCCESS)
    flag = CVodeSetMaxHnilWarns(mem, -1);
  if (flag == CV_SUCCESS)
    flag = CVodeSetStopTime(mem, tEnd);
  return flag;
}

void takeCvodeStats(void *mem, int flag, double t, double tEnd, bool withLinearSolver, RunResult &r) {
  r.ok = flag == CV_SUCCESS || flag == CV_TSTOP_RETURN;
  if (r.ok && t != tEnd) {
    r.ok = false;
    r.message = "stopped at t = " + std::to_string(t);
  }
  if (!r.ok && r.message.empty())
    r.message = "flag " + std::to_string(flag) + " at t = " + std::to_string(t) + ": " + cvLastError;
  long v = 0;
  CVodeGetNumSteps(mem, &v), r.steps = v;
  long etf = 0, ncf = 0;
  CVodeGetNumErrTestFails(mem, &etf);
  CVodeGetNumNonlinSolvConvFails(mem, &ncf);
  r.rejected = etf + ncf;
  CVodeGetNumRhsEvals(mem, &v), r.rhsEvals = v;
  CVodeGetNumNonlinSolvIters(mem, &v), r.nonlinIters = v;
  if (withLinearSolver) {
    long lsRhs = 0;
    CVodeGetNumLinRhsEvals(mem, &lsRhs); // 0 with the analytic Jacobian
    r.rhsEvals += lsRhs;
    CVodeGetNumJacEvals(mem, &v), r.jacEvals = v;
    CVodeGetNumLinSolvSetups(mem, &v), r.lus = v; // one LU of I - gamma J each
  }
}

void Timing::summarize() {
  if (times.empty())
    return;
  median = bench::median(times);
  min = *std::min_element(times.begin(), times.end());
  max = *std::max_element(times.begin(), times.end());
}

int runsPerBatch(double batchMs, double onceSeconds) {
  return int(std::clamp(std::ceil(batchMs * 1e-3 / std::max(onceSeconds, 1e-9)), 1.0, 100000.0));
}

void timeRotatedRounds(const std::vector<Timing *> &points, int reps,
                       const std::function<void(size_t)> &runOnce) {
  const size_t count = points.size();
  for (int rep = 0; rep < reps; ++rep)
    for (size_t q = 0; q < count; ++q) {
      const size_t i = (q + size_t(rep)) % count;
      Timing &t = *points[i];
      if (rep >= t.rounds)
        continue;
      const auto t0 = Clock::now();
      for (int k = 0; k < t.runsPerBatch; ++k)
        runOnce(i);
      t.times.push_back(secondsSince(t0) / t.runsPerBatch);
    }
  for (Timing *t : points)
    t->summarize();
}

namespace {

double log10OrNan(long v) { return v > 0 ? std::log10(double(v)) : NAN; }

} // namespace

void CurveBuilder::add(const RunResult &run, double err, const Timing &timing) {
  if (!run.ok || !(err > 0) || !(err < kWrong) || !(err < best) || timing.times.empty())
    return;
  best = err;
  points.push_back({std::log10(err), std::log10(timing.median), log10OrNan(run.rhsEvals),
                    log10OrNan(run.steps), log10OrNan(run.jacEvals), log10OrNan(run.lus)});
}

std::optional<CurvePoint> interpolate(const std::vector<CurvePoint> &c, double e) {
  for (size_t k = 0; k + 1 < c.size(); ++k) {
    const CurvePoint &a = c[k], &b = c[k + 1];
    const double lo = std::min(a.logErr, b.logErr), hi = std::max(a.logErr, b.logErr);
    if (e < lo || e > hi)
      continue;
    if (hi == lo)
      return a;
    const double w = (e - a.logErr) / (b.logErr - a.logErr);
    auto lerp = [w](double u, double v) { return u + w * (v - u); };
    return CurvePoint{e,
                      lerp(a.logTime, b.logTime),
                      lerp(a.logRhs, b.logRhs),
                      lerp(a.logSteps, b.logSteps),
                      lerp(a.logJac, b.logJac),
                      lerp(a.logLu, b.logLu)};
  }
  if (c.size() == 1 && c[0].logErr == e)
    return c[0];
  return std::nullopt;
}

std::string fmtRatio(double r) {
  char buf[32];
  if (r >= 100)
    std::snprintf(buf, sizeof buf, "%.0f", r);
  else if (r >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", r);
  else
    std::snprintf(buf, sizeof buf, "%.2f", r);
  return buf;
}

std::string ratioOfLogs(double logA, double logB) { return fmtRatio(std::pow(10.0, logA - logB)); }

std::string timeCell(const CurvePoint &a, const CurvePoint &b) {
  return ratioOfLogs(a.logTime, b.logTime) + " (" + ratioOfLogs(a.logRhs, b.logRhs) + ")";
}

std::string workCell(const CurvePoint &a, const CurvePoint &b) {
  if (!std::isfinite(a.logJac + a.logLu + b.logJac + b.logLu))
    return std::string();
  return ratioOfLogs(a.logSteps, b.logSteps) + " / " + ratioOfLogs(a.logJac, b.logJac) + " / " +
         ratioOfLogs(a.logLu, b.logLu);
}

void printDecadeHeader(const std::vector<std::string> &leading, const std::vector<bool> &rightAligned,
                       const std::vector<int> &decades) {
  std::printf("|");
  for (const std::string &l : leading)
    std::printf(" %s |", l.c_str());
  for (int d : decades)
    std::printf(" err 1e-%d |", d);
  std::printf("\n|");
  for (size_t i = 0; i < leading.size(); ++i)
    std::printf(i < rightAligned.size() && rightAligned[i] ? "---:|" : "---|");
  for (size_t i = 0; i < decades.size(); ++i)
    std::printf("---:|");
  std::printf("\n");
}

void printDecadeCells(const std::vector<CurvePoint> &a, const std::vector<CurvePoint> &b,
                      const std::vector<int> &decades,
                      const std::function<std::string(const CurvePoint &, const CurvePoint &)> &cell) {
  for (int d : decades) {
    const auto pa = interpolate(a, -d), pb = interpolate(b, -d);
    const std::string c = pa && pb ? cell(*pa, *pb) : "";
    std::printf(" %s |", c.empty() ? "-" : c.c_str());
  }
  std::printf("\n");
}

std::string fmtErr(double e) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", e);
  return buf;
}

std::string csvEscape(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

const char *const kCsvStatsColumns =
    "steps,rejected,rhs_evals,jac_evals,lu_decompositions,nonlinear_iterations";
const char *const kCsvTimingColumns = "time_median_s,time_min_s,time_max_s,rounds,runs_per_batch";

std::string csvStats(const RunResult &r) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%ld,%ld,%ld,%ld,%ld,%ld", r.steps, r.rejected, r.rhsEvals, r.jacEvals,
                r.lus, r.nonlinIters);
  return buf;
}

std::string csvTiming(const Timing &t) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%.6e,%.6e,%.6e,%zu,%d", t.median, t.min, t.max, t.times.size(),
                t.times.empty() ? 0 : t.runsPerBatch);
  return buf;
}

std::string csvErr(double e) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4e", e);
  return buf;
}

} // namespace eqc::bench
