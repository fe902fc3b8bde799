// The simulation driver: wires the JIT-compiled functions to the runtime's integrators.
#include "driver/Simulate.h"

#include "driver/Events.h"
#include "driver/Initialize.h"
#include "driver/Invariants.h"
#include "driver/Interrupt.h"
#include "driver/OutputFile.h"
#include "driver/ResultFile.h"
#include "driver/Run.h"
#include "driver/RunState.h"
#include "driver/SvgPlot.h"
#include "runtime/src/Integrator.h"
#include "middle/ExprOps.h"

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <unistd.h>

namespace eqc {
namespace {

bool selectMethod(const std::string &name, eqc_method &m) {
  static const std::pair<const char *, eqc_method> methods[] = {{"euler", EQC_METHOD_EULER},
                                                                {"heun", EQC_METHOD_HEUN},
                                                                {"rk4", EQC_METHOD_RK4},
                                                                {"dopri5", EQC_METHOD_DOPRI5},
                                                                {"dop853", EQC_METHOD_DOP853},
                                                                {"beuler", EQC_METHOD_BEULER},
                                                                {"radau5", EQC_METHOD_RADAU5},
                                                                {"auto", EQC_METHOD_AUTO}};
  for (auto &[n, v] : methods)
    if (name == n) {
      m = v;
      return true;
    }
  return false;
}

/// The inputs' values from --input (`inputs` empty without it); a note names the inputs that
/// hold their start values. False (with the message on `err`) for a bad file, or --input for a
/// model without inputs.
bool readInputs(const FlatSystem &flat, const OdeModel &model, const SimulateOptions &opt, InputSeries &inputs,
                std::ostream &err) {
  std::vector<int> held;
  for (int v : model.params)
    if (flat.vars[v].role == VarRole::Input)
      held.push_back(v);
  if (!opt.input.empty()) {
    if (held.empty()) {
      err << "eqc: error: --input " << opt.input << ": model '" << flat.modelName << "' has no inputs\n";
      return false;
    }
    if (!inputs.read(opt.input, flat, model, err))
      return false;
    held = inputs.missing();
  }
  if (!held.empty() && !opt.quiet) {
    std::string names;
    for (int v : held)
      names += (names.empty() ? "'" : ", '") + flat.vars[v].name + "'";
    err << "eqc: note: input" << (held.size() > 1 ? "s " : " ") << names << (held.size() > 1 ? " hold" : " holds")
        << " the start value (give values over time with --input FILE.csv)\n";
  }
  return true;
}

/// nominal = ... scales the absolute tolerance of a variable, as Modelica tools do: per flat
/// variable atol * |nominal| (`values` at the initial point) in `atol`, left empty when no
/// variable declares one.
ExitCode nominalTolerances(Compilation &c, const std::vector<double> &values, double scalarAtol,
                           std::vector<double> &atol) {
  const FlatSystem &flat = *c.flat;
  atol.clear();
  for (size_t v = 0; v < flat.vars.size(); ++v) {
    if (!flat.vars[v].nominal)
      continue;
    double nominal = evaluate(flat.vars[v].nominal, values);
    if (!std::isfinite(nominal) || nominal == 0.0) {
      c.diags->error(flat.vars[v].loc, "the nominal value of '" + flat.vars[v].name + "' is " + formatNumber(nominal) +
                                           ": it must be finite and non-zero");
      return ExitModel;
    }
    atol.resize(flat.vars.size(), scalarAtol);
    atol[v] = scalarAtol * std::fabs(nominal);
  }
  return ExitOk;
}

/// The result file's header: CSV names, or for .eqcres "EQCRES1" and a NUL, the column count
/// (uint32), each name as uint32 length + bytes (the rows follow as native-endian float64, time
/// first).
void writeHeader(RunState &s, const std::vector<std::string> &header) {
  std::string head;
  if (s.binary) {
    head.assign("EQCRES1", 8);
    auto put32 = [&head](uint32_t v) { head.append(reinterpret_cast<const char *>(&v), 4); };
    put32(static_cast<uint32_t>(header.size()));
    for (const std::string &name : header) {
      put32(static_cast<uint32_t>(name.size()));
      head += name;
    }
  } else {
    // RFC 4180: a name with a comma or a double quote (a quoted identifier, 'a,b') in quotes.
    for (size_t i = 0; i < header.size(); ++i) {
      const std::string &name = header[i];
      head += i ? "," : "";
      if (name.find_first_of(",\"\r\n") == std::string::npos) {
        head += name;
        continue;
      }
      head += '"';
      for (char ch : name)
        head += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      head += '"';
    }
    head += '\n';
  }
  std::fwrite(head.data(), 1, head.size(), s.file);
}

/// Seconds spent, for --stats.
struct RunTimes {
  double init = 0, integrate = 0;
  double tierAtRunEnd = -1; ///< the optimized tier's compile time if it was ready when the run ended
};

/// --stats: the integration's counts, the phases' times, state selection, invariants and events.
/// --stats: the optimized tier of the code that ran (backend/Jit.h): the base model's, or the
/// state selections' in a dummy-derivative run (the base model's never runs there).
void reportTiers(Compilation &c, const RunOutcome &r, const RunTimes &times, std::ostream &err) {
  if (r.dummy && !r.dummy->modes.empty()) {
    // The state selections ran their own code: their tiers, not the base model's (never run).
    int inUse = 0, abandoned = 0, notStarted = 0, failed = 0, tiered = 0;
    for (const auto &mode : r.dummy->modes) {
      if (!mode->jit || !mode->jit->tiered())
        continue;
      ++tiered;
      const double tier = mode->jit->tierSeconds();
      if (!mode->jit->tierStarted())
        ++notStarted;
      else if (tier < 0)
        ++abandoned;
      else if (!mode->jit->tierError().empty())
        ++failed;
      else
        ++inUse;
    }
    if (tiered > 0)
      err << "  optimized tiers (-O2, in the background) of the " << tiered << " state selection"
          << (tiered == 1 ? "" : "s") << ": " << inUse << " in use, " << abandoned << " not ready (abandoned), "
          << notStarted << " not started (shorter than their -O0 code took to compile), " << failed << " failed\n";
  } else if (c.jit->tiered()) {
    double tier = times.tierAtRunEnd;
    std::string failure = tier < 0 ? std::string() : c.jit->tierError();
    err << "  optimized tier (-O2, in the background): "
        << (tier < 0 && !c.jit->tierStarted()
                ? std::string("not started (the run was shorter than the -O0 code took to compile)")
            : tier < 0 ? std::string("not ready when the run ended (the -O0 code ran throughout; the -O2 "
                                   "compilation is abandoned, not awaited)")
            : !failure.empty() ? "failed (" + failure + "); the -O0 code ran throughout"
                               : formatNumber(std::round(tier * 1e6) / 1e3) + " ms, then in use")
        << "\n";
  }
}

void reportStatistics(Compilation &c, const SimulateOptions &opt, const eqc_options &o, const RunState &s,
                      const RunOutcome &r, const std::vector<double> &initialStates, const RunTimes &times,
                      std::ostream &err) {
  const FlatSystem &flat = *c.flat;
  const OdeModel &model = *c.model;
  const eqc_stats &stats = r.stats;
  err << "method " << opt.method << ": " << stats.steps << " steps, " << stats.rejected << " rejected, "
      << stats.rhs_evals << " rhs evaluations, " << stats.outputs << " output points";
  if (stats.lu_decompositions)
    err << ", " << stats.jac_evals << " Jacobians, " << stats.lu_decompositions << " LU decompositions, "
        << stats.newton_iterations << " Newton iterations";
  err << "\n";
  if (stats.linear_solver != EQC_LINEAR_AUTO)
    err << "linear algebra: "
        << (stats.linear_solver == EQC_LINEAR_SPARSE
                ? "sparse LU (" + std::to_string(s.sparsity.nnz) + " structural non-zeros of " +
                      std::to_string(r.x.size()) + " x " + std::to_string(r.x.size()) + ")"
                : std::string("dense LU"))
        << "\n";
  if (o.method == EQC_METHOD_AUTO)
    err << (std::isnan(stats.switch_time) ? std::string("auto: dopri5 throughout (no stiffness detected)")
                                          : "auto: dopri5, then radau5 from time " + brief(stats.switch_time) +
                                                " (stiffness detected)")
        << "\n";
  for (auto &[phase, secs] : c.timings)
    err << "  " << phase << ": " << formatNumber(std::round(secs * 1e6) / 1e3) << " ms\n";
  err << "  initialization: " << formatNumber(std::round(times.init * 1e6) / 1e3) << " ms\n";
  if (c.simpleEquations.constants + c.simpleEquations.aliases > 0)
    err << "  simple equations: " << c.simpleEquations.constants << " unknowns fixed to constants, "
        << c.simpleEquations.aliases << " aliases (a = b, a = -b), substituted before matching\n";
  if (c.simpleEquations.promoted > 0)
    err << "  parameter equations: " << c.simpleEquations.promoted
        << " unknowns that equations fix from parameters alone, computed with the parameters\n";
  // Newton's systems before and after tearing, for the run and for the initialization.
  for (auto [label, cs] : {std::pair<const char *, const CausalSystem *>{"loops (simulation)", &model.ode},
                           std::pair<const char *, const CausalSystem *>{"loops (initialization)", &model.init}})
    if (std::string summary = cs->tearingSummary(); !summary.empty())
      err << "  " << label << ": " << summary << "\n";
  if (c.libraryFilesRead > 0)
    err << "  library path: " << c.libraryFilesRead << " file" << (c.libraryFilesRead == 1 ? "" : "s")
        << " read (the classes the model names)\n";
  if (!c.cacheDirectory.empty()) {
    // The counts so far: an optimized tier still compiling is not awaited (driver/main.cpp).
    err << "  compiled-model cache: " << c.jit->cacheHits() << " module" << (c.jit->cacheHits() == 1 ? "" : "s")
        << " from it, " << c.jit->cacheStores() << " stored";
    if (std::string problem = c.jit->cacheError(); !problem.empty())
      err << " (" << problem << ")";
    err << " (" << c.cacheDirectory << ")\n";
  }
  if (c.jit->modules() > 1)
    err << "  machine code: " << c.jit->modules() << " modules compiled on " << c.jit->threads()
        << " threads while they were generated\n";
  reportTiers(c, r, times, err);
  if (r.dummy) {
    const DummyRun &dummy = *r.dummy;
    err << "dummy derivatives: " << dummy.modes.size() << " state selection"
        << (dummy.modes.size() == 1 ? "" : "s") << " compiled, " << dummy.checks << " checks"
        << (dummy.checksSkipped ? " (" + std::to_string(dummy.checksSkipped) + " from unchanged values)" : std::string())
        << (dummy.checksDeferred ? ", " + std::to_string(dummy.checksDeferred) + " deferred while the quality held steady"
                                 : std::string())
        << ", "
        << dummy.switches.size() << " switch" << (dummy.switches.size() == 1 ? "" : "es");
    if (!dummy.modes.empty())
      err << "; initial states: " << describeStates(flat, dummy.modes.front()->selection);
    err << "\n";
    for (auto &sw : dummy.switches)
      err << "  switch at time " << brief(sw.t) << ": states " << sw.from << " -> " << sw.to
          << (sw.why.empty() ? "" : " after a failed step (" + sw.why + ")") << "\n";
    if (!std::isnan(dummy.fallbackTime))
      err << "  fell back at time " << brief(dummy.fallbackTime)
          << " to the ODE with invariants (projection after every step): " << dummy.fallbackReason << "\n";
  }
  if (!model.invariants.residuals.empty()) {
    const char *names[] = {"none", "projection", "Baumgarte"};
    err << "invariants: " << model.invariants.residuals.size() << " hidden constraints, "
        << (!r.dummy ? std::string("stabilization ") + names[static_cast<int>(model.stabilization)]
            : std::isnan(r.dummy->fallbackTime)
                ? std::string("dummy derivatives")
                : "dummy derivatives, then projection from time " + brief(r.dummy->fallbackTime))
        << ", " << r.projections << " projections; largest residual " << brief(r.worstInvariant, 3)
        << " at time " << brief(r.worstInvariantTime)
        << (r.worstInvariantIndex >= 0 ? " (" + model.invariants.labels[r.worstInvariantIndex] + ")" : "")
        << "\n";
  }
  if (r.events) {
    const rt::EventIteration &it = *r.events;
    err << "events: " << stats.events << " state events, " << it.iterations() << " event iterations\n";
    for (size_t k = 0; k < it.log().size() && k < 20; ++k)
      err << "  event at time " << brief(it.log()[k].t, 12) << ": " << describeEvent(flat, *r.discretes, it.log()[k]) << "\n";
    if (it.log().size() > 20)
      err << "  ... (" << it.log().size() - 20 << " more)\n";
    if (!it.boundaryHolds().empty()) {
      auto [t, k] = it.boundaryHolds().front();
      err << "  " << it.boundaryHolds().size()
          << " conditions held on their boundary (no setting of the discrete variables was consistent "
             "otherwise; their indicator exactly zero), the first at time "
          << brief(t, 12) << ": '" << flat.vars[r.indicatorVariable[static_cast<size_t>(k)]].name << "'\n";
    }
    if (it.terminated())
      err << "terminated at time " << brief(it.terminateTime()) << "\n";
  }
  err << "consistent initial values:";
  for (size_t i = 0; i < model.states.size() && i < 50 && i < initialStates.size(); ++i)
    err << " " << flat.vars[model.states[i]].name << " = " << brief(initialStates[i]);
  err << "\n";
  err << "  integration: " << formatNumber(std::round(times.integrate * 1e6) / 1e3) << " ms\n";
}

/// A warning per condition whose changes were taken at step ends because it chattered (without
/// effect, or switching modes that each drive it back: a sliding motion along it;
/// rt::kIndicatorRelaxed).
void reportRelaxations(Compilation &c, const RunOutcome &r) {
  using Relaxed = rt::EventIteration::Relaxed;
  const FlatSystem &flat = *c.flat;
  struct First {
    double t;
    Relaxed why;
    int times;
  };
  std::map<int, First> first; // indicator: its first relaxation, and how many
  for (const auto &relaxation : r.events->relaxations())
    if (auto [it, fresh] = first.try_emplace(relaxation.indicator, First{relaxation.t, relaxation.why, 1});
        !fresh)
      ++it->second.times;
  for (auto &[k, when] : first) {
    const int v = r.indicatorVariable[static_cast<size_t>(k)];
    const std::string why =
        when.why == Relaxed::Idle
            ? "changes back and forth without effect (" + std::to_string(kMaxIdleEvents + 1) +
                  " events in a row changed nothing)"
            : "changes back and forth without moving a state, faster than events can be located (" +
                  std::to_string(rt::chatterLimit(eqc_events{}, 0, 1).events / 2) +
                  " events within the chattering limit's time)";
    c.diags->warning(
        flat.vars[v].loc,
        "at time " + brief(when.t, 12) + ": the condition '" + flat.vars[v].name + "' " + why +
            ": the solution slides along it; its changes are taken at the ends of the integrator's "
            "steps, not located, until it stays put for " +
            std::to_string(rt::kRelaxedQuietSteps) + " steps" +
            (when.times > 1 ? " (" + std::to_string(when.times) + " such episodes)" : std::string()));
  }
}

/// The message of a failed integration: where, when and why.
void reportFailure(Compilation &c, const eqc_options &o, const RunOutcome &r) {
  const FlatSystem &flat = *c.flat;
  const eqc_stats &stats = r.stats;
  const int status = r.status;
  std::string at = "at time " + brief(stats.t_reached) + " (step size " + brief(stats.h_last, 3) + "): ";
  if (status == EQC_ERR_RHS && stats.rhs_code == kEventIterationCode) {
    std::string names;
    if (r.events)
      for (int j : r.events->unsettled())
        names += (names.empty() ? "" : ", ") + flat.vars[(*r.discretes)[static_cast<size_t>(j)]].name;
    c.diags->error(flat.loc, "at time " + brief(stats.t_reached, 12) +
                                 ": the event iteration does not settle after 100 iterations (" + names +
                                 " keep changing)");
  } else if (status == EQC_ERR_RHS && stats.rhs_code == kIdleEventsCode) {
    std::string cause = "a condition";
    SourceRange where = flat.loc;
    if (r.events && r.events->lastCrossed() >= 0) {
      int v = r.indicatorVariable[static_cast<size_t>(r.events->lastCrossed())];
      cause = "the condition '" + flat.vars[v].name + "'";
      where = flat.vars[v].loc;
    }
    c.diags->error(where, "at time " + brief(stats.t_reached, 12) + ": " + cause + " changes back and forth without " +
                              "effect (" + std::to_string(kMaxIdleEvents + 1) +
                              " events in a row changed nothing): the solution oscillates around it; the "
                              "integration is probably unstable there (try --method radau5 or a smaller step)");
  } else if (status == EQC_ERR_CHATTERING) {
    std::string cause = "an event";
    SourceRange where = flat.loc;
    if (stats.event_indicator >= 0 && stats.event_indicator < static_cast<int>(r.indicatorVariable.size())) {
      int v = r.indicatorVariable[static_cast<size_t>(stats.event_indicator)];
      cause = "'" + flat.vars[v].name + "'";
      where = flat.vars[v].loc;
    }
    c.diags->error(where, "at time " + brief(stats.t_event, 12) + ": chattering: " + cause +
                              " changes again and again, more than 100 events within " +
                              brief(1e-8 * (o.t_end - o.t_start), 3) + " s (the events accumulate here, e.g. a ball "
                              "coming to rest; change the model so that it settles)");
  } else if (status == EQC_ERR_NONFINITE && stats.event_indicator >= 0 && stats.failed_component < 0 &&
             stats.event_indicator < static_cast<int>(r.indicatorVariable.size())) {
    int v = r.indicatorVariable[static_cast<size_t>(stats.event_indicator)];
    c.diags->error(flat.vars[v].loc, at + "the condition '" + flat.vars[v].name + "' became NaN or infinite");
  } else if (status == EQC_ERR_ASSERTION) {
    reportAssertion(c, r.failedAssertion, r.assertMessage, r.assertTime, false);
  } else if (status == EQC_ERR_RHS) {
    reportModelCode(c, r.active->ode, r.active->simulation, stats.rhs_code & ~EQC_RHS_RETRY, stats.t_reached);
  } else if (status == EQC_ERR_NONFINITE && stats.failed_component >= 0) {
    int v = r.active->states[stats.failed_component];
    c.diags->error(flat.vars[v].loc,
                   at + "'" + flat.vars[v].name + "' or its derivative became NaN or infinite");
  } else {
    std::string why = eqc_status_message(status);
    if (!why.empty() && why.back() == '.')
      why.pop_back();
    why[0] = static_cast<char>(std::tolower(why[0]));
    // Name the state that changes fastest relative to the tolerance: where a solution blows up
    // or turns stiff, that is the variable to look at.
    int fastest = -1;
    double worst = 0;
    const std::vector<double> &x = r.x, &dx = r.dx;
    if (!x.empty() && dx.size() == x.size())
      for (size_t i = 0; i < x.size(); ++i) {
        double rate = std::fabs(dx[i]) / (o.atol + o.rtol * std::fabs(x[i]));
        if (!(rate <= worst)) {
          worst = rate;
          fastest = static_cast<int>(i);
        }
      }
    if (fastest >= 0) {
      int v = r.active->states[fastest];
      c.diags->error(flat.vars[v].loc,
                     "simulation failed " + at + why + "; the fastest-changing variable is '" +
                         flat.vars[v].name + "' (" + flat.vars[v].name + " = " + brief(x[fastest], 3) +
                         ", der(" + flat.vars[v].name + ") = " + brief(dx[fastest], 3) + ")");
    } else {
      c.diags->error(SourceRange{}, "simulation failed " + at + why);
    }
  }
}

/// A variable's description in a result file: its description string and, where it has one, its
/// unit in brackets (as OpenModelica's result files give it).
std::string resultDescription(const Variable &v) {
  return v.description + (v.unit.empty() ? "" : (v.description.empty() ? "[" : " [") + v.unit + "]");
}

/// The names, descriptions and parameters of a MAT or HDF5 result (the run keeps its rows).
void describeResult(const FlatSystem &flat, const std::vector<int> &columns, const std::vector<std::string> &header,
                    const std::vector<double> &values, const eqc_options &o, ResultTable &t) {
  t.model = flat.modelName;
  t.names.assign(header.begin() + 1, header.end());
  for (int v : columns)
    t.descriptions.push_back(resultDescription(flat.vars[static_cast<size_t>(v)]));
  for (size_t v = 0; v < flat.vars.size(); ++v) {
    const Variable &var = flat.vars[v];
    if (var.role != VarRole::Parameter || var.object || var.generated)
      continue;
    t.paramNames.push_back(var.name);
    t.paramDescriptions.push_back(resultDescription(var));
    t.paramValues.push_back(v < values.size() ? values[v] : NAN);
  }
  t.tStart = o.t_start;
  t.tEnd = o.t_end;
}

/// Moves the result into place under `path`; a MAT or HDF5 file is written whole first.
bool commitResult(OutputFile &out, ResultFormat format, ResultTable &table, const std::string &path,
                  std::ostream &err) {
  if (format == ResultFormat::Mat || format == ResultFormat::Hdf5) {
    const size_t columns = 1 + table.names.size();
    if (table.rows.size() >= columns)
      table.tEnd = table.rows[table.rows.size() - columns]; // where the run ended
    bool ok = format == ResultFormat::Mat ? writeMat(out.temporary(), table, err)
                                          : writeHdf5(out.temporary(), table, err);
    if (!ok)
      return false;
  }
  return out.commit(path, err);
}

} // namespace

ExitCode runOptions(const Experiment &ex, const SimulateOptions &opt, eqc_options &o, eqc_linear_solver &linearSolver,
                    std::ostream &err) {
  eqc_options_default(&o);
  if (!selectMethod(opt.method, o.method)) {
    err << "eqc: error: unknown method '" << opt.method << "' (known: euler, heun, rk4, beuler, dopri5, dop853, radau5, auto)\n";
    return ExitUsage;
  }
  if (opt.linearSolver == "dense")
    linearSolver = EQC_LINEAR_DENSE;
  else if (opt.linearSolver == "sparse")
    linearSolver = EQC_LINEAR_SPARSE;
  else if (opt.linearSolver != "auto") {
    err << "eqc: error: unknown linear solver '" << opt.linearSolver << "' (known: auto, dense, sparse)\n";
    return ExitUsage;
  }
  o.t_start = !std::isnan(opt.tStart) ? opt.tStart : ex.hasStartTime ? ex.startTime : 0.0;
  // A stop time equal to the start time (experiment(StopTime = 0)) asks for an
  // initialization-only run: its result is the consistent initial point.
  o.t_end = !std::isnan(opt.tEnd) ? opt.tEnd : ex.hasStopTime ? ex.stopTime : o.t_start + 1.0;
  if (!(o.t_end >= o.t_start)) {
    err << "eqc: error: the stop time " << formatNumber(o.t_end) << " is before the start time "
        << formatNumber(o.t_start) << "\n";
    return ExitUsage;
  }
  // The span's defaults; an initialization-only run (no span) takes 1 for them, unused.
  const double span = o.t_end > o.t_start ? o.t_end - o.t_start : 1.0;
  o.interval = !std::isnan(opt.interval) ? opt.interval : ex.interval > 0 ? ex.interval : span / 500;
  o.rtol = !std::isnan(opt.rtol) ? opt.rtol : ex.tolerance > 0 ? ex.tolerance : 1e-6;
  o.atol = !std::isnan(opt.atol) ? opt.atol : o.rtol;
  o.dt = !std::isnan(opt.dt) ? opt.dt : std::min(o.interval, span / 100);
  if (opt.maxSteps > 0)
    o.max_steps = opt.maxSteps;
  if (!(o.interval > 0) || !(o.dt > 0) || !(o.rtol > 0) || !(o.atol >= 0)) {
    err << "eqc: error: --interval, --dt and --rtol must be positive and --atol non-negative\n";
    return ExitUsage;
  }

  return ExitOk;
}

ExitCode outputColumns(const FlatSystem &flat, const SimulateOptions &opt, std::vector<int> &columns,
                       std::vector<std::string> &header, bool numbers, std::ostream &err) {
  header = {"time"};
  if (opt.vars.empty()) {
    // The declared unknowns (those computed with the parameters too) and discrete variables (not
    // eqc's conditions, nor Strings: asked for by name).
    for (size_t i = 0; i < flat.vars.size(); ++i)
      if (flat.vars[i].role == VarRole::Unknown || flat.vars[i].role == VarRole::Input ||
          flat.vars[i].computed ||
          (flat.vars[i].role == VarRole::Discrete && !flat.vars[i].generated &&
           flat.vars[i].type != ValueType::String)) {
        columns.push_back(static_cast<int>(i));
        header.push_back(flat.vars[i].name);
      }
  } else {
    for (const std::string &name : opt.vars) {
      std::vector<int> found;
      for (size_t i = 0; i < flat.vars.size(); ++i)
        if (flat.varName(static_cast<int>(i)) == name)
          found.push_back(static_cast<int>(i));
      // An array or a component: every variable under that name (`x` is x[1], x[2], ...; `m.s`
      // is m[1].s, m[2].s, ... for an array of components m).
      auto withoutSubscripts = [](const std::string &v) {
        std::string out;
        int depth = 0;
        for (char ch : v) {
          depth += ch == '[';
          if (!depth)
            out += ch;
          depth -= ch == ']';
        }
        return out;
      };
      if (found.empty())
        for (size_t i = 0; i < flat.vars.size(); ++i) {
          const std::string &v = flat.vars[i].name;
          if (flat.vars[i].role == VarRole::Parameter || flat.vars[i].generated)
            continue;
          bool under = v.size() > name.size() && v.compare(0, name.size(), name) == 0 &&
                       (v[name.size()] == '[' || v[name.size()] == '.');
          if (under || withoutSubscripts(v) == name)
            found.push_back(static_cast<int>(i));
        }
      if (found.empty()) {
        err << "eqc: error: --vars: model '" << flat.modelName << "' has no variable '" << name << "'\n";
        return ExitUsage;
      }
      for (int v : found) {
        if (numbers && flat.vars[v].type == ValueType::String) {
          err << "eqc: error: --vars: '" << flat.vars[v].name
              << "' is a String variable: its text is written to CSV results only\n";
          return ExitUsage;
        }
        columns.push_back(v);
        header.push_back(flat.vars[v].name);
      }
    }
  }

  return ExitOk;
}

ExitCode simulate(Compilation &c, const SimulateOptions &opt, std::ostream &err) {
  FlatSystem &flat = *c.flat;
  OdeModel &model = *c.model;

  eqc_options o;
  eqc_linear_solver linearSolver = EQC_LINEAR_AUTO;
  if (ExitCode e = runOptions(flat.experiment, opt, o, linearSolver, err); e != ExitOk)
    return e;
  RunState s;
  s.jit = c.jit.get();
  s.linearSolver = linearSolver;
  s.slots = &model.slots;
  std::vector<std::string> header;
  const ResultFormat format = opt.binary ? ResultFormat::EqcRes : resultFormatOf(opt.output);
  if (ExitCode e =
          outputColumns(flat, opt, s.columns, header, format != ResultFormat::Csv || !opt.plot.empty(), err);
      e != ExitOk)
    return e;
  for (int v : s.columns)
    s.texts.push_back(flat.vars[v].type == ValueType::String);

  InputSeries inputs;
  if (!readInputs(flat, model, opt, inputs, err))
    return ExitUsage;

  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  std::unique_ptr<Run> run = makeRun(c, opt, o, s, inputs.empty() ? nullptr : &inputs);
  std::vector<double> values, initialStates;
  if (ExitCode e = run->initialize(values, initialStates, err); e != ExitOk)
    return e;
  RunTimes times;
  times.init = std::chrono::duration<double>(Clock::now() - t0).count();
  if (ExitCode e = nominalTolerances(c, values, o.atol, s.variableAtol); e != ExitOk)
    return e;

  s.recordForPlot = !opt.plot.empty();
  s.progress = !opt.quiet && isatty(STDERR_FILENO);
  startProgress(s, o.t_start, o.t_end);
  s.plotColumns.assign(s.columns.size(), {});
  // From here on an interrupt stops the run cleanly (the output file is about to exist).
  installInterruptHandlers();
  const bool whole = format == ResultFormat::Mat || format == ResultFormat::Hdf5;
  if (whole && opt.output == "-") {
    err << "eqc: error: a MAT or HDF5 result cannot be written to stdout\n";
    return ExitUsage;
  }
  OutputFile out;
  if (!out.open(opt.output, err))
    return ExitOutput;
  s.every = opt.every;
  s.binary = opt.binary;
  ResultTable table;
  if (whole) {
    out.release();
    describeResult(flat, s.columns, header, values, o, table);
    s.kept = &table.rows;
  } else {
    s.file = out.get();
    writeHeader(s, header);
  }

  t0 = Clock::now();
  // The optimized tier is worth a core only for a run that lasts longer than the first tier took
  // to compile (backend/Jit.h).
  s.runStart = std::chrono::duration<double>(t0.time_since_epoch()).count();
  s.tierAfter = 0.02;
  for (auto &[phase, secs] : c.timings)
    if (phase == "codegen" || phase == "optimize" || phase == "jit")
      s.tierAfter += secs;
  RunOutcome r;
  if (ExitCode failed = run->integrate(r, err); failed != ExitOk)
    return failed;
  finishProgress(s);
  times.integrate = std::chrono::duration<double>(Clock::now() - t0).count();
  // Whether the optimized tier was ready while the run needed it (it is not awaited after).
  times.tierAtRunEnd = c.jit->tiered() ? c.jit->tierSeconds() : -1.0;
  const eqc_stats &stats = r.stats;
  const int status = r.status;

  if (r.events)
    reportRelaxations(c, r);
  if (opt.stats)
    reportStatistics(c, opt, o, s, r, initialStates, times, err);
  if (s.writeFailed) {
    err << "eqc: error: writing '" << opt.output << "' failed: " << std::strerror(errno) << "\n";
    return ExitOutput;
  }
  if (status == EQC_OK) {
    if (!commitResult(out, format, table, opt.output, err))
      return ExitOutput;
    if (!opt.plot.empty()) {
      std::vector<PlotSeries> series;
      for (size_t k = 0; k < s.columns.size(); ++k)
        series.push_back({header[k + 1], std::move(s.plotColumns[k])});
      if (!writeSvgPlot(opt.plot, flat.modelName, s.plotTime, series, err))
        return ExitOutput;
    }
    return ExitOk;
  }

  // Failure: say where and why, keep what was computed under a different name.
  std::string at = "at time " + brief(stats.t_reached) + " (step size " + brief(stats.h_last, 3) + "): ";
  if (int signal = pendingInterrupt()) {
    err << "eqc: error: interrupted by " << interruptName(signal) << " at time " << brief(stats.t_reached) << " of "
        << brief(o.t_end) << "\n";
    if (opt.output != "-") {
      std::string partial = opt.output + ".partial";
      if (commitResult(out, format, table, partial, err))
        err << "eqc: note: the results up to time " << brief(stats.t_reached) << " are in '" << partial
            << "'; '" << opt.output << "' is unchanged\n";
    }
    return static_cast<ExitCode>(128 + signal);
  }
  reportFailure(c, o, r);
  if (opt.output != "-") {
    std::string partial = opt.output + ".partial";
    if (commitResult(out, format, table, partial, err))
      err << "eqc: note: the results up to time " << brief(stats.t_reached) << " are in '" << partial
          << "'\n";
  }
  return ExitSimulation;
}

} // namespace eqc
