// The eqc_model function table (runtime/include/eqc/eqc_model.h) of a JIT-compiled model, so that
// a C++ program can run it through eqc_sim like a compiled object's table.
#pragma once

#include "driver/Pipeline.h"
#include "runtime/include/eqc/eqc_model.h"

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace eqc {

/// Owns the names, default values and sparsity pattern that its eqc_model points at.
class ModelTable {
public:
  /// Requires: `c` compiled by runPipeline (ExitOk); it must outlive the table. Index-reduced
  /// models are tabled in their invariants form (eqc_sim projects onto the invariants). The
  /// parameter defaults are the model's values with dependent parameters evaluated; the start
  /// values are the consistent initial point at time t0. Compiles the Jacobians now. Ensures: a
  /// table, or nullptr with the reason on `err`.
  static std::unique_ptr<ModelTable> build(Compilation &c, double t0, std::ostream &err);

  const eqc_model &model() const { return model_; }

private:
  std::string name_;
  std::string description_, reduction_;
  std::vector<std::string> stateNames_, algebraicNames_, paramNames_, stateDescriptions_, algebraicDescriptions_,
      paramDescriptions_;
  std::vector<const char *> statePtrs_, algebraicPtrs_, paramPtrs_, stateDescriptionPtrs_, algebraicDescriptionPtrs_,
      paramDescriptionPtrs_;
  std::vector<double> params_, states_, algebraics_;
  eqc_sparsity pattern_{};
  eqc_model model_{};
};

} // namespace eqc
