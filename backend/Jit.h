// In-process compilation: optimizes the generated IR and runs it through ORC LLJIT.
// The interface hides LLVM so that the driver and the tests need no LLVM headers.
#pragma once

#include "backend/ModelAbi.h"
#include "middle/FlatSystem.h"
#include "middle/JacobianPattern.h"
#include "middle/OdeModel.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace eqc {

/// With the automatic optimization level (and a second hardware thread) a model is compiled in two
/// tiers: first without optimization (FastISel, the fast register allocator, no IR passes: about
/// 4x faster to compile than -O2; a large model's on every hardware thread, backend/SplitCompile.h),
/// then with -O2 on a background thread, whose functions replace the first tier's when ready. The
/// second tier starts when JitModel::startTier() is called: eqc simulate does once a run has lasted
/// as long as the first tier took to compile, so that short runs (and commands that run nothing)
/// spend no core, and no code generation, on code they would not use. The two tiers compute
/// bitwise the same results (no fast-math, no contraction), only at different speeds
/// (bench/README.md). The Jacobian module, compiled on first use and called far less often than
/// the right-hand side, stays at -O0 (for an index-reduced model it is the largest module: -O2
/// made initialization of the double pendulum 7x slower).
struct BackendOptions {
  /// 0..3, LLVM's pipeline level for every module; -1 (automatic): the two tiers above.
  int optLevel = -1;
  std::function<void(const std::string &)> dumpIR;          ///< called with the IR before optimization
  std::function<void(const std::string &)> dumpOptimizedIR; ///< and after
  std::function<void(const char *phase, double seconds)> timePhase;
  /// The compiled-model cache's directory (backend/ObjectCache.h); empty: no cache.
  std::string cacheDirectory;
  /// Threads that compile the first tier of a large model (backend/SplitCompile.h); 0: every
  /// hardware thread.
  unsigned threads = 0;
  /// Runs of alike steps written as loops (backend/Codegen.h, CodegenOptions::loops).
  bool loops = true;
};

/// A compiled model: function pointers valid for the lifetime of this object. With two tiers the
/// pointers change (atomically) once, when the optimized code is ready: call them as
/// `jit.rhs(...)` each time rather than keeping a copy, to run the faster code as soon as it exists.
class JitModel {
public:
  ~JitModel();
  std::atomic<eqc_model_rhs_fn> rhs{nullptr};
  std::atomic<eqc_model_init_fn> init{nullptr};
  std::atomic<eqc_model_inv_fn> invariants{nullptr};
  std::atomic<eqc_model_inv_fn> initialConstraints{nullptr}; ///< invariants, then the initial equations
  std::atomic<eqc_model_zc_fn> zc{nullptr};                  ///< models with events: the event indicators
  std::atomic<eqc_model_event_fn> event{nullptr};            ///< models with events: the discrete update
  std::atomic<eqc_model_bind_fn> bind{nullptr};              ///< the dependent parameters
  std::atomic<eqc_model_start_fn> start{nullptr};            ///< the parameter-dependent start values
  std::atomic<eqc_model_discrete_start_fn> discreteStart{nullptr}; ///< models with events: the discretes' start values
  std::atomic<eqc_model_assert_fn> asserts{nullptr};         ///< models with assertions: their check
  std::atomic<eqc_model_delays_fn> delays{nullptr};          ///< models with delay(): their expressions
  std::atomic<eqc_model_bind_fn> objects{nullptr};           ///< models with external objects: made
  std::atomic<eqc_model_release_fn> release{nullptr};        ///< and freed
  std::atomic<eqc_model_zc_fn> indicatorSensitivities{nullptr}; ///< --sensitivities of models with events
  /// Whether the model is compiled in two tiers, and the seconds the background compilation of the
  /// optimized tier took once it is done (negative before; the reason on `tierError` if it failed).
  bool tiered() const;
  /// Starts the optimized tier's compilation on its thread (once; nothing without two tiers). Its
  /// module is generated first, here on the calling thread (the code generator is not
  /// thread-safe); a cached one is only loaded.
  void startTier();
  bool tierStarted() const;
  double tierSeconds() const;
  std::string tierError() const;
  /// Modules whose machine code came from the compiled-model cache, and modules stored into it so
  /// far; the last problem writing it (empty if none).
  /// Starts the optimized tier if needed and blocks until it is done (compiled and, with a cache,
  /// stored); at once when there is none.
  void waitForTier();
  /// How many modules the simulation functions were compiled as (more than one: on `threads()`
  /// threads at once, backend/SplitCompile.h).
  unsigned modules() const;
  unsigned threads() const;
  int cacheHits() const;
  int cacheStores() const;
  std::string cacheError() const;
  /// The ODE Jacobian's values in the order of jacobianPattern(), compiled on first use (most
  /// runs never need it); nullptr on failure.
  eqc_model_jac_fn jacobian();
  /// The structure of jacobian()'s values (compressed sparse columns over the states); compiles
  /// the Jacobian when needed; nullptr on failure.
  const SparsityPattern *jacobianPattern();
  /// The Jacobian of the invariants, compiled on first use; nullptr on failure.
  eqc_model_invjac_fn invariantJacobian();
  /// The Jacobian of the initial constraints, compiled on first use; nullptr on failure.
  eqc_model_invjac_fn initialConstraintJacobian();

  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Makes LLVM call `handler` (which must not return) when it runs out of memory, instead of
/// printing its own message and aborting.
void setLlvmOutOfMemoryHandler(void (*handler)());

/// The directory of the compiled-model cache: $EQC_CACHE_DIR, else $XDG_CACHE_HOME/eqc, else
/// $HOME/.cache/eqc; empty when none of them is set.
std::string defaultCacheDirectory();

/// Requires: a causalized OdeModel; `flat` and `model` outlive the JitModel (its Jacobians are
/// generated from them on first use). Ensures: a JitModel, or nullptr with `error` set (LLVM
/// failures are internal errors or resource problems, not user errors).
std::unique_ptr<JitModel> jitCompile(FlatSystem &flat, const OdeModel &model, const BackendOptions &options,
                                     std::string &error);

} // namespace eqc
