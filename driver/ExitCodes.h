// The exit statuses of `eqc`, documented in README.md.
#pragma once

namespace eqc {

enum ExitCode : int {
  ExitOk = 0,
  ExitUsage = 1,      ///< bad command line
  ExitInput = 2,      ///< the model file cannot be read
  ExitModel = 3,      ///< syntax, name, type or balance errors in the model
  ExitStructure = 4,  ///< structurally singular system (incl. index > 1), bad initialization problem
  ExitSimulation = 5, ///< initialization or integration failed numerically
  ExitOutput = 6,     ///< the result file cannot be written
  ExitMemory = 7,     ///< out of memory (the model is too large for the memory available)
  ExitInternal = 70,  ///< a bug in eqc
};

} // namespace eqc
