// What the work-precision benches (workprecision.cpp, sparse_stiff.cpp) share: run statistics of
// eqc and CVODE, timing in rotated rounds, matched-error curves with their log-log interpolation,
// and the formatting of ratios, tables and CSV rows.
#ifndef EQC_BENCH_WORKPRECISION_H
#define EQC_BENCH_WORKPRECISION_H

#include "eqc/eqc_runtime.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace eqc::bench {

using Clock = std::chrono::steady_clock;

/// Seconds from t0 to now.
double secondsSince(Clock::time_point t0);

/// Median of v (the mean of the middle two for an even count).
double median(std::vector<double> v);

/// The non-empty items of a comma-separated list.
std::vector<std::string> splitList(const std::string &s);

/// Reads a bench's command line one option at a time. Ends the process on -h or --help (the
/// usage on stdout, status 0) and on an option without its value (status 2).
class ArgReader {
public:
  ArgReader(int argc, char **argv, const char *program, const char *usage);
  /// The next option, or null after the last one.
  const char *next();
  /// The value of the option last returned by next().
  const char *value();
  /// Reports the option last returned by next() as unknown, with the usage; returns false.
  bool unknown() const;

private:
  int argc, i = 0;
  char **argv;
  const char *program, *usage;
};

/// The outcome of one solver run and its statistics.
struct RunResult {
  bool ok = false;
  std::string message; // status text when !ok
  long steps = 0, rejected = 0, rhsEvals = 0, jacEvals = 0, lus = 0, nonlinIters = 0;
  std::vector<double> y;
  std::string methodUsed; // eqc auto: which method finished
  double switchTime = NAN;
};

/// Fills r's status and statistics from an eqc_integrate_* return code and its stats.
void takeEqcStats(int rc, const eqc_stats &st, RunResult &r);

/// CVODE's settings common to every bench run (after CVodeInit): user data, scalar tolerances,
/// the error handler behind takeCvodeStats' messages, no step limit to speak of, no warnings
/// about tiny steps, and a stop at exactly tEnd. Returns CV_SUCCESS or CVODE's flag.
int configureCvode(void *cvodeMem, void *user, double rtol, double atol, double tEnd);

/// Fills r's status (flag and t as CVode returned them, which must have reached tEnd) and
/// statistics; withLinearSolver also counts Jacobians, linear-solver setups (one LU of
/// I - gamma J each) and the linear solver's difference-quotient rhs calls.
void takeCvodeStats(void *cvodeMem, int flag, double t, double tEnd, bool withLinearSolver, RunResult &r);

/// Timing of one point: runs per batch (from the untimed run) and seconds per run, one per round.
struct Timing {
  int runsPerBatch = 1;
  int rounds = 0; // rounds this point is timed in; 0: not timed
  std::vector<double> times;
  double median = NAN, min = NAN, max = NAN;
  /// Sets median, min and max from times.
  void summarize();
};

/// Runs per timed batch so that one batch lasts about batchMs, given one run's seconds.
int runsPerBatch(double batchMs, double onceSeconds);

/// reps rounds, each timing one batch of every point whose rounds it has not used up, in an order
/// rotated per round so that all points see the same drift of the machine; runOnce(i) runs point
/// i once. Summarizes every timing at the end.
void timeRotatedRounds(const std::vector<Timing *> &points, int reps,
                       const std::function<void(size_t)> &runOnce);

// ---- matched-error comparison ----

/// A run that reports success with a mixed error at or above this (no correct digit) is counted
/// as a wrong answer: listed, and left out of the curves.
constexpr double kWrong = 1.0;

/// One point of a work-precision curve, all in log10.
struct CurvePoint {
  double logErr, logTime, logRhs, logSteps, logJac, logLu;
};

/// Builds the curve of one solver from its points in sweep order (loose to tight tolerance),
/// keeping only the timed successes whose error is below that of every looser point, so that the
/// error decreases monotonically along the curve (a tighter tolerance that does not improve the
/// error only costs more and is dropped).
class CurveBuilder {
public:
  void add(const RunResult &run, double err, const Timing &timing);
  std::vector<CurvePoint> curve() const { return points; }

private:
  std::vector<CurvePoint> points;
  double best = INFINITY;
};

/// The curve of the points (members run, errMixed, timing) for which belongs(point) holds.
template <typename Point, typename Belongs>
std::vector<CurvePoint> curveOf(const std::vector<Point> &points, Belongs belongs) {
  CurveBuilder c;
  for (const Point &p : points)
    if (belongs(p))
      c.add(p.run, p.errMixed, p.timing);
  return c.curve();
}

/// Linear interpolation in log-log at log error e between the two neighbouring points of the
/// (monotone) curve that bracket it. No extrapolation.
std::optional<CurvePoint> interpolate(const std::vector<CurvePoint> &c, double e);

/// A ratio with three significant digits at most.
std::string fmtRatio(double r);
/// 10^(logA - logB), formatted.
std::string ratioOfLogs(double logA, double logB);
/// "time ratio (rhs ratio)" of a against b at matched error.
std::string timeCell(const CurvePoint &a, const CurvePoint &b);
/// "steps / Jacobians / LUs" ratios of a against b; empty where one of them has no Jacobian.
std::string workCell(const CurvePoint &a, const CurvePoint &b);

/// The header of a matched-error table: the leading columns (right-aligned where
/// rightAligned[i]), then one column "err 1e-d" per decade.
void printDecadeHeader(const std::vector<std::string> &leading, const std::vector<bool> &rightAligned,
                       const std::vector<int> &decades);
/// The cells of one row at each decade: cell(eqc, peer) where both curves reach the error, "-"
/// elsewhere or where cell is empty; ends the line.
void printDecadeCells(const std::vector<CurvePoint> &a, const std::vector<CurvePoint> &b,
                      const std::vector<int> &decades,
                      const std::function<std::string(const CurvePoint &, const CurvePoint &)> &cell);

std::string fmtErr(double e);
std::string csvEscape(const std::string &s);

/// CSV columns of RunResult's statistics and of a Timing, and their values (no leading or
/// trailing comma).
extern const char *const kCsvStatsColumns, *const kCsvTimingColumns;
std::string csvStats(const RunResult &r);
std::string csvTiming(const Timing &t);
/// An error as the CSV columns give it (four digits after the point).
std::string csvErr(double e);

} // namespace eqc::bench

#endif // EQC_BENCH_WORKPRECISION_H
