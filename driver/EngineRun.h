// A run of `eqc simulate` through the runtime's engine: the JIT's model table (with the run's
// parameters and start values) run by eqc_sim, as a compiled object or an FMU runs
// (driver-internal; driver/Run.h).
#pragma once

#include "driver/ModelTable.h"
#include "driver/Run.h"
#include "runtime/include/eqc/eqc_model.h"

#include <memory>
#include <vector>

namespace eqc {

class EngineRun : public Run {
public:
  using Run::Run;

  ExitCode initialize(std::vector<double> &values, std::vector<double> &states, std::ostream &err) override;
  ExitCode integrate(RunOutcome &r, std::ostream &err) override;

protected:
  /// Options, per-state tolerances of the active table's states, the step callback.
  void configure(const eqc_options &o, const OdeModel &active);
  /// r's statistics and the report's details from the simulation (r.active set).
  void fillOutcome(RunOutcome &r);
  /// After every accepted step, besides the interrupt and the optimized tier: non-zero stops the
  /// run there (EQC_ERR_STOPPED).
  virtual int monitor(double /*t*/, const double * /*x*/) { return 0; }
  /// One output row at t from the simulation's arrays.
  virtual int row(double t, const double *x, const double *dx, const double *a);
  /// After a run that ended with `status`: the terminal event (terminal(), MLS 3.5, 3.7.2) when
  /// the run succeeded and the model has one; what it changes is one more row. The status then.
  int terminalEvent(int status);
  /// The simulation's p (parameters, then the discrete part).
  const double *parameters() const { return eqc_sim_parameters(sim_.get()); }

  /// eqc_sim_output_fn: row().
  static int writeRow(void *user, double t, const double *x, const double *dx, const double *a);

  std::unique_ptr<ModelTable> table_; ///< of c_.model
  ModelTable *activeTable_ = nullptr; ///< the table running (its tier followed)
  std::unique_ptr<eqc_sim, void (*)(eqc_sim *)> sim_{nullptr, eqc_sim_free};

private:
  ExitCode diagnoseInitialization(std::ostream &err);
  static int applyInputs(void *user, double t, double *u);
  static int provideJacobian(void *user, eqc_model_jac_fn *jac, const eqc_sparsity **pattern);
  static int afterStep(void *user, double t, const double *x);
  static void warnAssertion(void *user, double t, int assertion, const char *message);

  std::vector<int> inputIndex_;     ///< the parameters that are inputs
  std::vector<double> inputParams_; ///< scratch: the parameters as --input's series writes them
  std::vector<double> atolStates_;
};

/// Dummy derivatives with dynamic state selection (driver/StateSelection.cpp).
std::unique_ptr<Run> makeDummyDerivativesRun(Compilation &c, const SimulateOptions &opt, eqc_options &o, RunState &s,
                                             const InputSeries *inputs);

} // namespace eqc
