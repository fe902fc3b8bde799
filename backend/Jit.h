// In-process compilation: optimizes the generated IR and runs it through ORC LLJIT.
// The interface hides LLVM so that the driver and the tests need no LLVM headers.
#pragma once

#include "backend/ModelAbi.h"
#include "middle/FlatSystem.h"
#include "middle/JacobianPattern.h"
#include "middle/OdeModel.h"

#include <functional>
#include <memory>
#include <string>

namespace eqc {

struct BackendOptions {
  int optLevel = 2;                         ///< 0..3, LLVM's pipeline level
  std::function<void(const std::string &)> dumpIR;          ///< called with the IR before optimization
  std::function<void(const std::string &)> dumpOptimizedIR; ///< and after
  std::function<void(const char *phase, double seconds)> timePhase;
};

/// A compiled model: function pointers valid for the lifetime of this object.
class JitModel {
public:
  ~JitModel();
  eqc_model_rhs_fn rhs = nullptr;
  eqc_model_init_fn init = nullptr;
  eqc_model_inv_fn invariants = nullptr;
  eqc_model_inv_fn initialConstraints = nullptr; ///< invariants, then the initial equations
  eqc_model_zc_fn zc = nullptr;        ///< models with events: the event indicators
  eqc_model_event_fn event = nullptr;  ///< models with events: the discrete update
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

/// Requires: a causalized OdeModel; `flat` and `model` outlive the JitModel (its Jacobians are
/// generated from them on first use). Ensures: a JitModel, or nullptr with `error` set (LLVM
/// failures are internal errors or resource problems, not user errors).
std::unique_ptr<JitModel> jitCompile(FlatSystem &flat, const OdeModel &model, const BackendOptions &options,
                                     std::string &error);

} // namespace eqc
