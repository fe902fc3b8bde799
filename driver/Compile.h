// `eqc compile`: a model as an object file (with a C header), assembly or LLVM IR.
#pragma once

#include "driver/ExitCodes.h"
#include "driver/Pipeline.h"

#include <ostream>
#include <string>

namespace eqc {

struct CompileOptions {
  std::string output;       ///< the object (or .s / .ll / .so) file; empty: <Model>.o, .s, .ll, lib<Model>.so
  std::string emit = "obj"; ///< obj | asm | llvm
  std::string target;       ///< an LLVM target triple; empty: the host
  std::string cpu;          ///< empty: the target's baseline; "native": the host's; or an LLVM CPU name
  bool shared = false;      ///< link the object and the static runtime into a shared library (cc)
  bool fmu = false;         ///< an FMI 2.0 FMU (Model Exchange and Co-Simulation) for linux64
  int optLevel = 2;
};

/// Requires: a Compilation for which runPipeline returned ExitOk (with the JIT: the table's start
/// values are the consistent initial point, computed as `simulate` does). Ensures: the output, and
/// for objects `<output stem>.h` declaring `const eqc_model *eqc_model_<Model>(void)`, each written
/// whole or not at all; or a message and ExitOutput (unwritable path), ExitUsage (bad --emit or
/// --target), or the initialization's exit code.
ExitCode compileModel(Compilation &c, const CompileOptions &options, std::ostream &err);

/// The checks of compileModel that need no model (--emit, --shared/--fmu combinations, target and
/// CPU, what linking for the target needs), so that a bad option stops before any work: ExitOk, or
/// ExitUsage with a message.
ExitCode checkCompileOptions(const CompileOptions &options, std::ostream &err);

} // namespace eqc
