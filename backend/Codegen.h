// LLVM IR generation for a causalized model: right-hand side, initialization and ODE Jacobian.
#pragma once

#include "middle/FlatSystem.h"
#include "middle/JacobianPattern.h"
#include "middle/OdeModel.h"
#include "middle/StepRuns.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace eqc {

/// Names of the generated entry points: `<prefix>rhs`, `<prefix>init`, `<prefix>jac`.
struct ModelSymbols {
  std::string rhs, init, jac, invariants, invariantJac, initialConstraints, initialConstraintsJac;
  std::string prefix; ///< of every symbol of the model (its constants too)
  std::string zc, event; ///< models with events: event indicators and the discrete update
  std::string bind, start; ///< dependent parameters and parameter-dependent start values (eqc_model.h)
  std::string discreteStart; ///< models with events: the discrete variables' start values
  std::string asserts;       ///< models with assertions: their check (eqc_model_assert_fn)
  std::string delays;        ///< models with delay(): their expressions (eqc_model_delays_fn)
  std::string objects, release; ///< external objects: made and freed (eqc_model.h)
  std::string indicatorSensitivities; ///< --sensitivities of models with events (eqc_model.h)
  static ModelSymbols forPrefix(const std::string &prefix) {
    return {prefix + "rhs",
            prefix + "init",
            prefix + "jac",
            prefix + "invariants",
            prefix + "invariants_jac",
            prefix + "initial_constraints",
            prefix + "initial_constraints_jac",
            prefix,
            prefix + "zc",
            prefix + "event",
            prefix + "bind",
            prefix + "start",
            prefix + "discrete_start",
            prefix + "asserts",
            prefix + "delays",
            prefix + "objects",
            prefix + "release",
            prefix + "zc_sensitivities"};
  }
};

/// Whether the model has eqc_model.indicator_sensitivities: sensitivities and event indicators.
inline bool hasIndicatorSensitivities(const FlatSystem &flat, const OdeModel &model) {
  if (flat.sensitivities.empty())
    return false;
  for (int v : model.discretes)
    if (flat.vars[v].relation)
      return true;
  return false;
}

/// Which functions a module holds: for the JIT the ODE Jacobian and the constraint Jacobians (of the
/// invariants and the initial constraints) go in modules of their own, each compiled only when first
/// asked for (initialization needs only the constraint Jacobians; explicit methods need neither);
/// object files hold all of them.
enum class ModelPart { Simulation, Jacobian, ConstraintJacobians, All };

/// One of `count` modules that together hold a model's simulation functions (so that they
/// compile on several threads, each in a context of its own): the entry points and their parts
/// are dealt round-robin over the modules, each defined in one and declared in the others (the
/// parts then external and hidden); the helpers they call (user functions, the residuals of
/// nonlinear blocks) are defined, internal, in each module that calls them.
struct ModuleSplit {
  unsigned index = 0, count = 1;
};

/// A constraint Jacobian's entries: per residual, (place in the values array, partial derivative
/// by a state) for each state it contains, places as constraintJacobianPattern orders them.
using ConstraintJacobianEntries = std::vector<std::vector<std::pair<long, const Expr *>>>;

/// How the functions that grow with a model are written: runs of alike items (middle/StepRuns.h)
/// as loops, so that an array equation's code does not grow with the array.
struct ModelRuns {
  std::vector<StepRun> ode, init;               ///< of the causal sequences' steps
  std::vector<StepRun> invariants, initialConstraints; ///< of their residuals
  std::vector<int> starts;                      ///< positions in states of the parameter-dependent starts
  std::vector<StepRun> startRuns;               ///< of those start values
  ConstraintJacobianEntries invariantJacobian, initialConstraintJacobian;
  std::vector<StepRun> invariantJacobianRuns, initialConstraintJacobianRuns; ///< of their rows
};
/// Requires: a causalized OdeModel of `flat`. Ensures: with `loops`, the runs findRuns finds;
/// without, every item on its own (straight-line code, as a reference in tests); the constraint
/// Jacobians' entries differentiated once for every module that writes them.
std::shared_ptr<const ModelRuns> modelRuns(const FlatSystem &flat, const OdeModel &model, bool loops);

/// How the model's functions are written.
struct CodegenOptions {
  ModuleSplit split;
  /// From modelRuns (found once for all the modules and tiers of a compilation); null: found by
  /// generateModelIR, with loops.
  std::shared_ptr<const ModelRuns> runs;
};

/// Causal steps, residuals and start values per module below which a split does not pay (worker
/// start, one context per module, helpers copied into each module that calls them).
constexpr std::size_t kStepsPerModule = 2048;
/// Modules per thread: more modules than threads let the compilation of the first ones overlap
/// the generation of the last ones (backend/SplitCompile.h).
constexpr unsigned kModulesPerThread = 4;

/// How many modules to write `items` causal steps, residuals or start values as for `threads`
/// threads: 1 (do not split) for few items or one thread.
unsigned modulesFor(std::size_t items, unsigned threads);
/// The items of a model's simulation functions (a run of alike steps written as a loop counts
/// once), and of its constraint Jacobians.
std::size_t simulationItems(const ModelRuns &runs);
std::size_t constraintJacobianItems(const ModelRuns &runs);

/// Requires: a causalized OdeModel; a split only for ModelPart::Simulation of a model without
/// delays or for ModelPart::ConstraintJacobians. Ensures: a verified module defining the functions of
/// backend/ModelAbi.h under `symbols` (rhs and init, or jac and the invariant Jacobians), which
/// call eqc_solve_block, eqc_linsolve and eqc_constraint_jacobian_fd of the runtime; for
/// ModelPart::Jacobian and All, `*jacobianPattern` (when given) receives the pattern whose
/// values jac writes.
std::unique_ptr<llvm::Module> generateModelIR(FlatSystem &flat, const OdeModel &model, llvm::LLVMContext &context,
                                              const ModelSymbols &symbols, ModelPart part,
                                              SparsityPattern *jacobianPattern = nullptr,
                                              const CodegenOptions &options = {});

} // namespace eqc
