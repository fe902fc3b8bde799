// ORC LLJIT set-up: host target, LLVM's O2 pipeline, runtime and libm symbols.
#include "backend/Jit.h"

#include "backend/Codegen.h"
#include "backend/Optimize.h"
#include "runtime/include/eqc/eqc_runtime.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <chrono>
#include <mutex>

namespace eqc {

struct JitModel::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string jacSymbol, invariantJacSymbol, initialJacSymbol;
  eqc_model_jac_fn jac = nullptr;
  eqc_model_invjac_fn invariantJac = nullptr, initialJac = nullptr;
  SparsityPattern pattern; ///< of jac's values, set when the Jacobian module is generated
  bool havePattern = false;
  /// Generates and adds the Jacobian module on first use (IR generation is linear in the model but
  /// not free, and most runs never need a Jacobian).
  std::function<bool()> addJacobianModule;

  template <typename Fn> Fn lookup(const std::string &name, Fn &cache) {
    if (!cache) {
      if (addJacobianModule) {
        auto add = std::move(addJacobianModule);
        addJacobianModule = nullptr;
        if (!add())
          return nullptr;
      }
      auto sym = jit->lookup(name);
      if (!sym) {
        llvm::consumeError(sym.takeError());
        return nullptr;
      }
      cache = reinterpret_cast<Fn>(sym->getAddress());
    }
    return cache;
  }
};

JitModel::~JitModel() = default;

eqc_model_jac_fn JitModel::jacobian() { return impl->lookup(impl->jacSymbol, impl->jac); }
const SparsityPattern *JitModel::jacobianPattern() {
  if (!jacobian() || !impl->havePattern)
    return nullptr;
  return &impl->pattern;
}
eqc_model_invjac_fn JitModel::invariantJacobian() {
  return impl->lookup(impl->invariantJacSymbol, impl->invariantJac);
}
eqc_model_invjac_fn JitModel::initialConstraintJacobian() {
  return impl->lookup(impl->initialJacSymbol, impl->initialJac);
}

std::unique_ptr<JitModel> jitCompile(FlatSystem &flat, const OdeModel &model, const BackendOptions &options,
                                     std::string &error) {
  static std::once_flag targetsReady;
  std::call_once(targetsReady, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); };

  auto start = Clock::now();
  auto context = std::make_unique<llvm::LLVMContext>();
  ModelSymbols symbols = ModelSymbols::forPrefix("eqc_" + flat.modelName + "_");
  std::unique_ptr<llvm::Module> simulation = generateModelIR(flat, model, *context, symbols, ModelPart::Simulation);
  // The Jacobian module is generated now only when its IR is to be printed, else on first use.
  std::unique_ptr<llvm::Module> jacobian;
  SparsityPattern pattern;
  if (options.dumpIR)
    jacobian = generateModelIR(flat, model, *context, symbols, ModelPart::Jacobian, &pattern);
  if (options.timePhase)
    options.timePhase("codegen", seconds(start));
  if (options.dumpIR) {
    options.dumpIR(printModule(*simulation));
    options.dumpIR(printModule(*jacobian));
  }

  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    error = llvm::toString(jtmb.takeError());
    return nullptr;
  }
  jtmb->setCodeGenOptLevel(options.optLevel <= 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Default);
  auto tm = jtmb->createTargetMachine();
  if (!tm) {
    error = llvm::toString(tm.takeError());
    return nullptr;
  }
  const llvm::DataLayout layout = (*tm)->createDataLayout();
  const std::string triple = (*tm)->getTargetTriple().str();
  for (llvm::Module *m : {simulation.get(), jacobian.get()})
    if (m) {
      m->setDataLayout(layout);
      m->setTargetTriple(triple);
    }

  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  // Modules are optimized when first materialized, so the Jacobian costs nothing until used.
  std::shared_ptr<llvm::TargetMachine> sharedTm = std::move(*tm);
  // The transform outlives this call (the Jacobian is materialized later): it owns what it uses.
  auto optimizeSeconds = std::make_shared<double>(0.0);
  int optLevel = options.optLevel;
  auto dumpOptimized = options.dumpOptimizedIR;
  (*jit)->getIRTransformLayer().setTransform(
      [sharedTm, optLevel, dumpOptimized, optimizeSeconds, seconds](llvm::orc::ThreadSafeModule tsm,
                                                                    const llvm::orc::MaterializationResponsibility &) {
        tsm.withModuleDo([&](llvm::Module &m) {
          auto begin = Clock::now();
          setMachineScheduler(instructionCount(m) < kMachineSchedulerLimit);
          optimize(m, *sharedTm, optLevel);
          *optimizeSeconds += seconds(begin);
          if (dumpOptimized)
            dumpOptimized(printModule(m));
        });
        return llvm::Expected<llvm::orc::ThreadSafeModule>(std::move(tsm));
      });
  llvm::orc::JITDylib &lib = (*jit)->getMainJITDylib();
  // The runtime's entry points are linked into this process; libm comes from the process too.
  llvm::orc::SymbolMap runtime;
  auto exported = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
  runtime[(*jit)->mangleAndIntern("eqc_solve_block")] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&eqc_solve_block), exported);
  runtime[(*jit)->mangleAndIntern("eqc_linsolve")] =
      llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&eqc_linsolve), exported);
  if (auto err = lib.define(llvm::orc::absoluteSymbols(runtime))) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  auto generator = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!generator) {
    error = llvm::toString(generator.takeError());
    return nullptr;
  }
  lib.addGenerator(std::move(*generator));
  llvm::orc::ThreadSafeContext tsc(std::move(context));
  for (auto *m : {&simulation, &jacobian})
    if (*m)
      if (auto err = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(*m), tsc))) {
        error = llvm::toString(std::move(err));
        return nullptr;
      }
  start = Clock::now();
  auto result = std::make_unique<JitModel>();
  auto lookup = [&](const std::string &name, auto &fn) {
    auto sym = (*jit)->lookup(name);
    if (!sym) {
      error = llvm::toString(sym.takeError());
      return false;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym->getAddress());
    return true;
  };
  if (!lookup(symbols.rhs, result->rhs) || !lookup(symbols.init, result->init) ||
      !lookup(symbols.invariants, result->invariants) ||
      !lookup(symbols.initialConstraints, result->initialConstraints))
    return nullptr;
  if (!model.discretes.empty() && (!lookup(symbols.zc, result->zc) || !lookup(symbols.event, result->event)))
    return nullptr;
  if (options.timePhase) {
    options.timePhase("optimize", *optimizeSeconds);
    options.timePhase("jit", seconds(start) - *optimizeSeconds);
  }
  result->impl = std::make_unique<JitModel::Impl>();
  result->impl->jit = std::move(*jit);
  result->impl->jacSymbol = symbols.jac;
  result->impl->invariantJacSymbol = symbols.invariantJac;
  result->impl->initialJacSymbol = symbols.initialConstraintsJac;
  if (options.dumpIR) {
    result->impl->pattern = std::move(pattern);
    result->impl->havePattern = true;
  } else {
    // Requires (documented in Jit.h): `flat` and `model` outlive the JitModel.
    llvm::orc::LLJIT *raw = result->impl->jit.get();
    JitModel::Impl *impl = result->impl.get();
    result->impl->addJacobianModule = [&flat, &model, symbols, tsc, layout, triple, raw, impl]() mutable {
      auto lock = tsc.getLock();
      std::unique_ptr<llvm::Module> m =
          generateModelIR(flat, model, *tsc.getContext(), symbols, ModelPart::Jacobian, &impl->pattern);
      impl->havePattern = true;
      m->setDataLayout(layout);
      m->setTargetTriple(triple);
      if (auto err = raw->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), tsc))) {
        llvm::consumeError(std::move(err));
        return false;
      }
      return true;
    };
  }
  return result;
}

} // namespace eqc
