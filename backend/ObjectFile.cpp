// Object files, assembly and LLVM IR of a compiled model, with its eqc_model function table.
#include "backend/ObjectFile.h"

#include "backend/Codegen.h"
#include "backend/Optimize.h"
#include "runtime/include/eqc/eqc_model.h"

#include <algorithm>

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace eqc {

namespace {

using llvm::Constant;

/// Builds the constant eqc_model table in a module whose functions are already generated.
class DescriptorEmitter {
public:
  DescriptorEmitter(llvm::Module &m, const ModelSymbols &symbols) : m(m), ctx(m.getContext()), symbols(symbols) {
    i8p = llvm::Type::getInt8PtrTy(ctx);
    i32 = llvm::Type::getInt32Ty(ctx);
  }

  void emit(const std::string &accessor, const ModelDescription &d, const OdeModel &model,
            const SparsityPattern &pattern) {
    const int invariants = static_cast<int>(model.invariants.residuals.size());
    auto *sparsityType = llvm::StructType::create(ctx, {i32, i8p, i8p}, "eqc_sparsity");
    auto sparsityOf = [&](const std::string &name, const SparsityPattern &p) {
      return llvm::ConstantExpr::getBitCast(
          global(name, llvm::ConstantStruct::get(sparsityType, {int32(static_cast<int>(p.nnz())),
                                                                ints(name + "_col_start", p.colStart),
                                                                ints(name + "_row_index", p.rowIndex)})),
          i8p);
    };
    Constant *sparsity = sparsityOf("jac_pattern", pattern);
    // The fields of eqc_model in its order (int: i32, pointers: i8*, double); the struct type
    // follows from their types.
    std::vector<Constant *> values{int32(EQC_MODEL_ABI_VERSION), string("name", d.name), int32(static_cast<int>(d.stateNames.size())),
                    int32(static_cast<int>(d.algebraicNames.size())), int32(static_cast<int>(d.paramNames.size())),
                    int32(invariants), strings("state_names", d.stateNames),
                    strings("algebraic_names", d.algebraicNames), strings("param_names", d.paramNames),
                    doubles("param_defaults", d.params), doubles("state_start", d.states),
                    doubles("algebraic_start", d.algebraics), function(symbols.rhs),
                    invariants == 0 ? function(symbols.init) : null(), function(symbols.jac),
                    sparsity, invariants ? function(symbols.invariants) : null(),
                    invariants ? function(symbols.invariantJac) : null(), string("description", d.description),
                    strings("state_descriptions", d.stateDescriptions),
                    strings("algebraic_descriptions", d.algebraicDescriptions),
                    strings("param_descriptions", d.paramDescriptions), string("reduction", d.reduction),
                    bytes("param_kind", d.paramKinds), function(symbols.bind), function(symbols.start),
                    bytes("state_fixed", d.stateFixed),
                    int32(invariants ? static_cast<int>(model.initialConstraints.residuals.size()) : 0),
                    invariants ? function(symbols.initialConstraints) : null(),
                    invariants ? function(symbols.initialConstraintsJac) : null(),
                    llvm::ConstantFP::get(llvm::Type::getDoubleTy(ctx), d.tolerance)};
    const EventDescription &e = d.events;
    const bool events = !e.discreteNames.empty();
    values.insert(values.end(),
                  {int32(e.pSize()), int32(static_cast<int>(e.discreteNames.size())),
                   strings("discrete_names", e.discreteNames), bytes("discrete_kind", e.discreteKinds),
                   int32(static_cast<int>(e.indicatorDiscrete.size())), ints("indicator_discrete", e.indicatorDiscrete),
                   bytes("indicator_at_zero", e.indicatorAtZero),
                   int32(static_cast<int>(e.preContinuousSource.size())),
                   ints("pre_continuous_source", e.preContinuousSource),
                   events ? function(symbols.discreteStart) : null(), events ? function(symbols.zc) : null(),
                   events ? function(symbols.event) : null(), ints("state_level", e.stateLevel),
                   bytes("state_integrated", e.stateIntegrated)});
    // The constraint Jacobians' patterns (ABI 4): the generated functions write their values.
    values.push_back(invariants ? sparsityOf("invariants_jac_pattern",
                                             constraintJacobianPattern(model, model.invariants.residuals))
                                : null());
    values.push_back(invariants ? sparsityOf("initial_constraints_jac_pattern",
                                             constraintJacobianPattern(model, model.initialConstraints.residuals))
                                : null());
    // Assertions (ABI 5).
    const bool assertions = !d.assertKinds.empty();
    values.insert(values.end(), {int32(static_cast<int>(d.assertKinds.size())), bytes("assert_kind", d.assertKinds),
                                 assertions ? function(symbols.asserts) : null()});
    // External functions (ABI 6): the runtime's eqc_external_error, linked with the model.
    values.push_back(m.getFunction("eqc_external_enter") ? external("eqc_external_error") : null());
    // Delays (ABI 7).
    values.insert(values.end(), {int32(e.delays), int32(e.delays > 0 ? e.delayContext() : -1),
                                 e.delays > 0 ? function(symbols.delays) : null()});
    // External objects (ABI 8).
    const bool objects = std::find(d.paramKinds.begin(), d.paramKinds.end(), EQC_PARAM_OBJECT) != d.paramKinds.end();
    values.insert(values.end(), {objects ? function(symbols.objects) : null(), objects ? function(symbols.release) : null()});
    // Sensitivities across events (ABI 9).
    values.insert(values.end(), {int32(e.sensitivities), ints("sensitivity_state", e.sensitivityState),
                                 ints("sensitivity_event_time", e.sensitivityEventTime),
                                 e.sensitivities > 0 && !e.sensitivityEventTime.empty()
                                     ? function(symbols.indicatorSensitivities)
                                     : null()});
    std::vector<llvm::Type *> fields;
    for (Constant *v : values)
      fields.push_back(v->getType());
    auto *modelType = llvm::StructType::create(ctx, fields, "eqc_model");
    Constant *tableGlobal = global("table", llvm::ConstantStruct::get(modelType, values));
    // const eqc_model *eqc_model_<Name>(void)
    auto *type = llvm::FunctionType::get(i8p, false);
    auto *f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, accessor, m);
    f->setDoesNotThrow();
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
    b.CreateRet(llvm::ConstantExpr::getBitCast(tableGlobal, i8p));
    if (!d.fmuGuid.empty()) {
      constantFunction("eqc_fmu_model", llvm::ConstantExpr::getBitCast(tableGlobal, i8p));
      constantFunction("eqc_fmu_guid", string("guid", d.fmuGuid));
    }
  }

  /// `const void *name(void) { return value; }`
  void constantFunction(const std::string &name, Constant *value) {
    auto *f = llvm::Function::Create(llvm::FunctionType::get(i8p, false), llvm::Function::ExternalLinkage, name, m);
    f->setDoesNotThrow();
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
    b.CreateRet(value);
  }

private:
  Constant *null() { return llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(i8p)); }
  Constant *int32(int v) { return llvm::ConstantInt::get(i32, v); }

  /// A private constant global `eqc_<Name>_<what>` holding `init`.
  llvm::GlobalVariable *global(const std::string &what, Constant *init) {
    return new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                    symbols.prefix + what);
  }
  Constant *pointerTo(llvm::GlobalVariable *g) {
    Constant *zero = llvm::ConstantInt::get(i32, 0);
    return llvm::ConstantExpr::getBitCast(
        llvm::ConstantExpr::getInBoundsGetElementPtr(g->getValueType(), g, llvm::ArrayRef<Constant *>{zero, zero}), i8p);
  }
  Constant *string(const std::string &what, const std::string &s) {
    return pointerTo(global(what, llvm::ConstantDataArray::getString(ctx, s, true)));
  }
  Constant *strings(const std::string &what, const std::vector<std::string> &list) {
    if (list.empty())
      return null();
    std::vector<Constant *> items;
    for (size_t i = 0; i < list.size(); ++i)
      items.push_back(string(what + "_" + std::to_string(i), list[i]));
    return pointerTo(global(what, llvm::ConstantArray::get(llvm::ArrayType::get(i8p, items.size()), items)));
  }
  Constant *doubles(const std::string &what, const std::vector<double> &values) {
    if (values.empty())
      return null();
    return pointerTo(global(what, llvm::ConstantDataArray::get(ctx, llvm::ArrayRef<double>(values))));
  }
  Constant *bytes(const std::string &what, const std::vector<unsigned char> &values) {
    if (values.empty())
      return null();
    return pointerTo(global(what, llvm::ConstantDataArray::get(ctx, llvm::ArrayRef<uint8_t>(values))));
  }
  Constant *ints(const std::string &what, const std::vector<int> &values) {
    if (values.empty())
      return null();
    std::vector<uint32_t> raw(values.begin(), values.end());
    return pointerTo(global(what, llvm::ConstantDataArray::get(ctx, llvm::ArrayRef<uint32_t>(raw))));
  }
  /// A function of the runtime, declared here (`const char *name(void)`).
  Constant *external(const std::string &name) {
    auto *type = llvm::FunctionType::get(i8p, false);
    return llvm::ConstantExpr::getBitCast(llvm::cast<Constant>(m.getOrInsertFunction(name, type).getCallee()), i8p);
  }

  Constant *function(const std::string &name) {
    llvm::Function *f = m.getFunction(name);
    return f ? llvm::ConstantExpr::getBitCast(f, i8p) : null();
  }

  llvm::Module &m;
  llvm::LLVMContext &ctx;
  const ModelSymbols &symbols;
  llvm::Type *i8p, *i32;
};

void initializeTargets() {
  static std::once_flag ready;
  std::call_once(ready, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
  });
}

/// The target machine for `options` (see EmitOptions: triple and CPU), position-independent so
/// that the object can go into a shared library.
std::unique_ptr<llvm::TargetMachine> targetMachine(const EmitOptions &options, std::string &error) {
  initializeTargets();
  const std::string &requested = options.triple;
  const std::string triple = requested.empty() ? llvm::sys::getProcessTriple() : llvm::Triple::normalize(requested);
  std::string lookupError;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target) {
    error = "unknown target '" + requested + "': " + lookupError;
    return nullptr;
  }
  std::string cpu = options.cpu, features;
  if (cpu == "native") {
    if (triple != llvm::sys::getProcessTriple()) {
      error = "unknown CPU 'native' for target '" + requested + "': the host's CPU goes with the host's target only";
      return nullptr;
    }
    cpu = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> hostFeatures;
    if (llvm::sys::getHostCPUFeatures(hostFeatures))
      for (auto &f : hostFeatures)
        features += (features.empty() ? "" : ",") + std::string(f.second ? "+" : "-") + f.first().str();
  } else if (cpu.empty()) {
    cpu = llvm::Triple(triple).getArch() == llvm::Triple::x86_64 ? "x86-64" : "generic";
  } else {
    std::unique_ptr<llvm::MCSubtargetInfo> info(target->createMCSubtargetInfo(triple, "", ""));
    if (!info || !info->isCPUStringValid(cpu)) {
      error = "unknown CPU '" + cpu + "' for target '" + triple + "'";
      return nullptr;
    }
  }
  llvm::TargetOptions targetOptions;
  auto level = options.optLevel <= 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Default;
  std::unique_ptr<llvm::TargetMachine> tm(
      target->createTargetMachine(triple, cpu, features, targetOptions, llvm::Reloc::PIC_, llvm::None, level));
  if (!tm)
    error = "cannot create a code generator for target '" + triple + "'";
  return tm;
}

} // namespace

bool checkEmitTarget(const EmitOptions &options, TargetFacts &facts, std::string &error) {
  if (!targetMachine(options, error))
    return false;
  llvm::Triple target(options.triple.empty() ? llvm::sys::getProcessTriple() : llvm::Triple::normalize(options.triple));
  llvm::Triple host(llvm::sys::getProcessTriple());
  facts.hostMachine = target.getArch() == host.getArch() && target.getOS() == host.getOS() &&
                      target.getEnvironment() == host.getEnvironment();
  facts.linux64 = target.getArch() == llvm::Triple::x86_64 && target.isOSLinux();
  return true;
}

std::string modelAccessorName(const std::string &modelName) { return "eqc_model_" + modelName; }

bool emitModel(FlatSystem &flat, const OdeModel &model, const ModelDescription &description, const EmitOptions &options,
               const std::string &path, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> tm = targetMachine(options, error);
  if (!tm)
    return false;
  llvm::LLVMContext ctx;
  ModelSymbols symbols = ModelSymbols::forPrefix("eqc_" + flat.modelName + "_");
  SparsityPattern pattern;
  std::unique_ptr<llvm::Module> m = generateModelIR(flat, model, ctx, symbols, ModelPart::All, &pattern);
  DescriptorEmitter(*m, symbols).emit(modelAccessorName(flat.modelName), description, model, pattern);
  m->setDataLayout(tm->createDataLayout());
  m->setTargetTriple(tm->getTargetTriple().str());
  setMachineScheduler(instructionCount(*m) < kMachineSchedulerLimit);
  optimize(*m, *tm, options.optLevel);

  // Written whole or not at all: a temporary file next to the target, renamed at the end.
  std::string temp = path + ".tmp-XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool ok;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (options.kind == EmitKind::LLVMIR) {
      m->print(os, nullptr);
    } else {
      llvm::legacy::PassManager pm;
      auto type = options.kind == EmitKind::Object ? llvm::CGFT_ObjectFile : llvm::CGFT_AssemblyFile;
      if (tm->addPassesToEmitFile(pm, os, nullptr, type)) {
        error = "target '" + tm->getTargetTriple().str() + "' cannot emit this kind of file";
        os.close();
        std::remove(temp.c_str());
        return false;
      }
      pm.run(*m);
    }
    os.flush();
    ok = !os.has_error();
    if (ok)
      ok = ::fsync(fd) == 0;
    os.close();
    if (os.has_error()) {
      ok = false;
      os.clear_error();
    }
  }
  // mkstemp creates 0600; a result file gets the usual 0666 & ~umask.
  mode_t mask = umask(0);
  umask(mask);
  if (ok)
    ok = ::chmod(temp.c_str(), 0666 & ~mask) == 0 && std::rename(temp.c_str(), path.c_str()) == 0;
  if (!ok) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    std::remove(temp.c_str());
    return false;
  }
  return true;
}

} // namespace eqc
