// The simulation driver: wires the JIT-compiled functions to the runtime's integrators.
#include "driver/Simulate.h"

#include "driver/Invariants.h"
#include "driver/OutputFile.h"
#include "driver/RunState.h"
#include "middle/ExprOps.h"

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <unistd.h>

namespace eqc {
namespace {

bool parseDouble(const std::string &text, double &out) {
  char *end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(out);
}

/// Parameter values in dependency order; overridden parameters keep the given value and the
/// parameters bound to them are recomputed.
bool evaluateParameters(const FlatSystem &flat, const OdeModel &model, const SimulateOptions &opt,
                        std::vector<double> &values, Diagnostics &diags, std::ostream &err) {
  std::vector<char> overridden(flat.vars.size(), 0);
  for (const auto &[name, text] : opt.parameters) {
    int found = -1;
    for (size_t i = 0; i < flat.vars.size(); ++i)
      if (flat.vars[i].name == name && flat.vars[i].role == VarRole::Parameter)
        found = static_cast<int>(i);
    if (found < 0) {
      err << "eqc: error: -p " << name << "=" << text << ": '" << name << "' is not a parameter of model '"
          << flat.modelName << "'\n";
      return false;
    }
    double v;
    if (!parseDouble(text, v)) {
      err << "eqc: error: -p " << name << "=" << text << ": '" << text << "' is not a finite number\n";
      return false;
    }
    values[found] = v;
    overridden[found] = 1;
  }
  std::vector<char> done(overridden);
  std::function<double(int)> value = [&](int v) -> double {
    if (!done[v]) {
      for (int dep : collectVars(flat.vars[v].binding))
        value(dep);
      values[v] = evaluate(flat.vars[v].binding, values);
      done[v] = 1;
    }
    return values[v];
  };
  for (int v : model.params) {
    double x = value(v);
    if (!std::isfinite(x)) {
      diags.error(flat.vars[v].loc, "parameter '" + flat.vars[v].name + "' evaluates to " + formatNumber(x));
      return false;
    }
  }
  return true;
}

std::string loopDescription(const FlatSystem &flat, const CausalSystem &cs, const EquationSystem &sys,
                            int loop) {
  const AlgebraicLoop &l = cs.loops[loop];
  std::string vars;
  for (size_t i = 0; i < l.vars.size(); ++i)
    vars += (i ? ", " : "") + flat.varName(l.vars[i]);
  std::string eqs;
  for (size_t i = 0; i < l.equations.size(); ++i)
    eqs += (i ? ", " : "") + sys.labels[l.equations[i]];
  if (l.linear)
    return "the linear equations " + eqs + " are singular in " + vars;
  return "Newton's method did not converge solving " + eqs + " for " + vars;
}

void reportModelCode(Compilation &c, const CausalSystem &cs, const EquationSystem &sys, int code, double t) {
  int loop = code - EQC_MODEL_LOOP_FAILURE_BASE;
  std::string at = "at time " + brief(t) + ": ";
  if (code >= 2000 && code < 2100)
    c.diags->error(c.flat->loc,
                   at + "projection onto the hidden constraints failed: " + eqc_status_message(code - 2000));
  else if (loop >= 0 && loop < static_cast<int>(cs.loops.size())) {
    c.diags->error(sys.locs[cs.loops[loop].equations.front()], at + loopDescription(*c.flat, cs, sys, loop));
    if (cs.loops[loop].linear && c.reduced && c.reduced->differentiated())
      c.diags->note(SourceRange{},
                    "after index reduction a singular block means that, at this point and for these "
                    "parameter values, the model needs more differentiations than its generic "
                    "structure (e.g. the coefficient of a highest derivative vanishes)");
  } else
    c.diags->error(SourceRange{}, at + "the model function failed with code " + std::to_string(code));
}

bool selectMethod(const std::string &name, eqc_method &m) {
  static const std::pair<const char *, eqc_method> methods[] = {{"euler", EQC_METHOD_EULER},
                                                                {"heun", EQC_METHOD_HEUN},
                                                                {"rk4", EQC_METHOD_RK4},
                                                                {"dopri5", EQC_METHOD_DOPRI5}};
  for (auto &[n, v] : methods)
    if (name == n) {
      m = v;
      return true;
    }
  return false;
}

} // namespace

ExitCode simulate(Compilation &c, const SimulateOptions &opt, std::ostream &err) {
  FlatSystem &flat = *c.flat;
  OdeModel &model = *c.model;
  const Experiment &ex = flat.experiment;

  eqc_options o;
  eqc_options_default(&o);
  if (!selectMethod(opt.method, o.method)) {
    err << "eqc: error: unknown method '" << opt.method << "' (known: euler, heun, rk4, dopri5)\n";
    return ExitUsage;
  }
  o.t_start = !std::isnan(opt.tStart) ? opt.tStart : ex.hasStartTime ? ex.startTime : 0.0;
  o.t_end = !std::isnan(opt.tEnd) ? opt.tEnd : ex.stopTime > 0 ? ex.stopTime : o.t_start + 1.0;
  if (!(o.t_end > o.t_start)) {
    err << "eqc: error: the stop time " << formatNumber(o.t_end) << " must be after the start time "
        << formatNumber(o.t_start) << "\n";
    return ExitUsage;
  }
  o.interval = !std::isnan(opt.interval) ? opt.interval
               : ex.interval > 0         ? ex.interval
                                         : (o.t_end - o.t_start) / 500;
  o.rtol = !std::isnan(opt.rtol) ? opt.rtol : ex.tolerance > 0 ? ex.tolerance : 1e-6;
  o.atol = !std::isnan(opt.atol) ? opt.atol : o.rtol;
  o.dt = !std::isnan(opt.dt) ? opt.dt : std::min(o.interval, (o.t_end - o.t_start) / 100);
  if (opt.maxSteps > 0)
    o.max_steps = opt.maxSteps;
  if (!(o.interval > 0) || !(o.dt > 0) || !(o.rtol > 0) || !(o.atol >= 0)) {
    err << "eqc: error: --interval, --dt and --rtol must be positive and --atol non-negative\n";
    return ExitUsage;
  }

  // Output columns.
  RunState s;
  s.jit = c.jit.get();
  s.slots = &model.slots;
  std::vector<std::string> header{"time"};
  if (opt.vars.empty()) {
    for (size_t i = 0; i < flat.vars.size(); ++i)
      if (flat.vars[i].role == VarRole::Unknown) {
        s.columns.push_back(static_cast<int>(i));
        header.push_back(flat.vars[i].name);
      }
  } else {
    for (const std::string &name : opt.vars) {
      int found = -1;
      for (size_t i = 0; i < flat.vars.size(); ++i)
        if (flat.varName(static_cast<int>(i)) == name)
          found = static_cast<int>(i);
      if (found < 0) {
        err << "eqc: error: --vars: model '" << flat.modelName << "' has no variable '" << name << "'\n";
        return ExitUsage;
      }
      s.columns.push_back(found);
      header.push_back(name);
    }
  }

  std::vector<double> values(flat.vars.size(), 0.0);
  if (!evaluateParameters(flat, model, opt, values, *c.diags, err))
    return opt.parameters.empty() ? ExitSimulation : ExitUsage;
  for (int v : model.params)
    s.p.push_back(values[v]);
  std::vector<double> x(model.states.size()), dx(model.states.size(), 0.0);
  s.a.assign(model.algebraics.size(), 0.0);
  s.scratchDx.assign(model.states.size(), 0.0);
  for (size_t i = 0; i < model.states.size(); ++i) {
    const Variable &v = flat.vars[model.states[i]];
    x[i] = v.hasStart ? evaluate(v.binding, values) : 0.0;
  }
  for (size_t i = 0; i < model.algebraics.size(); ++i) {
    const Variable &v = flat.vars[model.algebraics[i]];
    s.a[i] = v.hasStart ? evaluate(v.binding, values) : 0.0;
  }

  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  std::unique_ptr<InvariantProjector> projector;
  if (!model.invariants.residuals.empty()) {
    // Consistent initial values: the non-fixed states move (as little as possible) onto every
    // hidden constraint; then rhs gives the derivatives and algebraic variables.
    projector = std::make_unique<InvariantProjector>(*c.jit, model, s.p);
    s.projector = projector.get();
    std::vector<int> movable;
    for (int v : model.freeStates)
      movable.push_back(model.slots[v].index);
    double residual = 0;
    int status = projector->project(o.t_start, x.data(), movable, s.projectionTol, &residual);
    int which = -1;
    double worst = projector->maxResidual(o.t_start, x.data(), &which);
    if (status != EQC_OK || !(worst <= 1e-8)) {
      std::string fixed;
      for (int v : model.states)
        if (flat.vars[v].fixed)
          fixed += (fixed.empty() ? "" : ", ") + flat.vars[v].name + " = " + brief(x[model.slots[v].index]);
      std::string label = which >= 0 ? model.invariants.labels[which] : std::string("the constraints");
      c.diags->error(which >= 0 ? model.invariants.locs[which] : flat.loc,
                     "at time " + brief(o.t_start) + ": no consistent initial values: " + label +
                         " cannot be satisfied (residual " + brief(worst, 3) + ")" +
                         (fixed.empty() ? "" : " with the fixed start values " + fixed));
      // Why: too many fixed values, or constraints that are dependent for these parameter values.
      std::vector<int> all(model.states.size());
      for (size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<int>(i);
      size_t m = projector->size();
      int rankFree = projector->rank(o.t_start, x.data(), movable);
      int rankAll = projector->rank(o.t_start, x.data(), all);
      if (rankAll >= 0 && static_cast<size_t>(rankAll) < std::min(m, all.size()))
        c.diags->note(SourceRange{},
                      "the " + std::to_string(m) + " hidden constraints have rank " +
                          std::to_string(rankAll) +
                          " here: for these parameter values they are "
                          "dependent, so the structure differs from the generic one that index "
                          "reduction assumed (more differentiations would be needed)");
      else if (rankFree >= 0 && static_cast<size_t>(rankFree) < std::min(m, movable.size()))
        c.diags->note(SourceRange{},
                      "the fixed start values over-determine the constraints: the model has " +
                          std::to_string(model.states.size() - m) +
                          " degrees of freedom, so at most that many independent states can be fixed");
      return ExitSimulation;
    }
  }
  int code = projector ? c.jit->rhs(o.t_start, x.data(), dx.data(), s.a.data(), s.p.data())
                       : c.jit->init(o.t_start, x.data(), dx.data(), s.a.data(), s.p.data());
  if (code) {
    const CausalSystem &cs = projector ? model.ode : model.init;
    reportModelCode(c, cs, projector ? model.simulation : model.initialization, code, o.t_start);
    int loop = code - EQC_MODEL_LOOP_FAILURE_BASE;
    if (loop >= 0 && loop < static_cast<int>(cs.loops.size()) && !cs.loops[loop].linear)
      c.diags->note(SourceRange{},
                    "initialization failed; give better start values to the variables of the loop");
    return ExitSimulation;
  }
  for (size_t i = 0; i < flat.vars.size(); ++i) {
    const Slot &slot = model.slots[i];
    double v = slot.storage == Storage::State        ? x[slot.index]
               : slot.storage == Storage::Derivative ? dx[slot.index]
               : slot.storage == Storage::Algebraic  ? s.a[slot.index]
                                                     : 0.0;
    if (!std::isfinite(v)) {
      c.diags->error(flat.vars[i].loc, "at time " + brief(o.t_start) + ": initialization gives " +
                                           flat.varName(static_cast<int>(i)) + " = " + formatNumber(v));
      return ExitSimulation;
    }
  }
  double initSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
  const std::vector<double> initialStates = x;

  OutputFile out;
  if (!out.open(opt.output, err))
    return ExitOutput;
  s.file = out.get();
  std::string headerLine;
  for (size_t i = 0; i < header.size(); ++i)
    headerLine += (i ? "," : "") + header[i];
  headerLine += '\n';
  std::fputs(headerLine.c_str(), s.file);

  eqc_stats stats;
  t0 = Clock::now();
  int status = EQC_OK;
  const OdeModel *active = &model; // the model whose arrays x and s.a belong to
  DummyRun dummy;
  std::string reduction = !opt.reduction.empty()  ? opt.reduction
                          : !ex.reduction.empty() ? ex.reduction
                          : !ex.stabilize.empty() ? "invariants"
                                                  : "dummy";
  if (projector && reduction == "dummy") {
    // Dummy derivatives with dynamic state selection (driver/StateSelection.cpp).
    dummy.c = &c;
    s.dummy = &dummy;
    gather(model, x.data(), dx.data(), s.a.data(), s.p, dummy.values);
    ExitCode failed = ExitOk;
    status = integrateWithStateSelection(c, s, dummy, o, x, stats, active, failed, err);
    if (failed != ExitOk)
      return failed;
  } else {
    bool project = projector && model.stabilization == Stabilization::Projection;
    status = eqc_integrate_with_hook(static_cast<int>(x.size()), rhsCallback, &s, x.data(), &o,
                                     outputCallback, &s, project ? projectionHook : nullptr, &s, &stats);
  }
  double integrateSeconds = std::chrono::duration<double>(Clock::now() - t0).count();

  if (opt.stats) {
    err << "method " << opt.method << ": " << stats.steps << " steps, " << stats.rejected << " rejected, "
        << stats.rhs_evals << " rhs evaluations, " << stats.outputs << " output points\n";
    for (auto &[phase, secs] : c.timings)
      err << "  " << phase << ": " << formatNumber(std::round(secs * 1e6) / 1e3) << " ms\n";
    err << "  initialization: " << formatNumber(std::round(initSeconds * 1e6) / 1e3) << " ms\n";
    if (s.dummy) {
      err << "dummy derivatives: " << dummy.modes.size() << " state selection"
          << (dummy.modes.size() == 1 ? "" : "s") << " compiled, " << dummy.checks << " checks, "
          << dummy.switches.size() << " switch" << (dummy.switches.size() == 1 ? "" : "es")
          << "; initial states: " << describeStates(flat, dummy.modes.front()->selection) << "\n";
      for (auto &sw : dummy.switches)
        err << "  switch at time " << brief(sw.t) << ": states " << sw.from << " -> " << sw.to << "\n";
    }
    if (projector) {
      const char *names[] = {"none", "projection", "Baumgarte"};
      err << "invariants: " << projector->size() << " hidden constraints, "
          << (s.dummy ? std::string("dummy derivatives")
                      : std::string("stabilization ") + names[static_cast<int>(model.stabilization)])
          << ", " << s.projections << " projections; largest residual " << brief(s.worstInvariant, 3)
          << " at time " << brief(s.worstInvariantTime)
          << (s.worstInvariantIndex >= 0 ? " (" + model.invariants.labels[s.worstInvariantIndex] + ")" : "")
          << "\n";
    }
    err << "consistent initial values:";
    for (size_t i = 0; i < model.states.size() && i < 50 && i < initialStates.size(); ++i)
      err << " " << flat.vars[model.states[i]].name << " = " << brief(initialStates[i]);
    err << "\n";
    err << "  integration: " << formatNumber(std::round(integrateSeconds * 1e6) / 1e3) << " ms\n";
  }
  if (s.writeFailed) {
    err << "eqc: error: writing '" << opt.output << "' failed: " << std::strerror(errno) << "\n";
    return ExitOutput;
  }
  if (status == EQC_OK)
    return out.commit(opt.output, err) ? ExitOk : ExitOutput;

  // Failure: say where and why, keep what was computed under a different name.
  std::string at = "at time " + brief(stats.t_reached) + " (step size " + brief(stats.h_last, 3) + "): ";
  if (status == EQC_ERR_RHS) {
    reportModelCode(c, active->ode, active->simulation, stats.rhs_code, stats.t_reached);
  } else if (status == EQC_ERR_NONFINITE && stats.failed_component >= 0) {
    int v = active->states[stats.failed_component];
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
    if (!x.empty() && s.jit->rhs(stats.t_reached, x.data(), s.scratchDx.data(), s.a.data(), s.p.data()) == 0)
      for (size_t i = 0; i < x.size(); ++i) {
        double rate = std::fabs(s.scratchDx[i]) / (o.atol + o.rtol * std::fabs(x[i]));
        if (!(rate <= worst)) {
          worst = rate;
          fastest = static_cast<int>(i);
        }
      }
    if (fastest >= 0) {
      int v = active->states[fastest];
      c.diags->error(flat.vars[v].loc,
                     "simulation failed " + at + why + "; the fastest-changing variable is '" +
                         flat.vars[v].name + "' (" + flat.vars[v].name + " = " + brief(x[fastest], 3) +
                         ", der(" + flat.vars[v].name + ") = " + brief(s.scratchDx[fastest], 3) + ")");
    } else {
      c.diags->error(SourceRange{}, "simulation failed " + at + why);
    }
  }
  if (opt.output != "-") {
    std::string partial = opt.output + ".partial";
    if (out.commit(partial, err))
      err << "eqc: note: the results up to time " << brief(stats.t_reached) << " are in '" << partial
          << "'\n";
  }
  return ExitSimulation;
}

} // namespace eqc
