// LLVM IR generation for a causalized model: right-hand side, initialization and ODE Jacobian.
#pragma once

#include "middle/FlatSystem.h"
#include "middle/OdeModel.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace eqc {

/// Names of the generated entry points: `<prefix>rhs`, `<prefix>init`, `<prefix>jac`.
struct ModelSymbols {
  std::string rhs, init, jac;
  static ModelSymbols forPrefix(const std::string &prefix) {
    return {prefix + "rhs", prefix + "init", prefix + "jac"};
  }
};

/// Requires: a causalized OdeModel. Ensures: a verified module defining the functions of
/// backend/ModelAbi.h under `symbols`, which call eqc_solve_block/eqc_linsolve of the runtime.
std::unique_ptr<llvm::Module> generateModelIR(FlatSystem &flat, const OdeModel &model,
                                              llvm::LLVMContext &context, const ModelSymbols &symbols);

} // namespace eqc
