// The eqc_model function table (runtime/include/eqc/eqc_model.h) of a JIT-compiled model, so that
// a C++ program can run it through eqc_sim like a compiled object's table.
#pragma once

#include "backend/ObjectFile.h"
#include "driver/Pipeline.h"
#include "runtime/include/eqc/eqc_model.h"

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace eqc {

/// Owns the names, default values and sparsity pattern that its eqc_model points at (the values as
/// a ModelDescription, which `eqc compile` writes into objects).
class ModelTable {
public:
  /// Requires: `c` compiled by runPipeline (ExitOk); it must outlive the table. Index-reduced
  /// models are tabled in their invariants form (eqc_sim projects onto the invariants). The
  /// parameter defaults are the model's values with dependent parameters evaluated; the start
  /// values are the consistent initial point at time t0. Compiles the Jacobians now. Ensures: a
  /// table, or nullptr with the reason on `err`.
  static std::unique_ptr<ModelTable> build(Compilation &c, double t0, std::ostream &err);
  /// What build puts in the table's constants (names, defaults, kinds, the consistent initial
  /// point, the event description), without compiling anything: what `eqc compile` needs.
  static std::optional<ModelDescription> describe(Compilation &c, double t0, std::ostream &err);

  const eqc_model &model() const { return model_; }
  const ModelDescription &description() const { return desc_; }

private:
  ModelDescription desc_;
  std::vector<const char *> statePtrs_, algebraicPtrs_, paramPtrs_, stateDescriptionPtrs_, algebraicDescriptionPtrs_,
      paramDescriptionPtrs_, discretePtrs_;
  eqc_sparsity pattern_{};
  eqc_model model_{};
};

} // namespace eqc
