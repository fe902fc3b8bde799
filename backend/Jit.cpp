// ORC LLJIT set-up: host target, LLVM's pipeline (two tiers at the automatic level), the
// compiled-model cache, runtime and libm symbols.
#include "backend/Jit.h"

#include "backend/Codegen.h"
#include "backend/ObjectCache.h"
#include "backend/Optimize.h"
#include "backend/SplitCompile.h"
#include "middle/Function.h"
#include "runtime/include/eqc/eqc_external.h"
#include "runtime/include/eqc/eqc_runtime.h"

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <chrono>
#include <mutex>
#include <system_error>
#include <thread>

namespace eqc {

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

/// An LLJIT for the host at one optimization level: modules are optimized when first materialized
/// (so a Jacobian costs nothing until used); the runtime's entry points and the process's symbols
/// (libm) are visible. `optimizeSeconds` accumulates the time of the IR passes. With a cache,
/// modules whose identifier is a cache key are taken from it when it has them (not optimized:
/// the compiler returns the cached object) and stored into it when compiled.
/// The C functions that external functions of `flat` call (MLS 3.5, 12.9), as loaded by the
/// frontend (each symbol once).
using ExternalSymbols = std::vector<std::pair<std::string, void *>>;
ExternalSymbols externalSymbols(const FlatSystem &flat) {
  ExternalSymbols out;
  std::function<void(const std::vector<FnStatement> &)> visit = [&](const std::vector<FnStatement> &block) {
    for (const FnStatement &s : block) {
      if (s.kind == FnStatement::External && s.external->address)
        out.emplace_back(s.external->symbol, s.external->address);
      for (const auto &b : s.blocks)
        visit(b);
    }
  };
  for (size_t f = 0; f < flat.ctx->numFunctions(); ++f)
    visit(flat.ctx->function(static_cast<int>(f)).body);
  return out;
}

/// An LLJIT for the host at one optimization level: modules are optimized when first materialized
/// (so a Jacobian costs nothing until used); the runtime's entry points, `externals` and the
/// process's symbols (libm) are visible. `optimizeSeconds` accumulates the time of the IR passes.
/// With a cache, modules whose identifier is a cache key are taken from it when it has them (not
/// optimized: the compiler returns the cached object) and stored into it when compiled.
llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>>
makeJit(int optLevel, bool controlScheduler, std::function<void(const std::string &)> dumpOptimized,
        std::shared_ptr<double> optimizeSeconds, ModelObjectCache *cache, const ExternalSymbols &externals) {
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  jtmb->setCodeGenOptLevel(optLevel <= 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Default);
  auto tm = jtmb->createTargetMachine();
  if (!tm)
    return tm.takeError();
  llvm::orc::LLJITBuilder builder;
  builder.setJITTargetMachineBuilder(std::move(*jtmb));
  if (cache)
    builder.setCompileFunctionCreator(
        [cache](llvm::orc::JITTargetMachineBuilder target)
            -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
          auto machine = target.createTargetMachine();
          if (!machine)
            return machine.takeError();
          return std::make_unique<llvm::orc::TMOwningSimpleCompiler>(std::move(*machine), cache);
        });
  auto jit = builder.create();
  if (!jit)
    return jit.takeError();
  // The transform outlives this call (a Jacobian is materialized later): it owns what it uses.
  std::shared_ptr<llvm::TargetMachine> sharedTm = std::move(*tm);
  (*jit)->getIRTransformLayer().setTransform(
      [sharedTm, optLevel, controlScheduler, dumpOptimized, optimizeSeconds, cache](
          llvm::orc::ThreadSafeModule tsm, const llvm::orc::MaterializationResponsibility &) {
        tsm.withModuleDo([&](llvm::Module &m) {
          if (cache && isCacheKey(m.getModuleIdentifier()) && cache->prepare(m.getModuleIdentifier()))
            return; // the compiler returns the cached object
          auto begin = Clock::now();
          // The scheduler switch is a process-wide LLVM option: only the main thread sets it (the
          // background tier compiles a large module, for which the main thread has set it off).
          if (controlScheduler)
            setMachineScheduler(instructionCount(m) < kMachineSchedulerLimit);
          optimize(m, *sharedTm, optLevel);
          *optimizeSeconds += secondsSince(begin);
          if (dumpOptimized)
            dumpOptimized(printModule(m));
        });
        return llvm::Expected<llvm::orc::ThreadSafeModule>(std::move(tsm));
      });
  llvm::orc::JITDylib &lib = (*jit)->getMainJITDylib();
  // The runtime's entry points are linked into this process; libm comes from the process too.
  llvm::orc::SymbolMap runtime;
  auto exported = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
  const std::pair<const char *, void *> entryPoints[] = {
      {"eqc_solve_block", reinterpret_cast<void *>(&eqc_solve_block)},
      {"eqc_linsolve", reinterpret_cast<void *>(&eqc_linsolve)},
      {"eqc_linsolve_min_norm", reinterpret_cast<void *>(&eqc_linsolve_min_norm)},
      {"eqc_linsolve_nearest", reinterpret_cast<void *>(&eqc_linsolve_nearest)},
      {"eqc_constraint_jacobian_fd", reinterpret_cast<void *>(&eqc_constraint_jacobian_fd)},
      {"eqc_external_enter", reinterpret_cast<void *>(&eqc_external_enter)},
      {"eqc_external_leave", reinterpret_cast<void *>(&eqc_external_leave)},
      {"eqc_strings_mark", reinterpret_cast<void *>(&eqc_strings_mark)},
      {"eqc_strings_release", reinterpret_cast<void *>(&eqc_strings_release)},
      {"eqc_string_keep", reinterpret_cast<void *>(&eqc_string_keep)},
      {"eqc_string_text", reinterpret_cast<void *>(&eqc_string_text)},
      {"eqc_string_handle", reinterpret_cast<void *>(&eqc_string_handle)},
      {"eqc_function_message", reinterpret_cast<void *>(&eqc_function_message)},
  };
  for (const auto &[name, address] : entryPoints)
    runtime[(*jit)->mangleAndIntern(name)] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address), exported);
  for (const auto &[name, address] : externals)
    runtime.try_emplace((*jit)->mangleAndIntern(name), llvm::pointerToJITTargetAddress(address), exported);
  if (auto err = lib.define(llvm::orc::absoluteSymbols(runtime)))
    return err;
  auto generator =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess((*jit)->getDataLayout().getGlobalPrefix());
  if (!generator)
    return generator.takeError();
  lib.addGenerator(std::move(*generator));
  return jit;
}

void setTarget(llvm::Module &m, const llvm::DataLayout &layout, const std::string &triple) {
  m.setDataLayout(layout);
  m.setTargetTriple(triple);
}

/// How a large model's simulation functions are compiled: `modules` modules on `threads` threads
/// at `optLevel`.
struct SplitPlan {
  unsigned modules, threads;
  int optLevel;
  std::shared_ptr<const ModelRuns> runs; ///< CodegenOptions::runs
};

/// Generates `part` (the simulation functions or the constraint Jacobians) as plan.modules
/// modules (backend/Codegen.h, ModuleSplit),
/// each handed to a ParallelCompiler's workers as soon as it is written, and adds the objects to
/// `jit`. With a cache, each module is keyed by its own digest (taken on the workers) and
/// `digest` receives the modules' keys together, which key the whole. Adds the time spent
/// generating to `codegenSeconds` and the IR passes' to `optimizeSeconds`.
llvm::Error addSplitModules(llvm::orc::LLJIT &jit, FlatSystem &flat, const OdeModel &model,
                            const ModelSymbols &symbols, ModelPart part, const SplitPlan &plan, ModelObjectCache *cache,
                               const llvm::DataLayout &layout, const std::string &triple, double &codegenSeconds,
                               double &optimizeSeconds, std::string &digest) {
  auto start = Clock::now();
  auto target = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!target)
    return target.takeError();
  target->setCodeGenOptLevel(plan.optLevel <= 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Default);
  ParallelCompiler compiler(std::move(*target), plan.optLevel, cache, plan.threads);
  for (unsigned k = 0; k < plan.modules; ++k) {
    auto context = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module =
        generateModelIR(flat, model, *context, symbols, part, nullptr,
                        CodegenOptions{ModuleSplit{k, plan.modules}, plan.runs});
    setTarget(*module, layout, triple);
    compiler.add(std::move(context), std::move(module), ""); // keyed on the worker
  }
  codegenSeconds += secondsSince(start); // the workers compiled meanwhile
  auto objects = compiler.finish();
  if (!objects)
    return objects.takeError();
  for (auto &object : *objects)
    if (auto err = jit.addObjectFile(std::move(object)))
      return err;
  optimizeSeconds += compiler.optimizeSeconds();
  digest.clear();
  for (const std::string &key : compiler.keys())
    digest += key + "|";
  return llvm::Error::success();
}

/// The simulation functions of one tier.
struct SimulationFunctions {
  eqc_model_rhs_fn rhs = nullptr;
  eqc_model_init_fn init = nullptr;
  eqc_model_inv_fn invariants = nullptr, initialConstraints = nullptr;
  eqc_model_zc_fn zc = nullptr;
  eqc_model_event_fn event = nullptr;
  eqc_model_bind_fn bind = nullptr;
  eqc_model_start_fn start = nullptr;
  eqc_model_discrete_start_fn discreteStart = nullptr;
  eqc_model_assert_fn asserts = nullptr;
  eqc_model_delays_fn delays = nullptr;
  eqc_model_bind_fn objects = nullptr;
  eqc_model_release_fn release = nullptr;
  eqc_model_zc_fn indicatorSensitivities = nullptr;

  /// Which of the optional functions a model has.
  struct Parts {
    bool events = false, assertions = false, delayed = false, objects = false, indicatorSensitivities = false;
  };

  /// Looks them up (compiling the module that holds them).
  llvm::Error lookup(llvm::orc::LLJIT &jit, const ModelSymbols &symbols, const Parts &parts) {
    auto get = [&](const std::string &name, auto &fn) -> llvm::Error {
      auto sym = jit.lookup(name);
      if (!sym)
        return sym.takeError();
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym->getAddress());
      return llvm::Error::success();
    };
    if (auto err = get(symbols.rhs, rhs))
      return err;
    if (auto err = get(symbols.init, init))
      return err;
    if (auto err = get(symbols.invariants, invariants))
      return err;
    if (auto err = get(symbols.initialConstraints, initialConstraints))
      return err;
    if (auto err = get(symbols.bind, bind))
      return err;
    if (auto err = get(symbols.start, start))
      return err;
    if (parts.events) {
      if (auto err = get(symbols.zc, zc))
        return err;
      if (auto err = get(symbols.event, event))
        return err;
      if (auto err = get(symbols.discreteStart, discreteStart))
        return err;
    }
    if (parts.indicatorSensitivities)
      if (auto err = get(symbols.indicatorSensitivities, indicatorSensitivities))
        return err;
    if (parts.assertions)
      if (auto err = get(symbols.asserts, asserts))
        return err;
    if (parts.delayed)
      if (auto err = get(symbols.delays, delays))
        return err;
    if (parts.objects) {
      if (auto err = get(symbols.objects, objects))
        return err;
      if (auto err = get(symbols.release, release))
        return err;
    }
    return llvm::Error::success();
  }

  void publish(JitModel &m) const {
    m.rhs.store(rhs);
    m.init.store(init);
    m.invariants.store(invariants);
    m.initialConstraints.store(initialConstraints);
    m.zc.store(zc);
    m.event.store(event);
    m.bind.store(bind);
    m.start.store(start);
    m.discreteStart.store(discreteStart);
    m.asserts.store(asserts);
    m.delays.store(delays);
    m.objects.store(objects);
    m.release.store(release);
    m.indicatorSensitivities.store(indicatorSensitivities);
  }
};

} // namespace

/// The optimized tier's module in a context of its own (none when its object is cached).
struct TierModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
};

struct JitModel::Impl {
  std::shared_ptr<ModelObjectCache> cache; ///< first: it outlives both LLJITs, which point to it
  unsigned modules = 1, threads = 1;       ///< how the simulation functions were compiled
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string jacSymbol, invariantJacSymbol, initialJacSymbol;
  eqc_model_jac_fn jac = nullptr;
  eqc_model_invjac_fn invariantJac = nullptr, initialJac = nullptr;
  SparsityPattern pattern; ///< of jac's values, set when the Jacobian module is generated
  bool havePattern = false;
  /// Generate and add the ODE Jacobian's module and the constraint Jacobians' module on first use
  /// (IR generation is linear in the model but not free, and most runs need one of them or none).
  std::function<bool()> addOdeJacobian, addConstraintJacobians;

  /// The optimized tier: its own LLJIT and LLVMContext, compiled on `tierThread`, which publishes
  /// the JitModel's function pointers when done. Joined before anything here is destroyed.
  bool tiered = false;
  std::unique_ptr<llvm::orc::LLJIT> tierJit;
  std::function<void(TierModule &)> tierGenerate; ///< the optimized tier's module (none when cached)
  std::function<void(TierModule)> tierWork;        ///< what tierThread runs, once startTier() is called
  std::once_flag tierStart;
  std::atomic<bool> tierStarted{false};
  std::thread tierThread;
  std::atomic<double> tierSeconds{-1.0};
  std::string tierError; ///< written by the thread before tierSeconds

  ~Impl() {
    if (tierThread.joinable())
      tierThread.join();
  }

  template <typename Fn> Fn lookup(const std::string &name, Fn &cache, std::function<bool()> &addModule) {
    if (!cache) {
      if (addModule) {
        auto add = std::move(addModule);
        addModule = nullptr;
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

eqc_model_jac_fn JitModel::jacobian() { return impl->lookup(impl->jacSymbol, impl->jac, impl->addOdeJacobian); }
const SparsityPattern *JitModel::jacobianPattern() {
  if (!jacobian() || !impl->havePattern)
    return nullptr;
  return &impl->pattern;
}
eqc_model_invjac_fn JitModel::invariantJacobian() {
  return impl->lookup(impl->invariantJacSymbol, impl->invariantJac, impl->addConstraintJacobians);
}
eqc_model_invjac_fn JitModel::initialConstraintJacobian() {
  return impl->lookup(impl->initialJacSymbol, impl->initialJac, impl->addConstraintJacobians);
}
void setLlvmOutOfMemoryHandler(void (*handler)()) {
  static void (*installed)() = nullptr;
  installed = handler;
  llvm::install_bad_alloc_error_handler([](void *, const char *, bool) { installed(); });
}

bool JitModel::tiered() const { return impl->tiered; }
double JitModel::tierSeconds() const { return impl->tierSeconds.load(); }
std::string JitModel::tierError() const { return impl->tierSeconds.load() >= 0 ? impl->tierError : std::string(); }
void JitModel::startTier() {
  if (!impl->tiered)
    return;
  std::call_once(impl->tierStart, [this] {
    TierModule tier;
    if (impl->tierGenerate)
      impl->tierGenerate(tier);

    try {
      impl->tierThread = std::thread([this, tier = std::move(tier)]() mutable { impl->tierWork(std::move(tier)); });
    } catch (const std::system_error &e) { // the first tier goes on alone
      impl->tierError = std::string("cannot start its thread: ") + e.what();
      impl->tierSeconds.store(0.0);
    }
    impl->tierStarted.store(true);
  });
}
bool JitModel::tierStarted() const { return impl->tierStarted.load(); }
void JitModel::waitForTier() {
  startTier();
  if (impl->tierThread.joinable())
    impl->tierThread.join();
}
unsigned JitModel::modules() const { return impl->modules; }
unsigned JitModel::threads() const { return impl->threads; }
int JitModel::cacheHits() const { return impl->cache ? impl->cache->hits() : 0; }
int JitModel::cacheStores() const { return impl->cache ? impl->cache->stores() : 0; }
std::string JitModel::cacheError() const { return impl->cache ? impl->cache->lastError() : std::string(); }

namespace {

/// What the compilations a JitModel defers (its Jacobians, its optimized tier) need.
struct Deferred {
  ModelSymbols symbols;
  llvm::DataLayout layout;
  std::string triple;
  int optLevel;
  unsigned threads;
  std::shared_ptr<const ModelRuns> runs; ///< CodegenOptions::runs
};

/// The Jacobian modules of `result`, generated and added to its JIT on first use (most runs need
/// one of them or none); large constraint Jacobians (index-reduced models) split over the threads
/// as the simulation functions are. Requires (Jit.h): `flat` and `model` outlive the JitModel.
void deferJacobians(JitModel &result, FlatSystem &flat, const OdeModel &model, const Deferred &d,
                    llvm::orc::ThreadSafeContext tsc) {
  llvm::orc::LLJIT *raw = result.impl->jit.get();
  JitModel::Impl *impl = result.impl.get();
  const unsigned jacobianModules = modulesFor(constraintJacobianItems(*d.runs), d.threads);
  auto adder = [&flat, &model, d, tsc, raw, impl, jacobianModules](ModelPart part) {
    return [&flat, &model, d, tsc, raw, impl, jacobianModules, part]() mutable {
      if (part == ModelPart::ConstraintJacobians && jacobianModules > 1) {
        double generated = 0, optimized = 0;
        std::string digest;
        if (auto err = addSplitModules(*raw, flat, model, d.symbols, part, SplitPlan{jacobianModules, d.threads, d.optLevel, d.runs},
                                       impl->cache.get(), d.layout, d.triple, generated, optimized, digest)) {
          llvm::consumeError(std::move(err));
          return false;
        }
        return true;
      }
      auto lock = tsc.getLock();
      std::unique_ptr<llvm::Module> m = generateModelIR(flat, model, *tsc.getContext(), d.symbols, part,
                                                        part == ModelPart::Jacobian ? &impl->pattern : nullptr,
                                                        CodegenOptions{{}, d.runs});
      if (part == ModelPart::Jacobian)
        impl->havePattern = true;
      setTarget(*m, d.layout, d.triple);
      if (impl->cache)
        m->setModuleIdentifier(ModelObjectCache::key(*m, d.optLevel));
      if (auto err = raw->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), tsc))) {
        llvm::consumeError(std::move(err));
        return false;
      }
      return true;
    };
  };
  impl->addOdeJacobian = adder(ModelPart::Jacobian);
  impl->addConstraintJacobians = adder(ModelPart::ConstraintJacobians);
}

/// The optimized (-O2) tier of `result`: its own LLJIT on its own thread, started by startTier().
/// Cached optimized code (`tierKey` in the cache) is loaded at once, on its thread, and is then
/// the only tier in use; otherwise startTier() generates the module on its caller's thread (the
/// code generator is not thread-safe; requires `flat` and `model` alive, as the Jacobians do).
void deferTier(JitModel &result, FlatSystem &flat, const OdeModel &model, const Deferred &d,
               const SimulationFunctions::Parts &parts, const ExternalSymbols &externals, const std::string &tierKey) {
  JitModel::Impl *impl = result.impl.get();
  impl->tiered = true;
  JitModel *target = &result;
  ModelObjectCache *tierCache = impl->cache.get();
  const bool cachedTier = tierCache && !tierKey.empty() && tierCache->prepare(tierKey);
  if (!cachedTier)
    impl->tierGenerate = [&flat, &model, d, tierKey](TierModule &out) {
      out.context = std::make_unique<llvm::LLVMContext>();
      out.module = generateModelIR(flat, model, *out.context, d.symbols, ModelPart::Simulation, nullptr,
                                   CodegenOptions{{}, d.runs});
      setTarget(*out.module, d.layout, d.triple);
      if (!tierKey.empty())
        out.module->setModuleIdentifier(tierKey);
      // The scheduler switch is process-wide: set here, on the thread that starts the tier.
      setMachineScheduler(instructionCount(*out.module) < kMachineSchedulerLimit);
    };
  // The thread owns the module; it writes the JitModel's pointers, tierJit and the outcome;
  // ~Impl joins it before any of them is destroyed.
  const ModelSymbols symbols = d.symbols;
  impl->tierWork = [impl, target, symbols, parts, tierCache, externals, tierKey](TierModule tier) {
    auto begin = Clock::now();
    auto fail = [&](llvm::Error err) {
      impl->tierError = llvm::toString(std::move(err));
      impl->tierSeconds.store(secondsSince(begin));
    };
    auto jit = makeJit(2, false, nullptr, std::make_shared<double>(0.0), tierCache, externals);
    if (!jit)
      return fail(jit.takeError());
    if (tier.module) {
      llvm::orc::ThreadSafeContext own(std::move(tier.context));
      if (auto err = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(tier.module), own)))
        return fail(std::move(err));
    } else if (std::unique_ptr<llvm::MemoryBuffer> object = tierCache->take(tierKey)) {
      if (auto err = (*jit)->addObjectFile(std::move(object)))
        return fail(std::move(err));
    } else {
      return fail(llvm::createStringError(llvm::inconvertibleErrorCode(), "the compiled-model cache lost entry %s",
                                          tierKey.c_str()));
    }
    SimulationFunctions optimized;
    if (auto err = optimized.lookup(**jit, symbols, parts))
      return fail(std::move(err));
    impl->tierJit = std::move(*jit);
    optimized.publish(*target);
    impl->tierSeconds.store(secondsSince(begin));
  };
  if (cachedTier) {
    result.waitForTier();
    impl->tiered = impl->tierError.empty() ? false : impl->tiered;
  }
}

/// How a model is compiled: the main LLJIT's level (the first tier and the Jacobians), whether
/// an -O2 tier follows, the threads that compile, and how many modules the simulation functions
/// are written as.
struct CompilePlan {
  int optLevel;
  bool tiered;
  unsigned threads, modules;
};

CompilePlan planCompilation(const FlatSystem &, const OdeModel &model, const ModelRuns &runs,
                            const BackendOptions &options) {
  CompilePlan plan{options.optLevel, false, 1, 1};
  plan.threads = options.threads > 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  if (plan.optLevel < 0) {
    // Automatic: two tiers; -O2 alone without a second hardware thread or when the optimized IR is
    // to be printed.
    plan.optLevel = 2;
    if (!options.dumpOptimizedIR && std::thread::hardware_concurrency() >= 2) {
      plan.optLevel = 0;
      plan.tiered = true;
    }
  }
  // A large model's simulation functions are written as several modules, compiled on every
  // hardware thread while the next is written (backend/SplitCompile.h); not when IR is printed,
  // nor with delays (the delays' function reads what the others emitted).
  if (!options.dumpIR && !options.dumpOptimizedIR && model.delays == 0)
    plan.modules = modulesFor(simulationItems(runs), plan.threads);
  return plan;
}

} // namespace

std::unique_ptr<JitModel> jitCompile(FlatSystem &flat, const OdeModel &model, const BackendOptions &options,
                                     std::string &error) {
  static std::once_flag targetsReady;
  std::call_once(targetsReady, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });

  auto start = Clock::now();
  ModelSymbols symbols = ModelSymbols::forPrefix("eqc_" + flat.modelName + "_");
  // The runs of alike steps, written as loops, are found once for every module and tier.
  const std::shared_ptr<const ModelRuns> runs = modelRuns(flat, model, options.loops);
  const CompilePlan plan = planCompilation(flat, model, *runs, options);
  const int optLevel = plan.optLevel;
  const unsigned threads = plan.threads;
  bool tiered = plan.tiered;
  unsigned modules = plan.modules;
  // The compiled-model cache (not when the optimized IR is to be printed: a cached module is not
  // optimized again). A cached -O2 simulation module makes the first tier unnecessary; otherwise
  // the first tier's -O0 objects come from the cache or are stored in it at once (a run that ends
  // before the -O2 tier does not wait for it, driver/main.cpp).
  std::shared_ptr<ModelObjectCache> cache;
  if (!options.cacheDirectory.empty() && !options.dumpOptimizedIR)
    cache = std::make_shared<ModelObjectCache>(options.cacheDirectory);

  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> simulation; // unless split
  const CodegenOptions codegen{{}, runs};
  // With a cache, the keys come from a digest of the IR: the one module's, or (split) the modules'
  // digests, taken on the workers. The optimized tier's key is the digest's at -O2; its module is
  // generated only when the tier starts (most runs end before).
  std::string digest, tierKey;
  if (modules <= 1) {
    simulation = generateModelIR(flat, model, *context, symbols, ModelPart::Simulation, nullptr, codegen);
    if (cache) {
      digest = ModelObjectCache::digest(*simulation);
      tierKey = tiered ? ModelObjectCache::key(digest, 2) : std::string();
      if (tiered && cache->prepare(tierKey)) { // the optimized code is cached: it is the only tier
        tiered = false;
        simulation->setModuleIdentifier(tierKey);
      } else {
        simulation->setModuleIdentifier(ModelObjectCache::key(digest, optLevel));
      }
    }
  }
  // The Jacobian modules are generated now only when their IR is to be printed, else on first use.
  std::unique_ptr<llvm::Module> jacobian, constraintJacobians;
  SparsityPattern pattern;
  if (options.dumpIR) {
    jacobian = generateModelIR(flat, model, *context, symbols, ModelPart::Jacobian, &pattern, codegen);
    constraintJacobians = generateModelIR(flat, model, *context, symbols, ModelPart::ConstraintJacobians, nullptr, codegen);
    for (llvm::Module *m : {jacobian.get(), constraintJacobians.get()})
      if (cache)
        m->setModuleIdentifier(ModelObjectCache::key(*m, optLevel));
    options.dumpIR(printModule(*simulation));
    options.dumpIR(printModule(*jacobian));
    options.dumpIR(printModule(*constraintJacobians));
  }
  double codegenSeconds = secondsSince(start);

  auto optimizeSeconds = std::make_shared<double>(0.0);
  ExternalSymbols externals = externalSymbols(flat);
  auto jit = makeJit(optLevel, true, options.dumpOptimizedIR, optimizeSeconds, cache.get(), externals);
  if (!jit) {
    error = llvm::toString(jit.takeError());
    return nullptr;
  }
  const llvm::DataLayout layout = (*jit)->getDataLayout();
  const std::string triple = (*jit)->getTargetTriple().str();
  for (llvm::Module *m : {simulation.get(), jacobian.get(), constraintJacobians.get()})
    if (m)
      setTarget(*m, layout, triple);
  start = Clock::now(); // the JIT's phase: from here, less the split modules' generation
  double splitOptimizeSeconds = 0;
  if (!simulation) {
    const double generatedBefore = codegenSeconds;
    if (auto err = addSplitModules(**jit, flat, model, symbols, ModelPart::Simulation,
                                   SplitPlan{modules, threads, optLevel, runs}, cache.get(), layout, triple, codegenSeconds,
                                   splitOptimizeSeconds, digest)) {
      error = llvm::toString(std::move(err));
      return nullptr;
    }
    start += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(codegenSeconds - generatedBefore));
    if (tiered && cache)
      tierKey = ModelObjectCache::key(digest, 2);
  }
  if (options.timePhase)
    options.timePhase("codegen", codegenSeconds);
  llvm::orc::ThreadSafeContext tsc(std::move(context));
  for (auto *m : {&simulation, &jacobian, &constraintJacobians})
    if (*m)
      if (auto err = (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(*m), tsc))) {
        error = llvm::toString(std::move(err));
        return nullptr;
      }
  auto result = std::make_unique<JitModel>();
  SimulationFunctions::Parts parts;
  parts.events = !model.discretes.empty();
  parts.indicatorSensitivities = hasIndicatorSensitivities(flat, model);
  parts.assertions = !flat.assertions.empty();
  parts.delayed = model.delays > 0;
  parts.objects = !objectParameters(flat, model.params).empty();
  SimulationFunctions first;
  if (auto err = first.lookup(**jit, symbols, parts)) {
    error = llvm::toString(std::move(err));
    return nullptr;
  }
  first.publish(*result);
  if (options.timePhase) {
    const double optimized = *optimizeSeconds + splitOptimizeSeconds;
    options.timePhase("optimize", optimized);
    options.timePhase("jit", secondsSince(start) - optimized);
  }
  result->impl = std::make_unique<JitModel::Impl>();
  result->impl->cache = cache;
  result->impl->modules = modules;
  result->impl->threads = modules > 1 ? threads : 1;
  result->impl->jit = std::move(*jit);
  result->impl->jacSymbol = symbols.jac;
  result->impl->invariantJacSymbol = symbols.invariantJac;
  result->impl->initialJacSymbol = symbols.initialConstraintsJac;
  const Deferred deferred{symbols, layout, triple, optLevel, threads, runs};
  if (options.dumpIR) {
    result->impl->pattern = std::move(pattern);
    result->impl->havePattern = true;
  } else {
    deferJacobians(*result, flat, model, deferred, tsc);
  }
  if (tiered)
    deferTier(*result, flat, model, deferred, parts, externals, tierKey);
  return result;
}

} // namespace eqc
