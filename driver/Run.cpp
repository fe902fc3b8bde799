// eqc simulate's runs: the model table of the JIT run by eqc_sim, or dummy derivatives in segments.
#include "driver/Run.h"

#include "driver/Events.h"
#include "driver/Initialize.h"
#include "driver/Interrupt.h"
#include "driver/ModelTable.h"
#include "driver/Simulate.h"
#include "runtime/include/eqc/eqc_model.h"
#include "runtime/src/SimulationReport.h"

#include <algorithm>

namespace eqc {
namespace {

/// Every model but dummy derivatives: the JIT's table (with the run's parameters and start
/// values) run by the runtime's engine, as a compiled object or an FMU runs.
class EngineRun final : public Run {
public:
  using Run::Run;

  ExitCode initialize(std::vector<double> &values, std::vector<double> &states, std::ostream &err) override {
    const OdeModel &model = *c_.model;
    InitialPoint start;
    if (ExitCode e = startPoint(c_, opt_.parameters, o_.t_start, start, err, inputs_); e != ExitOk)
      return e;
    table_ = ModelTable::forRun(c_, start);
    if (!table_) {
      err << "eqc: internal error: the Jacobian of the model's invariants could not be compiled\n";
      return ExitInternal;
    }
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
    if (eqc_sim_initialize(sim) != EQC_OK)
      return diagnoseInitialization(err);
    const double *p = eqc_sim_parameters(sim);
    std::vector<double> pv(p, p + model.pSize());
    gather(model, eqc_sim_states(sim), eqc_sim_derivatives(sim), eqc_sim_algebraics(sim), pv, values);
    states.assign(eqc_sim_states(sim), eqc_sim_states(sim) + model.states.size());
    return ExitOk;
  }

  ExitCode integrate(RunOutcome &r, std::ostream &) override {
    eqc_sim *sim = sim_.get();
    const OdeModel &model = *c_.model;
    eqc_sim_set_options(sim, &o_);
    eqc_sim_set_atol(sim, s_.variableAtol.empty() ? nullptr : stateTolerances().data());
    eqc_sim_set_step_callback(sim, afterStep, this);
    r.status = eqc_sim_run(sim, o_.t_end, writeEngineRow, this);
    r.stats = *eqc_sim_stats(sim, &r.worstInvariant);
    const rt::SimulationReport report = rt::simulationReport(sim);
    r.projections = report.projections;
    r.worstInvariantTime = report.worstInvariantTime;
    r.worstInvariantIndex = report.worstInvariantIndex;
    r.events = report.events;
    r.discretes = &model.discretes;
    r.active = &model;
    for (int j : table_->description().events.indicatorDiscrete)
      r.indicatorVariable.push_back(model.discretes[static_cast<size_t>(j)]);
    // The derivatives where the run ended (for a failure's fastest-changing variable).
    r.x.assign(eqc_sim_states(sim), eqc_sim_states(sim) + model.states.size());
    std::vector<double> a(eqc_sim_algebraics(sim), eqc_sim_algebraics(sim) + model.algebraics.size());
    const double *p = eqc_sim_parameters(sim);
    std::vector<double> pv(p, p + model.pSize());
    r.dx.assign(r.x.size(), 0.0);
    if (c_.jit->rhs(r.stats.t_reached, r.x.data(), r.dx.data(), a.data(), pv.data()) != 0)
      r.dx.clear();
    return ExitOk;
  }

private:
  /// After a failed eqc_sim_initialize: the driver's initialization again, which names the
  /// constraint, loop or variable; else the initial event iteration's failure.
  ExitCode diagnoseInitialization(std::ostream &err) {
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

  /// s.variableAtol over the states.
  const std::vector<double> &stateTolerances() {
    const OdeModel &model = *c_.model;
    atolStates_.resize(model.states.size());
    for (size_t i = 0; i < model.states.size(); ++i)
      atolStates_[i] = s_.variableAtol[static_cast<size_t>(model.states[i])];
    return atolStates_;
  }

  /// eqc_sim_input_fn over --input's series (which writes whole parameter vectors).
  static int applyInputs(void *user, double t, double *u) {
    auto *e = static_cast<EngineRun *>(user);
    for (size_t k = 0; k < e->inputIndex_.size(); ++k)
      e->inputParams_[static_cast<size_t>(e->inputIndex_[k])] = u[k];
    e->inputs_->apply(t, e->inputParams_.data());
    for (size_t k = 0; k < e->inputIndex_.size(); ++k)
      u[k] = e->inputParams_[static_cast<size_t>(e->inputIndex_[k])];
    return 0;
  }
  /// eqc_sim_jacobian_fn: the generated Jacobian, compiled when an implicit method first needs it.
  static int provideJacobian(void *user, eqc_model_jac_fn *jac, const eqc_sparsity **pattern) {
    auto *e = static_cast<EngineRun *>(user);
    *jac = e->c_.jit->jacobian();
    const SparsityPattern *sp = e->c_.jit->jacobianPattern();
    if (!*jac || !sp)
      return 1;
    e->s_.sparsity = {static_cast<int>(sp->nnz()), sp->colStart.data(), sp->rowIndex.data()};
    *pattern = &e->s_.sparsity;
    return 0;
  }
  /// eqc_sim_step_fn: an interrupt stops the run; the optimized tier starts when due and is
  /// followed once ready.
  static int afterStep(void *user, double, const double *) {
    auto *e = static_cast<EngineRun *>(user);
    if (pendingInterrupt())
      return 1;
    startTierWhenDue(e->s_);
    e->table_->followTier();
    return 0;
  }
  static int writeEngineRow(void *user, double t, const double *x, const double *dx, const double *a) {
    auto *e = static_cast<EngineRun *>(user);
    return writeRow(e->s_, t, x, dx, a, eqc_sim_parameters(e->sim_.get()));
  }

  std::unique_ptr<ModelTable> table_;
  std::unique_ptr<eqc_sim, void (*)(eqc_sim *)> sim_{nullptr, eqc_sim_free};
  std::vector<int> inputIndex_;      ///< the parameters that are inputs
  std::vector<double> inputParams_;  ///< scratch: the parameters as --input's series writes them
  std::vector<double> atolStates_;
};

/// Dummy derivatives with dynamic state selection: segments of compiled selections
/// (driver/StateSelection.cpp), the driver's own loop.
class DummyDerivativesRun final : public Run {
public:
  using Run::Run;

  ExitCode initialize(std::vector<double> &values, std::vector<double> &states, std::ostream &err) override {
    const FlatSystem &flat = *c_.flat;
    const OdeModel &model = *c_.model;
    InitialPoint ip;
    if (ExitCode e = consistentInitialPoint(c_, opt_.parameters, o_.t_start, ip, projector_, err, inputs_); e != ExitOk)
      return e;
    s_.p = ip.p;
    s_.a = ip.a;
    projector_->bindParameters(s_.p);
    s_.scratchDx.assign(model.states.size(), 0.0);
    s_.projector = projector_.get();
    x_ = ip.x;
    hasEvents_ = model.pSize() > model.params.size();
    if (hasEvents_) {
      // The discrete variables at the start (when initial() fires here).
      setupEvents(events_, flat, model, s_);
      s_.events = &events_;
      int code = eventIteration(events_, o_.t_start, x_.data(), nullptr, true);
      if (code != 0 && code != EQC_EVENT_TERMINATE) {
        if (code == kEventIterationCode) {
          std::string names;
          for (int v : unsettledVariables(events_))
            names += (names.empty() ? "" : ", ") + flat.vars[v].name;
          c_.diags->error(flat.loc, "at time " + brief(o_.t_start) + ": the event iteration of the initialization does "
                                    "not settle after 100 iterations (" + names + " keep changing)");
        } else {
          reportModelCode(c_, model.ode, model.simulation, code, o_.t_start);
        }
        return ExitSimulation;
      }
    }
    gather(model, x_.data(), ip.dx.data(), s_.a.data(), s_.p, values);
    dummy_.values = values;
    states = x_;
    return ExitOk;
  }

  ExitCode integrate(RunOutcome &r, std::ostream &err) override {
    const OdeModel &model = *c_.model;
    applyStateTolerances(s_, model, o_);
    // With events, no step spans an output interval (as OpenModelica integrates from output
    // point to output point).
    if (hasEvents_ && events_.indicators() > 0 && o_.interval > 0 && (o_.h_max == 0 || o_.h_max > o_.interval))
      o_.h_max = o_.interval;
    dummy_.c = &c_;
    s_.dummy = &dummy_;
    ExitCode failed = ExitOk;
    r.status = integrateWithStateSelection(c_, s_, dummy_, hasEvents_ ? &events_ : nullptr, o_, x_, r.stats, r.active,
                                           failed, err);
    if (failed != ExitOk)
      return failed;
    r.x = x_;
    r.dx.assign(x_.size(), 0.0);
    if (s_.jit->rhs(r.stats.t_reached, x_.data(), r.dx.data(), s_.a.data(), s_.p.data()) != 0)
      r.dx.clear();
    r.worstInvariant = s_.worstInvariant;
    r.worstInvariantTime = s_.worstInvariantTime;
    r.worstInvariantIndex = s_.worstInvariantIndex;
    r.projections = s_.projections;
    r.dummy = &dummy_;
    if (hasEvents_) {
      r.events = &events_.iteration;
      r.discretes = &events_.model->discretes;
      for (size_t k = 0; k < events_.indicators(); ++k)
        r.indicatorVariable.push_back(events_.conditionVariable(k));
    }
    return ExitOk;
  }

private:
  std::unique_ptr<InvariantProjector> projector_;
  std::vector<double> x_;
  bool hasEvents_ = false;
  EventRun events_;
  DummyRun dummy_;
};

} // namespace

std::unique_ptr<Run> makeRun(Compilation &c, const SimulateOptions &opt, eqc_options &o, RunState &s,
                             const InputSeries *inputs) {
  s.inputs = inputs;
  if (!c.model->invariants.residuals.empty() && c.reductionForm == "dummy")
    return std::make_unique<DummyDerivativesRun>(c, opt, o, s, inputs);
  return std::make_unique<EngineRun>(c, opt, o, s, inputs);
}

} // namespace eqc
