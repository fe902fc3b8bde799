// eqc simulate's runs: the model table of the JIT run by eqc_sim, or dummy derivatives in segments.
#include "driver/Run.h"

#include "driver/EngineRun.h"

#include "driver/Events.h"
#include "driver/Initialize.h"
#include "driver/Interrupt.h"
#include "driver/ModelTable.h"
#include "driver/Simulate.h"
#include "runtime/include/eqc/eqc_model.h"
#include "runtime/src/SimulationDriver.h"

#include <algorithm>

namespace eqc {

ExitCode EngineRun::initialize(std::vector<double> &values, std::vector<double> &states, std::ostream &err) {
  const OdeModel &model = *c_.model;
  InitialPoint start;
  if (ExitCode e = startPoint(c_, opt_.parameters, o_.t_start, start, err, inputs_); e != ExitOk)
    return e;
  table_ = ModelTable::forRun(c_, start);
  if (!table_) {
    err << "eqc: internal error: the Jacobian of the model's invariants could not be compiled\n";
    return ExitInternal;
  }
  activeTable_ = table_.get();
  sim_.reset(eqc_sim_new(&table_->model()));
  if (!sim_) {
    err << "eqc: internal error: the model's table is invalid\n";
    return ExitInternal;
  }
  eqc_sim *sim = sim_.get();
  rt::keepEventLog(sim);
  eqc_sim_set_time(sim, o_.t_start);
  if (!model.invariants.residuals.empty())
    eqc_sim_set_projection(sim, model.stabilization == Stabilization::Projection);
  if (inputs_) {
    inputParams_.assign(model.params.size(), 0.0);
    for (size_t k = 0; k < model.params.size(); ++k)
      if (c_.flat->vars[model.params[k]].role == VarRole::Input)
        inputIndex_.push_back(static_cast<int>(k));
    eqc_sim_set_input_function(sim, applyInputs, this);
  }
  eqc_sim_set_jacobian(sim, s_.linearSolver, provideJacobian, this);
  s_.discreteOffset = model.discreteOffset();
  eqc_sim_set_warning_callback(sim, warnAssertion, this);
  if (int status = eqc_sim_initialize(sim); status == EQC_ERR_ASSERTION) {
    const rt::SimulationReport report = rt::simulationReport(sim);
    reportAssertion(c_, report.failedAssertion, report.assertMessage, report.assertTime, false);
    return ExitSimulation;
  } else if (status != EQC_OK) {
    return diagnoseInitialization(err);
  }
  gather(model, eqc_sim_states(sim), eqc_sim_derivatives(sim), eqc_sim_algebraics(sim), parameters(), values);
  states.assign(eqc_sim_states(sim), eqc_sim_states(sim) + model.states.size());
  return ExitOk;
}

ExitCode EngineRun::integrate(RunOutcome &r, std::ostream &) {
  configure(o_, *c_.model);
  r.status = terminalEvent(eqc_sim_run(sim_.get(), o_.t_end, writeRow, this));
  r.stats = *eqc_sim_stats(sim_.get(), &r.worstInvariant);
  const rt::SimulationReport report = rt::simulationReport(sim_.get());
  r.worstInvariantTime = report.worstInvariantTime;
  r.worstInvariantIndex = report.worstInvariantIndex;
  r.active = &*c_.model;
  fillOutcome(r);
  return ExitOk;
}

int EngineRun::terminalEvent(int status) {
  if (status != EQC_OK || c_.flat->terminal < 0)
    return status;
  eqc_sim *sim = sim_.get();
  int changed = 0;
  status = eqc_sim_terminate(sim, &changed);
  if (status == EQC_OK && changed &&
      row(eqc_sim_time(sim), eqc_sim_states(sim), eqc_sim_derivatives(sim), eqc_sim_algebraics(sim)) != 0)
    status = EQC_ERR_STOPPED;
  return status;
}

void EngineRun::configure(const eqc_options &o, const OdeModel &active) {
  eqc_sim *sim = sim_.get();
  eqc_sim_set_options(sim, &o);
  if (!s_.variableAtol.empty()) {
    atolStates_.resize(active.states.size());
    for (size_t i = 0; i < active.states.size(); ++i)
      atolStates_[i] = s_.variableAtol[static_cast<size_t>(active.states[i])];
    eqc_sim_set_atol(sim, atolStates_.data());
  }
  eqc_sim_set_step_callback(sim, afterStep, this);
}

void EngineRun::fillOutcome(RunOutcome &r) {
  eqc_sim *sim = sim_.get();
  const OdeModel &model = *c_.model;
  const rt::SimulationReport report = rt::simulationReport(sim);
  r.projections += report.projections;
  r.events = report.events;
  r.discretes = &model.discretes;
  r.failedAssertion = report.failedAssertion;
  r.assertMessage = report.assertMessage;
  r.assertTime = report.assertTime;
  for (int j : table_->description().events.indicatorDiscrete)
    r.indicatorVariable.push_back(model.discretes[static_cast<size_t>(j)]);
  // Where the run ended, with the derivatives there (a failure's fastest-changing variable).
  const size_t n = r.active->states.size();
  r.x.assign(eqc_sim_states(sim), eqc_sim_states(sim) + n);
  if (report.endPointValid)
    r.dx.assign(eqc_sim_derivatives(sim), eqc_sim_derivatives(sim) + n);
}

int EngineRun::row(double t, const double *x, const double *dx, const double *a) {
  return eqc::writeRow(s_, t, x, dx, a, parameters());
}

/// After a failed eqc_sim_initialize: the driver's initialization again, which names the
/// constraint, loop or variable; else the initial event iteration's failure.
ExitCode EngineRun::diagnoseInitialization(std::ostream &err) {
  InitialPoint ip;
  std::unique_ptr<InvariantProjector> projector;
  if (ExitCode e = consistentInitialPoint(c_, opt_.parameters, o_.t_start, ip, projector, err, inputs_); e != ExitOk)
    return e;
  const FlatSystem &flat = *c_.flat;
  const OdeModel &model = *c_.model;
  const rt::SimulationReport report = rt::simulationReport(sim_.get());
  if (report.failureCode == kEventIterationCode && report.events) {
    std::string names;
    for (int j : report.events->unsettled())
      names += (names.empty() ? "" : ", ") + flat.vars[model.discretes[static_cast<size_t>(j)]].name;
    c_.diags->error(flat.loc, "at time " + brief(o_.t_start) + ": the event iteration of the initialization does not "
                              "settle after 100 iterations (" + names + " keep changing)");
  } else if (report.failureCode != 0) {
    reportModelCode(c_, model.ode, model.simulation, report.failureCode, o_.t_start);
  } else {
    c_.diags->error(flat.loc, eqc_sim_last_error(sim_.get()));
  }
  return ExitSimulation;
}

/// eqc_sim_warning_fn: a warning-level assertion failed (once per run).
void EngineRun::warnAssertion(void *user, double t, int assertion, const char *message) {
  auto *e = static_cast<EngineRun *>(user);
  reportAssertion(e->c_, assertion, message, t, true);
}

/// eqc_sim_input_fn over --input's series (which writes whole parameter vectors).
int EngineRun::applyInputs(void *user, double t, double *u) {
  auto *e = static_cast<EngineRun *>(user);
  for (size_t k = 0; k < e->inputIndex_.size(); ++k)
    e->inputParams_[static_cast<size_t>(e->inputIndex_[k])] = u[k];
  e->inputs_->apply(t, e->inputParams_.data());
  for (size_t k = 0; k < e->inputIndex_.size(); ++k)
    u[k] = e->inputParams_[static_cast<size_t>(e->inputIndex_[k])];
  return 0;
}

/// eqc_sim_jacobian_fn: the active table's generated Jacobian, compiled when an implicit method
/// first needs it.
int EngineRun::provideJacobian(void *user, eqc_model_jac_fn *jac, const eqc_sparsity **pattern) {
  auto *e = static_cast<EngineRun *>(user);
  JitModel &jit = *e->s_.jit;
  *jac = jit.jacobian();
  const SparsityPattern *sp = jit.jacobianPattern();
  if (!*jac || !sp)
    return 1;
  e->s_.sparsity = {static_cast<int>(sp->nnz()), sp->colStart.data(), sp->rowIndex.data()};
  *pattern = &e->s_.sparsity;
  return 0;
}

/// eqc_sim_step_fn: an interrupt stops the run; the optimized tier starts when due and is
/// followed once ready; then the monitor.
int EngineRun::afterStep(void *user, double t, const double *x) {
  auto *e = static_cast<EngineRun *>(user);
  if (pendingInterrupt())
    return 1;
  startTierWhenDue(e->s_);
  e->activeTable_->followTier();
  return e->monitor(t, x);
}

int EngineRun::writeRow(void *user, double t, const double *x, const double *dx, const double *a) {
  return static_cast<EngineRun *>(user)->row(t, x, dx, a);
}

std::unique_ptr<Run> makeRun(Compilation &c, const SimulateOptions &opt, eqc_options &o, RunState &s,
                             const InputSeries *inputs) {
  s.inputs = inputs;
  s.jit = c.jit.get();
  if (!c.model->invariants.residuals.empty() && c.reductionForm == "dummy")
    return makeDummyDerivativesRun(c, opt, o, s, inputs);
  return std::make_unique<EngineRun>(c, opt, o, s, inputs);
}

} // namespace eqc
