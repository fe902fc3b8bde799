// The optimization pipeline and code-generation switches of the JIT and object files.
#include "backend/Optimize.h"

#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace eqc {

std::string printModule(const llvm::Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  return os.str();
}

size_t instructionCount(const llvm::Module &m) {
  size_t n = 0;
  for (const llvm::Function &f : m)
    n += f.getInstructionCount();
  return n;
}

void setMachineScheduler(bool enabled) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("enable-misched");
  if (it != options.end())
    if (auto *opt = static_cast<llvm::cl::opt<bool> *>(it->second)) {
      // The pass reads the option only once it has occurred (else it takes the subtarget's
      // default), so the first setting counts as an occurrence; an option may occur once.
      if (opt->getNumOccurrences() == 0)
        opt->addOccurrence(0, "enable-misched", enabled ? "true" : "false");
      else
        opt->setValue(enabled);
    }
}

void optimize(llvm::Module &m, llvm::TargetMachine &tm, int level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel ol = level <= 0   ? llvm::OptimizationLevel::O0
                               : level == 1 ? llvm::OptimizationLevel::O1
                               : level == 2 ? llvm::OptimizationLevel::O2
                                            : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm = level <= 0 ? pb.buildO0DefaultPipeline(ol) : pb.buildPerModuleDefaultPipeline(ol);
  mpm.run(m, mam);
}

} // namespace eqc
