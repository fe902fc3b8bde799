// The eqc_model function table (runtime/include/eqc/eqc_model.h) of a JIT-compiled model, so that
// a C++ program can run it through eqc_sim like a compiled object's table.
#pragma once

#include "backend/ObjectFile.h"
#include "driver/Initialize.h"
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
  /// The table of one run of `eqc simulate`: the parameters and start values of `start` (the
  /// run's, with -p), no bind or start function (the values are evaluated), and no Jacobian (a
  /// provider compiles it when an implicit method needs it). Requires: as build. Ensures: a
  /// table, or nullptr when the invariants' Jacobian cannot be compiled.
  static std::unique_ptr<ModelTable> forRun(Compilation &c, const InitialPoint &start);
  /// The same for another compiled form of c's model (a state selection of dummy derivatives):
  /// `start` holds its states and algebraic variables.
  static std::unique_ptr<ModelTable> forRun(const FlatSystem &flat, const OdeModel &model, JitModel &jit,
                                            const InitialPoint &start);
  /// Points the functions at the JIT's tier in use now (the optimized one once it is ready;
  /// both compute the same bits). Call between steps, never during an evaluation.
  void followTier();
  /// The table with the functions of the tier in use now: a copy for a simulation started on
  /// another thread while the tier may change (its arrays are this table's).
  eqc_model current() const;

  const eqc_model &model() const { return model_; }
  const ModelDescription &description() const { return desc_; }

private:
  /// Points the table at desc_ and c's functions (the ODE Jacobian only with `jacobian`); false
  /// when a Jacobian cannot be compiled.
  bool fill(const OdeModel &m, JitModel &jit, bool jacobian);

  JitModel *jit_ = nullptr;
  ModelDescription desc_;
  std::vector<const char *> statePtrs_, algebraicPtrs_, paramPtrs_, stateDescriptionPtrs_, algebraicDescriptionPtrs_,
      paramDescriptionPtrs_, discretePtrs_;
  eqc_sparsity pattern_{};
  /// The constraint Jacobians' patterns (the invariants', the initial constraints').
  SparsityPattern invariantPattern_, initialPattern_;
  eqc_sparsity invariantSparsity_{}, initialSparsity_{};
  eqc_model model_{};
};

} // namespace eqc
