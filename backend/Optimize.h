// LLVM's optimization pipeline and the code-generation settings shared by the JIT and object-file
// emission, so that both produce the same machine code for the same module.
#pragma once

#include <cstddef>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace eqc {

/// The module as LLVM assembly text.
std::string printModule(const llvm::Module &m);

/// Instructions in all functions of the module.
size_t instructionCount(const llvm::Module &m);

/// LLVM's machine scheduler is superlinear on the huge straight-line blocks of big models and
/// buys them nothing measurable (bench/README.md): on for modules below kMachineSchedulerLimit
/// instructions (before optimization), off above.
constexpr size_t kMachineSchedulerLimit = 5000;
void setMachineScheduler(bool enabled);

/// Runs LLVM's default pipeline for `level` (0..3) on the module.
void optimize(llvm::Module &m, llvm::TargetMachine &tm, int level);

} // namespace eqc
