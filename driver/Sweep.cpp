// eqc sweep: the design's runs on worker threads (one eqc_sim per run), batches into the HDF5 file.
#include "driver/Sweep.h"

#include "driver/Interrupt.h"
#include "driver/ModelTable.h"
#include "driver/RunState.h"
#include "driver/SweepFile.h"
#include "driver/SweepMpi.h"
#include "runtime/include/eqc/eqc_model.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace eqc {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Where a design column goes in a simulation.
struct Target {
  enum Kind { Parameter, Input, State } kind;
  int index;
};

/// The parameter, input or state of each design name; a usage error naming the model otherwise.
ExitCode resolveTargets(const eqc_model &m, const FlatSystem &flat, const Design &design, std::vector<Target> &targets,
                        std::ostream &err) {
  for (const std::string &name : design.names) {
    int found = -1;
    for (int i = 0; i < m.n_params && found < 0; ++i)
      if (name == m.param_names[i])
        found = i;
    if (found >= 0) {
      int kind = m.param_kind ? m.param_kind[found] : static_cast<int>(EQC_PARAM_FREE);
      if (kind == EQC_PARAM_STRUCTURAL || kind == EQC_PARAM_OBJECT) {
        err << "eqc: error: parameter '" << name << "' cannot vary in a sweep: "
            << (kind == EQC_PARAM_OBJECT
                    ? "it is an external object"
                    : "it fixes array sizes, loop ranges or which equations exist, or is folded "
                      "when compiled (Evaluate = true, a final binding; give it with "
                      "-p to eqc simulate, which compiles the model for each value)")
            << "\n";
        return ExitUsage;
      }
      targets.push_back({kind == EQC_PARAM_INPUT ? Target::Input : Target::Parameter, found});
      continue;
    }
    for (int i = 0; i < m.n_states && found < 0; ++i)
      if (name == m.state_names[i])
        found = i;
    if (found >= 0) {
      targets.push_back({Target::State, found});
      continue;
    }
    bool isVariable = false;
    for (size_t v = 0; v < flat.vars.size(); ++v)
      isVariable = isVariable || flat.varName(static_cast<int>(v)) == name;
    err << "eqc: error: " << (isVariable ? "'" + name + "' of model '" + flat.modelName +
                                               "' is neither a parameter nor a state: a sweep varies parameters "
                                               "and the start values of states"
                                         : "model '" + flat.modelName + "' has no parameter or state '" + name + "'")
        << "\n";
    return ExitUsage;
  }
  return ExitOk;
}

/// The common output grid: t_start + k * interval up to the stop time, which is always the last.
std::vector<double> outputGrid(const eqc_options &o) {
  std::vector<double> grid;
  const double span = o.t_end - o.t_start;
  const long n = static_cast<long>(std::floor(span / o.interval + 1e-9));
  for (long k = 0; k <= n; ++k)
    grid.push_back(o.t_start + static_cast<double>(k) * o.interval);
  if (o.t_end - grid.back() > 1e-9 * o.interval)
    grid.push_back(o.t_end);
  else
    grid.back() = o.t_end;
  return grid;
}

/// What the workers share: read-only during the runs, except the queue of finished runs.
struct Study {
  const ModelTable *table = nullptr;
  eqc_options options{};
  eqc_linear_solver solver = EQC_LINEAR_AUTO;
  int projection = -1; ///< 0 or 1 for models with invariants, -1: the table's default
  const Design *design = nullptr;
  std::vector<Target> targets;
  std::vector<Slot> columns; ///< where each recorded variable lives
  size_t discreteOffset = 0;
  std::vector<double> grid;
  bool finalOnly = false;
  bool keepValues = false; ///< results keep their values for a summary made in memory
  std::vector<size_t> todo; ///< the runs still to do, in order
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<RunResult> finished; ///< not yet written
  std::string firstFailure;        ///< of the runs done now: the first failed one's run and message
  int working = 0;                 ///< workers not yet done
};

/// The output callback's view of one run: its row on the grid.
struct Recorder {
  const Study *study;
  eqc_sim *sim;
  RunResult *result;
  size_t nextGrid = 0;
};

/// eqc_sim_output_fn: the values at the grid times, and the last row's as the end values.
int record(void *user, double t, const double *x, const double *dx, const double *a) {
  auto *r = static_cast<Recorder *>(user);
  const Study &s = *r->study;
  const double *p = eqc_sim_parameters(r->sim);
  const size_t nv = s.columns.size(), nt = s.grid.size();
  for (size_t v = 0; v < nv; ++v)
    r->result->finals[v] = slotValue(s.columns[v], x, dx, a, p, s.discreteOffset);
  r->result->endTime = t;
  if (s.finalOnly)
    return 0;
  // The first row at each grid time within rounding (at an event on the grid: its left limit,
  // which the runtime writes first); grid times the run never reached stay NaN.
  const double slack = 1e-9 * s.options.interval;
  while (r->nextGrid < nt && s.grid[r->nextGrid] < t - slack)
    ++r->nextGrid;
  if (r->nextGrid < nt && std::fabs(s.grid[r->nextGrid] - t) <= slack) {
    for (size_t v = 0; v < nv; ++v)
      r->result->values[v * nt + r->nextGrid] = r->result->finals[v];
    ++r->nextGrid;
  }
  return 0;
}

/// eqc_sim_step_fn: an interrupt stops the run (it stays to do).
int stopOnInterrupt(void *, double, const double *) { return pendingInterrupt() ? 1 : 0; }

/// The run's parameters and start values set, initialized and integrated to the stop time (and
/// the terminal event). False when an interrupt stopped it.
bool runOne(const Study &s, size_t run, RunResult &result) {
  const auto t0 = Clock::now();
  const size_t nv = s.columns.size();
  result = RunResult{};
  result.run = run;
  result.finals.assign(nv, NAN);
  if (!s.finalOnly)
    result.values.assign(nv * s.grid.size(), NAN);
  const eqc_model model = s.table->current();
  std::unique_ptr<eqc_sim, void (*)(eqc_sim *)> owner(eqc_sim_new(&model), eqc_sim_free);
  eqc_sim *sim = owner.get();
  int status = sim ? EQC_OK : EQC_ERR_ARGUMENT; // eqc_sim_new fails only without memory here
  const std::vector<double> &values = s.design->runs[run];
  for (size_t k = 0; k < values.size() && status == EQC_OK; ++k) {
    const Target &t = s.targets[k];
    status = t.kind == Target::Parameter ? eqc_sim_set_param(sim, t.index, values[k])
             : t.kind == Target::Input   ? eqc_sim_set_input(sim, t.index, values[k])
                                         : eqc_sim_set_state(sim, t.index, values[k]);
  }
  if (status == EQC_OK) {
    eqc_sim_set_time(sim, s.options.t_start);
    eqc_sim_set_options(sim, &s.options);
    if (s.projection >= 0)
      eqc_sim_set_projection(sim, s.projection);
    if (s.solver != EQC_LINEAR_AUTO)
      eqc_sim_set_jacobian(sim, s.solver, nullptr, nullptr);
    eqc_sim_set_step_callback(sim, stopOnInterrupt, nullptr);
    Recorder recorder{&s, sim, &result};
    status = eqc_sim_initialize(sim);
    if (status == EQC_OK)
      status = eqc_sim_run(sim, s.options.t_end, record, &recorder);
    int changed = 0;
    if (status == EQC_OK && (status = eqc_sim_terminate(sim, &changed)) == EQC_OK && changed)
      record(&recorder, eqc_sim_time(sim), eqc_sim_states(sim), eqc_sim_derivatives(sim), eqc_sim_algebraics(sim));
  }
  if (pendingInterrupt())
    return false;
  result.ok = status == EQC_OK;
  result.status = status;
  if (!result.ok)
    result.message = sim && *eqc_sim_last_error(sim) ? eqc_sim_last_error(sim) : eqc_status_message(status);
  if (sim) {
    const eqc_stats &st = *eqc_sim_stats(sim, nullptr);
    result.steps = static_cast<double>(st.steps);
    result.rejected = static_cast<double>(st.rejected);
    result.rhsEvaluations = static_cast<double>(st.rhs_evals);
    result.events = static_cast<double>(eqc_sim_events(sim));
    result.endTime = st.t_reached > s.options.t_start ? st.t_reached : eqc_sim_time(sim);
  }
  result.seconds = secondsSince(t0);
  return true;
}

/// Finished runs are written in batches of this many (or whatever finished within a second).
constexpr size_t kBatch = 64;

/// A worker: the next run to do until none is left or an interrupt came.
void work(Study &s) {
  for (;;) {
    size_t k = s.next.fetch_add(1);
    if (k >= s.todo.size() || pendingInterrupt())
      break;
    RunResult result;
    if (!runOne(s, s.todo[k], result))
      break;
    if (!s.finalOnly)
      SweepFile::pack(result, s.grid.size(), s.keepValues);
    std::lock_guard<std::mutex> lock(s.mutex);
    s.finished.push_back(std::move(result));
    if (s.finished.size() >= kBatch)
      s.changed.notify_one();
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  --s.working;
  s.changed.notify_one();
}

/// Rank 0 under MPI: answers the requests of the other ranks that have arrived. Their results
/// join `batch`; each gets its next share of the runs left (a quarter of an even share, so that
/// slow runs do not idle the others), or none once nothing is left or the study stops, and is then
/// done. Returns the number of ranks still working.
int serveRanks(Study &s, int working, std::vector<RunResult> &batch, std::string &rankErrors) {
  mpi::Request request;
  while (working > 0 && mpi::poll(request)) {
    for (RunResult &r : request.results)
      batch.push_back(std::move(r));
    if (!request.error.empty())
      rankErrors += "eqc: error: rank " + std::to_string(request.from) + ": " + request.error + "\n";
    std::vector<std::uint64_t> runs;
    if (!request.stopping && !pendingInterrupt()) {
      size_t next = s.next.load(), left = next < s.todo.size() ? s.todo.size() - next : 0;
      size_t share = std::clamp<size_t>(left / (4 * static_cast<size_t>(mpi::size())), 1, 256);
      size_t first = s.next.fetch_add(share);
      for (size_t k = first; k < std::min(first + share, s.todo.size()); ++k)
        runs.push_back(s.todo[k]);
    }
    mpi::reply(request.from, runs);
    working -= runs.empty();
  }
  return working;
}

/// Rank 0 when the study cannot go on: every other rank is told, at its next request, to stop.
void releaseRanks(Study &s) {
  s.next = s.todo.size();
  std::vector<RunResult> ignored;
  std::string errors;
  for (int working = mpi::size() - 1; working > 0;) {
    working = serveRanks(s, working, ignored, errors);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

/// Runs the study's runs on `jobs` workers (and, under MPI, on the other ranks), writing finished
/// runs in batches (every 64 runs or every second) and flushing the file every second. False
/// when writing failed.
bool runAll(Study &s, int jobs, SweepFile &file, size_t alreadyDone, size_t total, bool progress,
            const std::function<void()> &whileWaiting, std::ostream &err) {
  std::vector<std::thread> workers;
  s.working = jobs;
  for (int j = 0; j < jobs; ++j)
    workers.emplace_back(work, std::ref(s));
  int ranksWorking = mpi::size() - 1;
  std::string rankErrors;
  size_t written = alreadyDone;
  bool ok = true;
  auto lastFlush = Clock::now();
  for (;;) {
    std::vector<RunResult> batch;
    bool last;
    {
      std::unique_lock<std::mutex> lock(s.mutex);
      // Other ranks' requests are polled every millisecond while they work.
      auto wait = ranksWorking > 0 ? std::chrono::milliseconds(1) : std::chrono::milliseconds(1000);
      s.changed.wait_for(lock, wait, [&] { return s.finished.size() >= kBatch || s.working == 0; });
      batch.swap(s.finished);
      last = s.working == 0;
    }
    ranksWorking = serveRanks(s, ranksWorking, batch, rankErrors);
    last = last && ranksWorking == 0;
    whileWaiting();
    if (!batch.empty() && ok) {
      for (const RunResult &r : batch)
        if (!r.ok && s.firstFailure.empty())
          s.firstFailure = "run " + std::to_string(r.run) + ": " + r.message;
      written += batch.size();
      ok = file.write(batch, err);
      // Flushed once a second: each flush compresses every chunk written since, partial ones too.
      if (ok && secondsSince(lastFlush) >= 1.0) {
        ok = file.flush(err);
        lastFlush = Clock::now();
      }
      if (progress)
        std::fprintf(stderr, "\r[sweep] %zu of %zu runs", written, total);
    }
    if (last)
      break;
  }
  for (std::thread &w : workers)
    w.join();
  if (progress)
    std::fprintf(stderr, "\r\033[K");
  err << rankErrors;
  return ok;
}

/// A rank other than 0 under MPI: the runs rank 0 hands out, on `jobs` workers, their results
/// sent back with the next request, until rank 0 hands out none.
ExitCode workForRankZero(Study &s, int jobs) {
  std::vector<RunResult> results;
  bool stopping = false;
  for (;;) {
    std::vector<std::uint64_t> runs = mpi::request(results, stopping, "");
    results.clear();
    if (runs.empty())
      break;
    s.todo.assign(runs.begin(), runs.end());
    s.next = 0;
    const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(jobs), runs.size()));
    s.working = n;
    std::vector<std::thread> workers;
    for (int j = 0; j < n; ++j)
      workers.emplace_back(work, std::ref(s));
    for (std::thread &w : workers)
      w.join();
    results.swap(s.finished);
    stopping = pendingInterrupt() != 0;
  }
  return stopping ? static_cast<ExitCode>(128 + pendingInterrupt()) : ExitOk;
}

/// --summary: the runs' counts and each variable's statistics at the stop time.
void printSummary(const SweepLayout &layout, const std::vector<std::vector<double>> &final, size_t ok,
                  size_t failed, std::ostream &out) {
  out << "runs: " << ok + failed << " (" << ok << " ok, " << failed << " failed); "
      << (layout.finalOnly ? std::string("where each ended") : "at time " + brief(layout.time.back()))
      << ", over the successful runs:\n";
  size_t width = 8;
  for (const std::string &v : layout.variables)
    width = std::max(width, v.size());
  std::vector<std::string> heads = {"mean", "std", "min", "max"};
  for (double q : layout.quantiles)
    heads.push_back("q" + brief(q, 6));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-*s", static_cast<int>(width), "variable");
  out << buf;
  for (const std::string &h : heads) {
    std::snprintf(buf, sizeof buf, " %14s", h.c_str());
    out << buf;
  }
  out << "\n";
  for (size_t v = 0; v < layout.variables.size(); ++v) {
    std::snprintf(buf, sizeof buf, "%-*s", static_cast<int>(width), layout.variables[v].c_str());
    out << buf;
    for (double x : final[v]) {
      std::snprintf(buf, sizeof buf, " %14.7g", x);
      out << buf;
    }
    out << "\n";
  }
}

} // namespace

namespace {

/// The study of `c` for these options: the runs, the model table, where each name goes, what is
/// recorded on which grid, and the file's layout. A usage or model error, reported, otherwise.
ExitCode prepareStudy(Compilation &c, const SimulateOptions &sim, const SweepOptions &opt, Study &s, Design &design,
                      std::unique_ptr<ModelTable> &table, SweepLayout &layout, std::ostream &err) {
  const FlatSystem &flat = *c.flat;
  const OdeModel &model = *c.model;
  if (ExitCode e = runOptions(flat.experiment, sim, s.options, s.solver, err); e != ExitOk)
    return e;
  for (double q : opt.quantiles)
    if (!(q > 0 && q < 1)) {
      err << "eqc: error: --quantiles: " << brief(q) << " is not in (0, 1)\n";
      return ExitUsage;
    }
  if (!makeDesign(opt.design, design, err))
    return ExitUsage;
  s.design = &design;
  std::vector<int> columns;
  std::vector<std::string> header;
  if (ExitCode e = outputColumns(flat, sim, columns, header, true, err); e != ExitOk)
    return e;
  table = ModelTable::build(c, s.options.t_start, err);
  if (!table)
    return ExitModel;
  s.table = table.get();
  if (ExitCode e = resolveTargets(table->model(), flat, design, s.targets, err); e != ExitOk)
    return e;
  for (int v : columns)
    s.columns.push_back(model.slots[static_cast<size_t>(v)]);
  s.discreteOffset = model.discreteOffset();
  if (!model.invariants.residuals.empty())
    s.projection = model.stabilization == Stabilization::Projection;
  s.grid = outputGrid(s.options);
  s.finalOnly = opt.finalOnly;
  layout.model = flat.modelName;
  layout.parameters = design.names;
  layout.runs = &design.runs;
  layout.variables.assign(header.begin() + 1, header.end());
  layout.time = s.grid;
  layout.finalOnly = opt.finalOnly;
  layout.quantiles = opt.quantiles;
  s.keepValues = SweepFile::summarizesInMemory(layout, opt.resume);
  return ExitOk;
}

/// What a finished study tells: failed runs (stderr), --summary (stdout), --stats (stderr).
void reportStudy(const Study &s, const SweepLayout &layout, const SweepFile::Summary &summary, const SimulateOptions &sim,
                 const SweepOptions &opt, int jobs, double setUp, double runSeconds, double summarySeconds,
                 std::ostream &out, std::ostream &err) {
  if (summary.failed) {
    err << "eqc: warning: " << summary.failed << " of " << summary.ok + summary.failed
        << " runs failed (their messages are in /runs/message of '" << sim.output << "')";
    if (!s.firstFailure.empty())
      err << "; the first: " << s.firstFailure;
    err << "\n";
  }
  if (opt.summary)
    printSummary(layout, summary.final, summary.ok, summary.failed, out);
  if (sim.stats)
    err << "sweep: " << s.todo.size() << " runs in " << brief(runSeconds, 4) << " s on " << jobs << " worker"
        << (jobs == 1 ? "" : "s")
        << (mpi::size() > 1 ? " of rank 0 and " + std::to_string(mpi::size() - 1) + " more rank" +
                                  (mpi::size() > 2 ? "s" : "")
                            : std::string())
        << " (" << brief(static_cast<double>(s.todo.size()) / runSeconds, 4) << " runs/s; the summary "
        << brief(summarySeconds, 3) << " s of it); set-up after compilation " << brief(setUp, 4) << " s\n";
}

} // namespace

ExitCode sweep(Compilation &c, const SimulateOptions &sim, const SweepOptions &opt, std::ostream &out,
               std::ostream &err) {
  const auto started = Clock::now();
  Study s;
  Design design;
  std::unique_ptr<ModelTable> table;
  SweepLayout layout;
  if (ExitCode e = prepareStudy(c, sim, opt, s, design, table, layout, err); e != ExitOk)
    return e;
  // From here on an interrupt keeps the finished runs (the file is about to exist).
  installInterruptHandlers();
  int jobs = opt.jobs > 0 ? opt.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (mpi::size() > 1) {
    // Every rank made the same study (the same command); rank 0 hands out its runs.
    std::uint64_t print = mpi::broadcast(layout.fingerprint());
    if (mpi::rank() != 0) {
      if (print == layout.fingerprint())
        return workForRankZero(s, jobs);
      mpi::request({}, true, "its study differs from rank 0's (another model or options)");
      return ExitUsage;
    }
  }
  std::vector<char> done;
  std::unique_ptr<SweepFile> file = opt.resume ? SweepFile::resume(sim.output, layout, done, err)
                                               : SweepFile::create(sim.output, layout, err);
  if (!file) {
    releaseRanks(s);
    return ExitOutput;
  }
  done.resize(design.runs.size(), 0);
  for (size_t r = 0; r < design.runs.size(); ++r)
    if (!done[r])
      s.todo.push_back(r);
  const size_t total = design.runs.size(), alreadyDone = total - s.todo.size();
  jobs = static_cast<int>(std::min<size_t>(static_cast<size_t>(jobs), std::max<size_t>(s.todo.size(), 1)));
  // The optimized tier once the study has lasted as long as the first tier took to compile.
  double tierAfter = 0.02;
  for (auto &[phase, secs] : c.timings)
    if (phase == "codegen" || phase == "optimize" || phase == "jit")
      tierAfter += secs;
  const auto runsStart = Clock::now();
  auto startTier = [&] {
    if (c.jit->tiered() && !c.jit->tierStarted() && secondsSince(runsStart) >= tierAfter)
      c.jit->startTier();
  };
  bool progress = !sim.quiet && isatty(STDERR_FILENO);
  if (!runAll(s, jobs, *file, alreadyDone, total, progress, startTier, err))
    return ExitOutput;
  if (int signal = pendingInterrupt()) {
    std::string partial = file->partialPath();
    file->close();
    err << "eqc: error: interrupted by " << interruptName(signal) << ": the finished runs are in '" << partial
        << "'; continue with --resume\n";
    return static_cast<ExitCode>(128 + signal);
  }
  SweepFile::Summary summary;
  const auto summaryStart = Clock::now();
  if (!file->finish(summary, err))
    return ExitOutput;
  reportStudy(s, layout, summary, sim, opt, jobs, std::chrono::duration<double>(runsStart - started).count(),
              secondsSince(runsStart), secondsSince(summaryStart), out, err);
  return ExitOk;
}

} // namespace eqc
