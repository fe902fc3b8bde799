// Lowers expression DAGs and causal sequences to LLVM IR, one SSA value per distinct node.
#include "backend/Codegen.h"

#include "eqc/eqc_external.h"

#include "backend/ModelAbi.h"
#include "middle/ExprOps.h"
#include "middle/Function.h"
#include "middle/JacobianPattern.h"
#include "middle/StepRuns.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace eqc {
namespace {

using llvm::Value;

/// Tolerance and iteration limit for Newton in algebraic loops (scaled step norm).
constexpr double kNewtonTol = 1e-10;
constexpr int kNewtonMaxIter = 50;

struct Types {
  llvm::Type *f64, *i32, *i1, *i8ptr, *f64ptr, *f64ptrptr;
  llvm::StructType *env; ///< { double t, double* x, double* dx, double* a, double* p }
  llvm::FunctionType *block;
  llvm::FunctionType *userFn; ///< i32 (double* in, double* out): a user function
  explicit Types(llvm::LLVMContext &c) {
    f64 = llvm::Type::getDoubleTy(c);
    i32 = llvm::Type::getInt32Ty(c);
    i1 = llvm::Type::getInt1Ty(c);
    i8ptr = llvm::Type::getInt8PtrTy(c);
    f64ptr = llvm::Type::getDoublePtrTy(c);
    f64ptrptr = f64ptr->getPointerTo();
    env = llvm::StructType::create(c, {f64, f64ptr, f64ptr, f64ptr, f64ptr}, "eqc.env");
    block = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {i8ptr, f64ptr, f64ptr}, false);
    userFn = llvm::FunctionType::get(i32, {f64ptr, f64ptr}, false);
  }
};

/// Base pointers of the run-time arrays in the function being emitted.
struct Frame {
  Value *t, *x, *dx, *a, *p;
};

class ModuleEmitter;

/// Emits one function body; memoizes the value of each node (the DAG is emitted once).
class FunctionEmitter {
public:
  FunctionEmitter(ModuleEmitter &mod, llvm::Function *fn, Frame frame);

  Value *emit(const Expr *e);
  /// The memory cell of a variable.
  Value *address(int var);
  /// Records that `var` now has value `v` (after an assignment or a loop solve).
  void define(int var, Value *v) { varValue_[var] = v; }
  /// In the body of a run's loop: `var` of the run's first step lives at `cell` (this
  /// iteration's variable), loaded at every use.
  void roll(int var, Value *cell) { rolled_[var] = cell; }
  /// Likewise, place `place` of the output array is this iteration's `index` (an i64).
  void rollPlace(long place, Value *index) { rolledPlaces_[place] = index; }
  /// The index (i64) of place `place` of the function's output array (rolled in a loop's body).
  Value *place(long place) {
    if (!rolledPlaces_.empty())
      if (auto it = rolledPlaces_.find(place); it != rolledPlaces_.end())
        return it->second;
    return b_.getInt64(static_cast<uint64_t>(place));
  }
  void forget(int var) { varValue_.erase(var); }
  llvm::IRBuilder<> &b() { return b_; }
  /// Emits `if (status != 0) return code;` and continues in a fresh block.
  void returnIfFailed(Value *status, Value *code);
  llvm::Function *function() { return fn_; }
  /// Function bodies: the slots array; Local nodes load from it and are never memoized.
  void setSlots(Value *slots, const Function *fn) {
    slots_ = slots;
    body_ = fn;
  }
  /// Function bodies that release their Strings (Function::releasesStrings): the mark taken when
  /// the call began (an i64), released on every way out.
  void setStringMark(Value *mark) { stringMark_ = mark; }
  Value *stringMark() const { return stringMark_; }
  /// Between the statements of long straight-line code: every kChunk calls, the code goes on in a
  /// new basic block (what was computed before still dominates it). Instruction selection works
  /// per block and costs more than linearly in a block's size (tens of seconds for one block of
  /// 10^5 instructions, e.g. a 4000-point FFT's buffer at -O0).
  void chunk();
  /// Forgets every memoized value (function bodies: at each statement and block).
  void clearMemo() {
    memo_.clear();
    varValue_.clear();
    calls_.clear();
  }
  /// Between the assignments of a function body: forgets the values (slots change), but keeps
  /// the calls whose arguments read none of slots first..first+count-1 (the slots just written):
  /// `(info, A, Phi) := rawRealFFT(u2)` assigns every output of one call.
  void clearMemoAfterWriting(int first, int count) {
    memo_.clear();
    varValue_.clear();
    for (auto it = calls_.begin(); it != calls_.end();)
      it = it->second.lo < first + count && first <= it->second.hi ? calls_.erase(it) : std::next(it);
  }
  /// Emits `body` into the current block as a branch of control flow: values computed there do
  /// not dominate what follows, so they are forgotten afterwards.
  template <typename F> Value *inBranch(F body) {
    memoJournal_.emplace_back();
    varJournal_.emplace_back();
    callJournal_.emplace_back();
    Value *v = body();
    for (const Expr *k : memoJournal_.back())
      memo_.erase(k);
    for (int k : varJournal_.back())
      varValue_.erase(k);
    for (const CallKey &k : callJournal_.back())
      calls_.erase(k);
    memoJournal_.pop_back();
    varJournal_.pop_back();
    callJournal_.pop_back();
    return v;
  }
  /// `compute()` where `needed` holds (emitted in a block of its own, as a branch), else `kept`:
  /// the double that the merge gives.
  template <typename F> Value *computedIf(Value *needed, Value *kept, const char *name, F compute) {
    llvm::BasicBlock *before = b_.GetInsertBlock();
    llvm::BasicBlock *body = llvm::BasicBlock::Create(mod_.ctx, std::string(name) + ".compute", fn_);
    llvm::BasicBlock *merge = llvm::BasicBlock::Create(mod_.ctx, std::string(name) + ".merge", fn_);
    b_.CreateCondBr(needed, body, merge);
    b_.SetInsertPoint(body);
    Value *computed = inBranch(compute);
    llvm::BasicBlock *bodyEnd = b_.GetInsertBlock();
    b_.CreateBr(merge);
    b_.SetInsertPoint(merge);
    llvm::PHINode *phi = b_.CreatePHI(kept->getType(), 2);
    phi->addIncoming(kept, before);
    phi->addIncoming(computed, bodyEnd);
    return phi;
  }
  /// The slot of a function body element `base + offset` (bounds-checked: returns 1 if outside).
  Value *slotAddress(int base, int extent, const Expr *offset);
  /// Calls user function `fn` with scalar arguments; returns the pointer to its outputs.
  /// With `output` >= 0, the inputs that output does not read (Function::reads) are passed as 0:
  /// the variables they name need not be known where the call is made.
  Value *callFunction(int fn, const std::vector<const Expr *> &args, int output = -1);
  /// Function bodies: the failure code of this function for `reason` (1: index out of bounds,
  /// 2 + k: assertion k failed).
  int functionFailure(int reason) const { return EQC_MODEL_FUNCTION_FAILURE_BASE + 1024 * bodyId_ + reason; }
  void setFunctionId(int id) { bodyId_ = id; }
  int nextAssert() { return asserts_++; }

private:
  Value *compute(const Expr *e);
  /// delay(): the history's value through the context in p (eqc_model.h, eqc_delay_context).
  Value *delay(const Expr *e);
  /// once(): the held value, else the operand's, then held (EQC_DISCRETE_ONCE).
  Value *once(const Expr *e);
  Value *product(const Expr *e);
  Value *power(Value *base, const Expr *exponent);
  Value *intrinsic(llvm::Intrinsic::ID id, std::vector<Value *> args);
  Value *libm(const char *name, std::vector<Value *> args);

  ModuleEmitter &mod_;
  llvm::Function *fn_;
  Frame frame_;
  llvm::IRBuilder<> b_;
  std::unordered_map<const Expr *, Value *> memo_;
  std::unordered_map<int, Value *> varValue_;
  std::unordered_map<int, Value *> rolled_;
  std::unordered_map<long, Value *> rolledPlaces_;
  std::vector<std::vector<const Expr *>> memoJournal_;
  std::vector<std::vector<int>> varJournal_;
  /// One call of a user function serves every output it is asked for with the same arguments
  /// and inputs read (`(info, abs, arg) := realFFT(buf, nf)` is one call, not one per element):
  /// its output array, by callee and the arguments it reads (null: an input not read).
  using CallKey = std::vector<const void *>;
  struct Call {
    Value *out;
    int lo, hi; ///< the slots its arguments read lie in lo..hi (none: lo > hi)
  };
  std::map<CallKey, Call> calls_;
  std::vector<std::vector<CallKey>> callJournal_;
  Value *slots_ = nullptr;
  const Function *body_ = nullptr;
  Value *stringMark_ = nullptr;
  static constexpr int kChunk = 64;
  int sinceChunk_ = 0;
  int bodyId_ = 0;
  int asserts_ = 0;
};

class ModuleEmitter {
public:
  ModuleEmitter(FlatSystem &flat, const OdeModel &model, llvm::LLVMContext &c, const ModelSymbols &symbols)
      : flat(flat), model(model), ctx(c), types(c), symbols(symbols),
        module(std::make_unique<llvm::Module>(flat.modelName, c)), diff(*flat.ctx) {}

  std::unique_ptr<llvm::Module> run(ModelPart part, SparsityPattern *jacobianPattern) {
    if (part == ModelPart::Jacobian || part == ModelPart::All) {
      SparsityPattern unused;
      emitJacobian(jacobianPattern ? *jacobianPattern : unused);
      if (part == ModelPart::Jacobian)
        return std::move(module);
    }
    if (part == ModelPart::ConstraintJacobians || part == ModelPart::All) {
      emitInvariantJacobian(symbols.invariantJac, runs->invariantJacobian, runs->invariantJacobianRuns);
      if (model.initialConstraintsReadOde)
        emitDifferenceJacobian(symbols.initialConstraintsJac, symbols.initialConstraints,
                               constraintJacobianPattern(model, model.initialConstraints.residuals));
      else
        emitInvariantJacobian(symbols.initialConstraintsJac, runs->initialConstraintJacobian,
                              runs->initialConstraintJacobianRuns);
      if (part == ModelPart::ConstraintJacobians)
        return std::move(module);
    }
    emitInvariants(symbols.invariants, model.invariants.residuals, runs->invariants);
    if (!model.initialConstraintsReadOde)
      emitInvariants(symbols.initialConstraints, model.initialConstraints.residuals, runs->initialConstraints);
    const std::vector<int> objects = objectParameters(flat, model.params);
    emitBind(objects);
    emitStart();
    if (!objects.empty())
      emitObjects(objects);
    if (!model.discretes.empty()) {
      emitEventIndicators();
      if (hasIndicatorSensitivities(flat, model))
        emitIndicatorSensitivities();
      emitEventUpdate();
      emitDiscreteStart();
    }
    if (!flat.assertions.empty())
      emitAssertions();
    llvm::Function *rhs = emitSequenceFunction(symbols.rhs, model.ode, model.simulation, "ode");
    if (model.initialConstraintsReadOde)
      emitOdeReadingConstraints(symbols.initialConstraints, rhs, model.initialConstraints.residuals,
                                runs->initialConstraints);
    if ((model.initialization.unknowns == model.simulation.unknowns &&
         model.initialization.residuals == model.simulation.residuals) ||
        !model.invariants.residuals.empty())
      emitForwarder(symbols.init, rhs); // nothing to initialize beyond what rhs computes
    else
      emitSequenceFunction(symbols.init, model.init, model.initialization, "init");
    if (model.delays > 0)
      emitDelays(); // last: the delays that the functions above read
    return std::move(module);
  }

  /// The expression of each delay that a function of this module reads (FunctionEmitter::delay).
  std::map<int, const Expr *> delayExprs;

  /// delays(t, x, dx, a, p, values) (eqc_model_delays_fn): the delays' expressions, from the
  /// variables rhs just computed.
  void emitDelays() {
    std::vector<const Expr *> values(static_cast<size_t>(model.delays), nullptr);
    for (auto &[k, e] : delayExprs)
      values[static_cast<size_t>(k)] = e;
    emitPointFunction(symbols.delays, values);
  }

  /// name(t, x, dx, a, p, out) (the signature of eqc_model_zc_fn): out[k] = values[k] (0 where
  /// null), from the variables rhs just computed at the same point.
  void emitPointFunction(const std::string &name, const std::vector<const Expr *> &values) {
    auto *type = llvm::FunctionType::get(types.i32, {types.f64, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr}, false);
    llvm::Function *f = newRoot(name, type);
    if (f->isDeclaration())
      return;
    auto args = f->arg_begin();
    Frame frame{&*args, &*(args + 1), &*(args + 2), &*(args + 3), &*(args + 4)};
    Value *out = &*(args + 5);
    FunctionEmitter fe(*this, f, frame);
    auto &b = fe.b();
    for (size_t k = 0; k < values.size(); ++k) {
      Value *v = values[k] ? asDouble(b, fe.emit(values[k])) : llvm::ConstantFP::get(types.f64, 0.0);
      b.CreateStore(v, b.CreateConstGEP1_64(types.f64, out, k));
    }
    b.CreateRet(b.getInt32(0));
  }

  /// The LLVM function of user function `fn` in this module, emitted on first use (internal: each
  /// module that calls a function has its own copy).
  llvm::Function *userFunction(int fn) {
    auto it = userFunctions_.find(fn);
    if (it != userFunctions_.end())
      return it->second;
    const Function &f = flat.ctx->function(fn);
    llvm::Function *llfn = newFunction(f.symbol, types.userFn, true);
    userFunctions_[fn] = llfn; // before the body: recursive functions call themselves
    emitFunctionBody(llfn, f, fn);
    return llfn;
  }

  /// In a function body: one call level less, and the Strings it made released (on every way
  /// out of it).
  void leaveCall(llvm::IRBuilder<> &b, Value *stringMark) {
    if (callDepth_)
      b.CreateStore(b.CreateSub(b.CreateLoad(types.i32, callDepth_), b.getInt32(1)), callDepth_);
    if (stringMark)
      b.CreateCall(declareExternal("eqc_strings_release", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                                                                  {b.getInt64Ty()}, false)),
                   {stringMark});
  }

  /// The address (a String's text, an external object) whose bits a double holds, and back.
  Value *addressOfBits(llvm::IRBuilder<> &b, Value *bits) {
    return b.CreateIntToPtr(b.CreateBitCast(bits, b.getInt64Ty()), types.i8ptr);
  }
  Value *bitsOfAddress(llvm::IRBuilder<> &b, Value *address) {
    return b.CreateBitCast(b.CreatePtrToInt(address, b.getInt64Ty()), types.f64);
  }

  /// Whether `e` calls a user function (memoized).
  bool containsCall(const Expr *e) {
    auto it = hasCall_.find(e);
    if (it != hasCall_.end())
      return it->second;
    bool r = e->kind() == ExprKind::FnCall;
    for (const Expr *op : e->ops())
      r = r || containsCall(op);
    hasCall_[e] = r;
    return r;
  }

  llvm::Function *declareExternal(const char *name, llvm::FunctionType *type) {
    if (llvm::Function *f = module->getFunction(name))
      return f;
    llvm::Function *f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module.get());
    f->setDoesNotThrow();
    return f;
  }

  FlatSystem &flat;
  const OdeModel &model;
  llvm::LLVMContext &ctx;
  Types types;
  const ModelSymbols &symbols;
  std::unique_ptr<llvm::Module> module;
  Differentiator diff;
  ModuleSplit split; ///< which part of the model this module holds
  std::shared_ptr<const ModelRuns> runs; ///< CodegenOptions::runs

private:
  std::size_t rootsMade_ = 0; ///< roots made so far (newRoot)
  std::unordered_map<int, llvm::Function *> userFunctions_;
  std::unordered_map<const Expr *, bool> hasCall_;
  llvm::GlobalVariable *callDepth_ = nullptr;
  static constexpr int kMaxCallDepth = 10000;

  /// `i32 f(double* in, double* out)`: the slots live on the stack, zeroed; statements become
  /// control flow. Returns 0, or the failure code of eqc_model.h (an index out of bounds, an
  /// assertion).
  void emitFunctionBody(llvm::Function *llfn, const Function &f, int id) {
    auto args = llfn->arg_begin();
    Value *in = &*args, *out = &*(args + 1);
    FunctionEmitter fe(*this, llfn, Frame{nullptr, nullptr, nullptr, nullptr, nullptr});
    fe.setFunctionId(id);
    auto &b = fe.b();
    Value *slots = b.CreateAlloca(types.f64, b.getInt32(std::max(1, f.numSlots())));
    if (f.numSlots())
      b.CreateMemSet(slots, b.getInt8(0), b.getInt64(8 * f.numSlots()), llvm::MaybeAlign(8));
    fe.setSlots(slots, &f);
    if (f.makesStrings) { // String slots start as "" (MLS 3.5, 12.4.4: no start value, eqc's default)
      Value *empty = bitsOfAddress(b, b.CreateGlobalStringPtr("", "eqc.empty_string"));
      for (int s = 0; s < f.numSlots(); ++s)
        if (f.isString(s))
          b.CreateStore(empty, b.CreateConstGEP1_64(types.f64, slots, s));
    }
    if (f.releasesStrings())
      fe.setStringMark(b.CreateCall(
          declareExternal("eqc_strings_mark", llvm::FunctionType::get(b.getInt64Ty(), false)), {}));
    // Calls nest at most kMaxCallDepth deep (a thread-local counter of the module): endless
    // recursion is a failure with its own code, not a stack overflow.
    if (!callDepth_)
      callDepth_ = new llvm::GlobalVariable(*module, types.i32, false, llvm::GlobalValue::InternalLinkage,
                                            b.getInt32(0), "eqc.call_depth", nullptr,
                                            llvm::GlobalValue::GeneralDynamicTLSModel);
    Value *depth = b.CreateAdd(b.CreateLoad(types.i32, callDepth_), b.getInt32(1));
    b.CreateStore(depth, callDepth_);
    Value *tooDeep = b.CreateICmpSGT(depth, b.getInt32(kMaxCallDepth));
    fe.returnIfFailed(b.CreateZExt(tooDeep, types.i32), b.getInt32(fe.functionFailure(kFunctionTooDeep)));
    for (size_t i = 0; i < f.inputs.size(); ++i)
      b.CreateStore(b.CreateLoad(types.f64, b.CreateConstGEP1_64(types.f64, in, i)),
                    b.CreateConstGEP1_64(types.f64, slots, f.inputs[i]));
    llvm::BasicBlock *exit = llvm::BasicBlock::Create(ctx, "return", llfn);
    std::vector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>> loops; // (continue, break)
    emitStatements(fe, slots, f.body, exit, loops);
    if (!b.GetInsertBlock()->getTerminator())
      b.CreateBr(exit);
    b.SetInsertPoint(exit);
    leaveCall(b, fe.stringMark());
    for (size_t i = 0; i < f.outputs.size(); ++i)
      b.CreateStore(b.CreateLoad(types.f64, b.CreateConstGEP1_64(types.f64, slots, f.outputs[i])),
                    b.CreateConstGEP1_64(types.f64, out, i));
    b.CreateRet(b.getInt32(0));
  }

  Value *asDouble(llvm::IRBuilder<> &b, Value *v) {
    return v->getType() == types.f64 ? v : b.CreateUIToFP(v, types.f64);
  }

  /// Continues in a fresh block (after a branch out: break, return).
  void freshBlock(FunctionEmitter &fe, const char *name) {
    fe.b().SetInsertPoint(llvm::BasicBlock::Create(ctx, name, fe.function()));
  }

  void emitStatements(FunctionEmitter &fe, Value *slots, const std::vector<FnStatement> &block, llvm::BasicBlock *exit,
                      std::vector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>> &loops) {
    auto &b = fe.b();
    auto *f64 = types.f64;
    fe.clearMemo(); // a block may not reuse what another branch computed, nor what follows it
    struct Leave {
      FunctionEmitter &fe;
      ~Leave() { fe.clearMemo(); }
    } leave{fe};
    for (const FnStatement &s : block) {
      if (s.kind != FnStatement::Assign) // control flow: nothing computed before it is kept
        fe.clearMemo();
      switch (s.kind) {
      case FnStatement::Assign: {
        Value *v = asDouble(b, fe.emit(s.value));
        Value *addr = s.index ? fe.slotAddress(s.slot, s.extent, s.index) : b.CreateConstGEP1_64(f64, slots, s.slot);
        b.CreateStore(v, addr);
        fe.clearMemoAfterWriting(s.slot, s.index ? s.extent : 1);
        fe.chunk();
        continue;
      }
      case FnStatement::If: {
        llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx, "endif", fe.function());
        for (size_t i = 0; i < s.blocks.size(); ++i) {
          if (i < s.conditions.size()) {
            fe.clearMemo();
            Value *c = fe.emit(s.conditions[i]);
            llvm::BasicBlock *then = llvm::BasicBlock::Create(ctx, "then", fe.function());
            llvm::BasicBlock *next = llvm::BasicBlock::Create(ctx, "else", fe.function());
            b.CreateCondBr(c, then, next);
            b.SetInsertPoint(then);
            emitStatements(fe, slots, s.blocks[i], exit, loops);
            if (!b.GetInsertBlock()->getTerminator())
              b.CreateBr(end);
            b.SetInsertPoint(next);
          } else {
            emitStatements(fe, slots, s.blocks[i], exit, loops);
          }
        }
        if (!b.GetInsertBlock()->getTerminator())
          b.CreateBr(end);
        b.SetInsertPoint(end);
        break;
      }
      case FnStatement::For: {
        // The range is evaluated once; the loop variable steps from start while within stop.
        Value *start = asDouble(b, fe.emit(s.value));
        Value *step = asDouble(b, fe.emit(s.step));
        Value *stop = asDouble(b, fe.emit(s.stop));
        Value *var = b.CreateConstGEP1_64(f64, slots, s.slot);
        b.CreateStore(start, var);
        llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "for", fe.function());
        llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "body", fe.function());
        llvm::BasicBlock *next = llvm::BasicBlock::Create(ctx, "next", fe.function());
        llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx, "endfor", fe.function());
        b.CreateBr(head);
        b.SetInsertPoint(head);
        Value *v = b.CreateLoad(f64, var);
        Value *up = b.CreateFCmpOGT(step, llvm::ConstantFP::get(f64, 0.0));
        Value *inRange = b.CreateSelect(up, b.CreateFCmpOLE(v, stop), b.CreateFCmpOGE(v, stop));
        b.CreateCondBr(inRange, body, end);
        b.SetInsertPoint(body);
        fe.clearMemo();
        loops.emplace_back(next, end);
        emitStatements(fe, slots, s.blocks[0], exit, loops);
        loops.pop_back();
        if (!b.GetInsertBlock()->getTerminator())
          b.CreateBr(next);
        b.SetInsertPoint(next);
        b.CreateStore(b.CreateFAdd(b.CreateLoad(f64, var), step), var);
        b.CreateBr(head);
        b.SetInsertPoint(end);
        break;
      }
      case FnStatement::While: {
        llvm::BasicBlock *head = llvm::BasicBlock::Create(ctx, "while", fe.function());
        llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "body", fe.function());
        llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx, "endwhile", fe.function());
        b.CreateBr(head);
        b.SetInsertPoint(head);
        fe.clearMemo();
        b.CreateCondBr(fe.emit(s.conditions[0]), body, end);
        b.SetInsertPoint(body);
        loops.emplace_back(head, end);
        emitStatements(fe, slots, s.blocks[0], exit, loops);
        loops.pop_back();
        if (!b.GetInsertBlock()->getTerminator())
          b.CreateBr(head);
        b.SetInsertPoint(end);
        break;
      }
      case FnStatement::Break:
        b.CreateBr(loops.back().second);
        freshBlock(fe, "after_break");
        break;
      case FnStatement::Return:
        b.CreateBr(exit);
        freshBlock(fe, "after_return");
        break;
      case FnStatement::Assert: {
        Value *ok = fe.emit(s.value);
        Value *code = b.getInt32(fe.functionFailure(kFunctionAssertionFailed + fe.nextAssert()));
        if (!s.text) {
          fe.returnIfFailed(b.CreateZExt(b.CreateNot(ok), types.i32), code);
          break;
        }
        // A message the function computes: made where the assertion fails, then kept as the
        // thread's error message (eqc_external_error) before the call returns.
        llvm::BasicBlock *fails = llvm::BasicBlock::Create(ctx, "assert_fails", fe.function());
        llvm::BasicBlock *holds = llvm::BasicBlock::Create(ctx, "assert_holds", fe.function());
        b.CreateCondBr(ok, holds, fails);
        b.SetInsertPoint(fails);
        fe.inBranch([&]() -> Value * {
          auto *message = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {types.i8ptr}, false);
          b.CreateCall(declareExternal("eqc_function_message", message), {addressOfBits(b, asDouble(b, fe.emit(s.text)))});
          return nullptr;
        });
        fe.returnIfFailed(b.getInt32(1), code);
        b.CreateBr(holds); // not reached
        b.SetInsertPoint(holds);
        break;
      }
      case FnStatement::External:
        emitExternalCall(fe, slots, *s.external);
        break;
      }
      fe.clearMemo();
    }
  }

  /// A call of C function `call.symbol` on the slots (MLS 3.5, 12.9.1): doubles and ints by value,
  /// arrays and outputs by address (Integer ones through an int copy), sizes as size_t. A jump
  /// buffer set with _setjmp before the call is where ModelicaError returns to: the function then
  /// fails with kFunctionExternalError.
  void emitExternalCall(FunctionEmitter &fe, Value *slots, const ExternalCall &call) {
    auto &b = fe.b();
    auto *f64 = types.f64;
    llvm::IRBuilder<> entry(&fe.function()->getEntryBlock(), fe.function()->getEntryBlock().begin());
    std::vector<Value *> args;
    std::vector<llvm::Type *> params;
    // Arrays passed through a copy (Integer ones as int; a FORTRAN matrix column-major): copied
    // back after the call when it writes them.
    std::vector<std::pair<const ExternalArg *, Value *>> copies;
    auto slot = [&](int s) { return b.CreateConstGEP1_64(f64, slots, s); };
    auto copyIndex = [](const ExternalArg &a, int k) { // slot k's place in the copy
      const int columns = a.rows > 0 ? a.count / a.rows : 0;
      return a.rows > 0 ? (k % columns) * a.rows + k / columns : k;
    };
    for (const ExternalArg &a : call.args) {
      Value *v = nullptr;
      if (a.kind == ExternalArg::Pointer && a.type == CType::Double && a.rows == 0) {
        v = slot(a.slot);
      } else if (a.kind == ExternalArg::Pointer) {
        llvm::Type *element = a.type == CType::Double ? f64 : types.i32;
        v = entry.CreateAlloca(element, b.getInt32(a.count));
        for (int k = 0; k < a.count; ++k) {
          Value *x = b.CreateLoad(f64, slot(a.slot + k));
          b.CreateStore(a.type == CType::Double ? x : b.CreateFPToSI(x, types.i32),
                        b.CreateConstGEP1_32(element, v, copyIndex(a, k)));
        }
        copies.emplace_back(&a, v);
      } else if (a.kind == ExternalArg::Value) {
        v = b.CreateLoad(f64, slot(a.slot));
        if (a.type == CType::Object || a.type == CType::String) // the address whose bits the slot holds
          v = addressOfBits(b, v);
        else if (a.type != CType::Double)
          v = b.CreateFPToSI(v, types.i32);
      } else {
        switch (a.type) {
        case CType::Double: v = llvm::ConstantFP::get(f64, a.number); break;
        case CType::Int: v = b.getInt32(static_cast<int32_t>(a.number)); break;
        case CType::SizeT: v = b.getInt64(static_cast<uint64_t>(a.number)); break;
        case CType::String: v = b.CreateGlobalStringPtr(a.text); break;
        case CType::Object: v = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(types.i8ptr)); break;
        }
      }
      if (call.fortran && a.kind != ExternalArg::Pointer) { // by reference: the address of a copy
        Value *cell = entry.CreateAlloca(v->getType());
        b.CreateStore(v, cell);
        v = cell;
      }
      args.push_back(v);
      params.push_back(v->getType());
    }
    llvm::Type *result = call.resultSlot < 0                ? llvm::Type::getVoidTy(ctx)
                         : call.resultType == CType::Double ? f64
                         : call.resultType == CType::Object || call.resultType == CType::String ? types.i8ptr
                                                                                                : types.i32;
    llvm::FunctionCallee callee = module->getOrInsertFunction(call.symbol, llvm::FunctionType::get(result, params, false));
    // The way back from ModelicaError.
    Value *jump = entry.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), EQC_EXTERNAL_JMP_BUF_SIZE));
    llvm::cast<llvm::AllocaInst>(jump)->setAlignment(llvm::Align(16));
    jump = b.CreatePointerCast(jump, types.i8ptr);
    llvm::FunctionCallee setjmp = module->getOrInsertFunction("_setjmp", llvm::FunctionType::get(types.i32, {types.i8ptr}, false));
    if (auto *f = llvm::dyn_cast<llvm::Function>(setjmp.getCallee()))
      f->addFnAttr(llvm::Attribute::ReturnsTwice);
    llvm::CallInst *jumped = b.CreateCall(setjmp, {jump});
    jumped->addFnAttr(llvm::Attribute::ReturnsTwice);
    fe.returnIfFailed(jumped, b.getInt32(fe.functionFailure(kFunctionExternalError)));
    auto *voidOfPtr = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {types.i8ptr}, false);
    b.CreateCall(declareExternal("eqc_external_enter", voidOfPtr), {jump});
    Value *r = b.CreateCall(callee, args);
    b.CreateCall(declareExternal("eqc_external_leave", llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), false)));
    if (call.resultSlot >= 0 && call.resultType == CType::String &&
        !call.resultKept) // valid until the next call: kept
      r = b.CreateCall(
          declareExternal("eqc_string_keep", llvm::FunctionType::get(types.i8ptr, {types.i8ptr}, false)),
          {r});
    if (call.resultSlot >= 0)
      b.CreateStore(call.resultType == CType::Double                                         ? r
                    : call.resultType == CType::Object || call.resultType == CType::String ? bitsOfAddress(b, r)
                                                                                             : b.CreateSIToFP(r, f64),
                    slot(call.resultSlot));
    for (auto &[a, array] : copies)
      if (a->written)
        for (int k = 0; k < a->count; ++k) {
          llvm::Type *element = a->type == CType::Double ? f64 : types.i32;
          Value *x = b.CreateLoad(element, b.CreateConstGEP1_32(element, array, copyIndex(*a, k)));
          b.CreateStore(a->type == CType::Double ? x : b.CreateSIToFP(x, f64), slot(a->slot + k));
        }
  }

  /// z(t, x, dx, a, p): the event indicator of every condition, after rhs at the same point.
  void emitEventIndicators() {
    std::vector<const Expr *> z;
    for (int v : model.discretes)
      if (const Expr *r = flat.vars[v].relation)
        z.push_back(flat.ctx->sub(r->op(1), r->op(0)));
    emitPointFunction(symbols.zc, z);
  }

  /// zc_sensitivities(t, x, dx, a, p, z) (eqc_model.indicator_sensitivities): z[k * P + j], the
  /// derivative of indicator k along sensitivity parameter j, after rhs at the same point.
  void emitIndicatorSensitivities() {
    std::vector<std::unordered_map<int, const Expr *>> of;
    for (const SensitivityParameter &s : flat.sensitivities)
      of.emplace_back(s.indicators.begin(), s.indicators.end());
    std::vector<const Expr *> z;
    for (int v : model.discretes)
      if (flat.vars[v].relation)
        for (const auto &indicators : of) {
          auto it = indicators.find(v);
          z.push_back(it != indicators.end() ? it->second : nullptr);
        }
    emitPointFunction(symbols.indicatorSensitivities, z);
  }

  /// asserts(t, x, dx, a, p, skip, failed, message, size) (eqc_model_assert_fn): the assertions
  /// not skipped, in order; the first that fails writes its index and its message (snprintf, as
  /// Modelica's String() formats numbers).
  void emitAssertions() {
    auto *i8 = llvm::Type::getInt8Ty(ctx);
    auto *i64 = llvm::Type::getInt64Ty(ctx);
    auto *type = llvm::FunctionType::get(types.i32,
                                         {types.f64, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr, types.i8ptr,
                                          types.i32->getPointerTo(), types.i8ptr, i64},
                                         false);
    llvm::Function *f = newRoot(symbols.asserts, type);
    if (f->isDeclaration())
      return;
    auto args = f->arg_begin();
    Frame frame{&*args, &*(args + 1), &*(args + 2), &*(args + 3), &*(args + 4)};
    Value *skip = &*(args + 5), *failed = &*(args + 6), *message = &*(args + 7), *size = &*(args + 8);
    FunctionEmitter fe(*this, f, frame);
    auto &b = fe.b();
    llvm::Function *snprintf =
        declareExternal("snprintf", llvm::FunctionType::get(types.i32, {types.i8ptr, i64, types.i8ptr}, true));
    b.CreateStore(b.getInt32(-1), failed);
    Value *trueText = nullptr, *falseText = nullptr;
    for (size_t k = 0; k < flat.assertions.size(); ++k) {
      const Assertion &assertion = flat.assertions[k];
      llvm::BasicBlock *check = llvm::BasicBlock::Create(ctx, "assert", f);
      llvm::BasicBlock *fails = llvm::BasicBlock::Create(ctx, "fails", f);
      llvm::BasicBlock *next = llvm::BasicBlock::Create(ctx, "next", f);
      Value *skipped = b.CreateICmpNE(b.CreateLoad(i8, b.CreateConstGEP1_64(i8, skip, k)), b.getInt8(0));
      b.CreateCondBr(skipped, next, check);
      b.SetInsertPoint(check);
      Value *holds = fe.emit(assertion.condition);
      if (holds->getType() != types.i1)
        holds = b.CreateFCmpUNE(holds, llvm::ConstantFP::get(types.f64, 0.0));
      b.CreateCondBr(holds, next, fails);
      b.SetInsertPoint(fails);
      std::string format;
      std::vector<Value *> printed{message, size, nullptr};
      for (const MessagePart &part : assertion.message) {
        if (!part.value) {
          for (char ch : part.text)
            format += ch == '%' ? std::string("%%") : std::string(1, ch);
          continue;
        }
        Value *v = fe.emit(part.value);
        if (!part.literals.empty()) { // an enumeration value: the name of literal k
          Value *k = b.CreateFPToSI(asDouble(b, v), types.i32);
          Value *name = b.CreateGlobalStringPtr("?", symbols.prefix + "literal");
          for (size_t i = part.literals.size(); i-- > 0;)
            name = b.CreateSelect(b.CreateICmpEQ(k, b.getInt32(static_cast<int>(i + 1))),
                                  b.CreateGlobalStringPtr(part.literals[i], symbols.prefix + "literal"), name);
          printed.push_back(name);
          format += "%" + part.format;
        } else if (part.type == ValueType::String) { // a String variable's handle: its text
          auto *text = llvm::FunctionType::get(types.i8ptr, {types.f64}, false);
          printed.push_back(b.CreateCall(declareExternal("eqc_string_text", text), {asDouble(b, v)}));
          format += "%s";
        } else if (part.type == ValueType::Boolean) {
          if (!trueText) {
            trueText = b.CreateGlobalStringPtr("true", symbols.prefix + "true");
            falseText = b.CreateGlobalStringPtr("false", symbols.prefix + "false");
          }
          if (v->getType() != types.i1)
            v = b.CreateFCmpUNE(v, llvm::ConstantFP::get(types.f64, 0.0));
          printed.push_back(b.CreateSelect(v, trueText, falseText));
          format += "%" + part.format;
        } else if (std::strchr("diuoxX", part.format.back())) { // an Integer: as long long
          printed.push_back(b.CreateFPToSI(asDouble(b, v), i64));
          format += "%" + part.format.substr(0, part.format.size() - 1) + "ll" + part.format.back();
        } else {
          printed.push_back(asDouble(b, v));
          format += "%" + part.format;
        }
      }
      printed[2] = b.CreateGlobalStringPtr(format, symbols.prefix + "assert_message");
      b.CreateStore(b.getInt32(static_cast<int>(k)), failed);
      b.CreateCall(snprintf, printed);
      b.CreateRet(b.getInt32(0));
      b.SetInsertPoint(next);
      fe.clearMemo();
    }
    b.CreateRet(b.getInt32(0));
  }

  /// The discrete update at an event (see eqc_model_event_fn): discrete equations in order, then
  /// every when-clause whose condition became true (at initialization: whose condition holds and
  /// contains initial()), then the reinits.
  void emitEventUpdate() {
    auto *type = llvm::FunctionType::get(types.i32, {types.f64, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr}, false);
    llvm::Function *f = newRoot(symbols.event, type);
    if (f->isDeclaration())
      return;
    auto args = f->arg_begin();
    Frame frame{&*args, &*(args + 1), &*(args + 2), &*(args + 3), &*(args + 4)};
    FunctionEmitter fe(*this, f, frame);
    auto &b = fe.b();
    auto *f64 = types.f64;
    ExprContext &c = *flat.ctx;
    Value *terminate = b.CreateAlloca(types.i32);
    b.CreateStore(b.getInt32(0), terminate);
    // Allocas for the reinits go before everything else in the entry block.
    llvm::IRBuilder<> entry(&f->getEntryBlock(), f->getEntryBlock().begin());
    for (const DiscreteEquation &eq : flat.discreteEquations) {
      fe.chunk();
      Value *v = asDouble(b, fe.emit(eq.value));
      b.CreateStore(v, fe.address(eq.var));
      fe.forget(eq.var);
    }
    struct Reinit {
      int var;
      Value *value, *fired;
    };
    std::vector<Reinit> reinits;
    Value *isInitial = fe.emit(c.initial());
    // MLS 3.5, 8.3.5: a variable of a when-clause that does not fire keeps pre(v). Within one
    // step of the event iteration (pre() fixed, passes repeated until the values repeat), a
    // value assigned by an earlier pass must not be read as the one before the event.
    std::vector<int> whenAssigned;
    for (const WhenClause &w : flat.whens)
      for (const WhenBranch &br : w.branches)
        for (const auto &[v, e] : br.assignments)
          whenAssigned.push_back(v);
    std::sort(whenAssigned.begin(), whenAssigned.end());
    whenAssigned.erase(std::unique(whenAssigned.begin(), whenAssigned.end()), whenAssigned.end());
    for (int v : whenAssigned) {
      const bool isBool = flat.vars[v].type == ValueType::Boolean;
      Value *before = asDouble(b, fe.emit(c.pre(v, isBool)));
      Value *now = b.CreateLoad(f64, fe.address(v));
      b.CreateStore(b.CreateSelect(isInitial, now, before), fe.address(v));
      fe.forget(v);
      fe.chunk();
    }
    for (const WhenClause &w : flat.whens) {
      Value *firedBefore = b.getInt1(false);
      for (const WhenBranch &br : w.branches) {
        Value *fires = b.getInt1(false);
        for (size_t k = 0; k < br.conditions.size(); ++k) {
          const Expr *cond = br.conditions[k];
          Value *now = fe.emit(cond);
          Value *edge = b.CreateAnd(now, b.CreateNot(fe.emit(c.pre(cond->var(), true))));
          Value *atStart = br.initial[k] ? now : b.getInt1(false);
          fires = b.CreateOr(fires, b.CreateSelect(isInitial, atStart, edge));
        }
        fires = b.CreateAnd(fires, b.CreateNot(firedBefore));
        firedBefore = b.CreateOr(firedBefore, fires);
        llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "when", f);
        llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx, "endwhen", f);
        b.CreateCondBr(fires, body, end);
        b.SetInsertPoint(body);
        fe.inBranch([&]() -> Value * {
          std::vector<Value *> reinitValues;
          if (br.equations) {
            // A when-equation's equations: each value after those it reads, which it sees.
            for (size_t i : assignmentOrder(br)) {
              const auto &[v, e] = br.assignments[i];
              b.CreateStore(asDouble(b, fe.emit(e)), fe.address(v));
              fe.clearMemo(); // what was computed from the variable's old value
              fe.chunk();
            }
            for (auto &[v, e] : br.reinits)
              reinitValues.push_back(fe.emit(e));
          } else {
            // An algorithm's values are in terms of those before it: all first, then the stores.
            std::vector<Value *> values;
            for (auto &[v, e] : br.assignments) {
              values.push_back(asDouble(b, fe.emit(e)));
              fe.chunk();
            }
            for (auto &[v, e] : br.reinits)
              reinitValues.push_back(fe.emit(e));
            for (size_t i = 0; i < br.assignments.size(); ++i)
              b.CreateStore(values[i], fe.address(br.assignments[i].first));
          }
          for (size_t i = 0; i < br.reinits.size(); ++i) {
            // The value, and whether the branch fired (a NaN value must reach the state: the
            // integrator reports it).
            Value *pending = entry.CreateAlloca(f64);
            Value *fired = entry.CreateAlloca(types.i1);
            entry.CreateStore(entry.getInt1(false), fired);
            b.CreateStore(reinitValues[i], pending);
            b.CreateStore(b.getInt1(true), fired);
            reinits.push_back({br.reinits[i].first, pending, fired});
          }
          if (br.terminates)
            b.CreateStore(b.getInt32(EQC_MODEL_EVENT_TERMINATE), terminate);
          return nullptr;
        });
        b.CreateBr(end);
        b.SetInsertPoint(end);
        for (auto &[v, e] : br.assignments)
          fe.forget(v);
      }
    }
    for (const Reinit &r : reinits) {
      Value *set = b.CreateLoad(types.i1, r.fired);
      Value *addr = fe.address(r.var);
      b.CreateStore(b.CreateSelect(set, b.CreateLoad(f64, r.value), b.CreateLoad(f64, addr)), addr);
    }
    b.CreateRet(b.CreateLoad(types.i32, terminate));
  }

  /// A function that other functions of the model call across parts (an entry point or a part of
  /// one): defined here when this module's part owns it (roots are dealt round-robin in the order
  /// they are made, the same in every part), else declared. Callers emit a body only into a
  /// definition (`!f->isDeclaration()`). Unsplit, `internal` roots keep internal linkage; split,
  /// they are external and hidden (their names are unique to the model).
  llvm::Function *newRoot(const std::string &name, llvm::FunctionType *type, bool internal = false) {
    const bool owned = split.count <= 1 || rootsMade_++ % split.count == split.index;
    if (!owned) {
      llvm::Function *f = module->getFunction(name);
      if (!f || f->getFunctionType() != type)
        f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module.get());
      f->setDoesNotThrow();
      if (internal)
        f->setVisibility(llvm::GlobalValue::HiddenVisibility);
      return f;
    }
    llvm::Function *f = newFunction(name, type, internal && split.count <= 1);
    if (internal && split.count > 1)
      f->setVisibility(llvm::GlobalValue::HiddenVisibility);
    return f;
  }

  llvm::Function *newFunction(const std::string &name, llvm::FunctionType *type, bool internal) {
    auto linkage = internal ? llvm::Function::InternalLinkage : llvm::Function::ExternalLinkage;
    // A function called before it is emitted (a Jacobian by differences of its constraints, in
    // one module with them) was declared (declareExternal): that declaration gets the body.
    llvm::Function *f = module->getFunction(name);
    if (f && f->isDeclaration() && f->getFunctionType() == type)
      f->setLinkage(linkage);
    else
      f = llvm::Function::Create(type, linkage, name, module.get());
    f->setDoesNotThrow();
    llvm::BasicBlock::Create(ctx, "entry", f);
    return f;
  }

  /// `void loop(i8* env, double* res, double* jac)`: residuals and (when jac != null) Jacobian.
  llvm::Function *emitLoopFunction(const std::string &name, const AlgebraicLoop &loop) {
    llvm::Function *f = newFunction(name, types.block, true);
    auto args = f->arg_begin();
    Value *envRaw = &*args++;
    Value *res = &*args++;
    Value *jac = &*args;
    llvm::IRBuilder<> entry(&f->getEntryBlock());
    Value *env = entry.CreateBitCast(envRaw, types.env->getPointerTo());
    auto field = [&](unsigned i, llvm::Type *t) {
      return entry.CreateLoad(t, entry.CreateStructGEP(types.env, env, i));
    };
    Frame frame{field(0, types.f64), field(1, types.f64ptr), field(2, types.f64ptr), field(3, types.f64ptr),
                field(4, types.f64ptr)};
    FunctionEmitter fe(*this, f, frame);
    auto &b = fe.b();
    bool calls = false;
    for (const Expr *r : loop.residuals)
      calls = calls || containsCall(r);
    for (const Expr *j : loop.jacobian)
      calls = calls || containsCall(j);
    if (calls) // a failing function call leaves the residuals NaN (see returnIfFailed)
      for (size_t i = 0; i < loop.residuals.size(); ++i)
        b.CreateStore(llvm::ConstantFP::get(types.f64, NAN), b.CreateConstGEP1_64(types.f64, res, i));
    for (size_t i = 0; i < loop.residuals.size(); ++i)
      b.CreateStore(fe.emit(loop.residuals[i]), b.CreateConstGEP1_64(types.f64, res, i));
    llvm::BasicBlock *withJac = llvm::BasicBlock::Create(ctx, "jacobian", f);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx, "done", f);
    b.CreateCondBr(b.CreateIsNull(jac), done, withJac);
    b.SetInsertPoint(withJac);
    for (size_t k = 0; k < loop.jacobian.size(); ++k)
      b.CreateStore(fe.emit(loop.jacobian[k]), b.CreateConstGEP1_64(types.f64, jac, k));
    b.CreateBr(done);
    b.SetInsertPoint(done);
    b.CreateRetVoid();
    return f;
  }

  /// Emits the call of eqc_solve_block for one loop; the solved values are reloaded afterwards.
  /// Newton on `loop` through eqc_solve_block. A torn loop whose iteration fails is solved again
  /// whole (every unknown iterated, from the values the failed iteration left): tearing folds the
  /// torn equations into the residuals, and from a poor start the smaller system can fail where
  /// the whole one converges; the whole one costs its code only.
  void emitLoopSolve(FunctionEmitter &fe, Frame frame, const AlgebraicLoop &loop, llvm::Function *fn,
                     int loopIndex, const std::string &name) {
    auto &b = fe.b();
    llvm::IRBuilder<> entry(&fe.function()->getEntryBlock(), fe.function()->getEntryBlock().begin());
    Value *env = entry.CreateAlloca(types.env);
    Value *fields[] = {frame.t, frame.x, frame.dx, frame.a, frame.p};
    for (unsigned i = 0; i < 5; ++i)
      b.CreateStore(fields[i], b.CreateStructGEP(types.env, env, i));
    // The unknowns' addresses, all computed here (before any branch).
    auto pointers = [&](const AlgebraicLoop &l) {
      Value *ptrs = entry.CreateAlloca(types.f64ptr, b.getInt32(static_cast<int>(l.vars.size())));
      for (size_t j = 0; j < l.vars.size(); ++j)
        b.CreateStore(fe.address(l.vars[j]), b.CreateConstGEP1_64(types.f64ptr, ptrs, j));
      return ptrs;
    };
    Value *ptrs = pointers(loop);
    Value *wholePtrs = loop.untorn ? pointers(*loop.untorn) : nullptr;
    auto *solveType = llvm::FunctionType::get(
        types.i32, {types.i32, types.f64ptrptr, types.block->getPointerTo(), types.i8ptr, types.f64, types.i32}, false);
    llvm::Function *solve = declareExternal("eqc_solve_block", solveType);
    auto call = [&](const AlgebraicLoop &l, Value *p, llvm::Function *f) {
      return b.CreateCall(solve, {b.getInt32(static_cast<int>(l.vars.size())), p, f, b.CreateBitCast(env, types.i8ptr),
                                  llvm::ConstantFP::get(types.f64, kNewtonTol), b.getInt32(kNewtonMaxIter)});
    };
    // The tearing variables' values before the iteration: the whole loop starts from them again.
    Value *saved = nullptr;
    if (loop.untorn) {
      saved = entry.CreateAlloca(types.f64, b.getInt32(static_cast<int>(loop.vars.size())));
      for (size_t j = 0; j < loop.vars.size(); ++j)
        b.CreateStore(b.CreateLoad(types.f64, fe.address(loop.vars[j])), b.CreateConstGEP1_64(types.f64, saved, j));
    }
    Value *status = call(loop, ptrs, fn);
    if (loop.untorn) {
      llvm::Function *wholeFn = emitLoopFunction(name + "_whole", *loop.untorn);
      llvm::BasicBlock *from = b.GetInsertBlock();
      llvm::BasicBlock *retry = llvm::BasicBlock::Create(ctx, "retry_whole", fe.function());
      llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx, "solved", fe.function());
      b.CreateCondBr(b.CreateICmpNE(status, b.getInt32(0)), retry, done);
      b.SetInsertPoint(retry);
      for (size_t j = 0; j < loop.vars.size(); ++j)
        b.CreateStore(b.CreateLoad(types.f64, b.CreateConstGEP1_64(types.f64, saved, j)),
                      b.CreateLoad(types.f64ptr, b.CreateConstGEP1_64(types.f64ptr, ptrs, j)));
      Value *second = call(*loop.untorn, wholePtrs, wholeFn);
      llvm::BasicBlock *retried = b.GetInsertBlock();
      b.CreateBr(done);
      b.SetInsertPoint(done);
      llvm::PHINode *phi = b.CreatePHI(types.i32, 2);
      phi->addIncoming(status, from);
      phi->addIncoming(second, retried);
      status = phi;
    }
    fe.returnIfFailed(status, b.getInt32(EQC_MODEL_LOOP_FAILURE_BASE + loopIndex));
    for (int var : loop.vars)
      fe.forget(var);
    if (loop.untorn)
      for (int var : loop.untorn->vars)
        fe.forget(var);
  }

  llvm::FunctionType *invariantType() {
    return llvm::FunctionType::get(types.i32, {types.f64, types.f64ptr, types.f64ptr, types.f64ptr}, false);
  }

  /// The frame of a function with the invariants' signature `(t, x, p, out)`.
  static Frame invariantFrame(llvm::Function *f) {
    auto args = f->arg_begin();
    return Frame{&*args, &*(args + 1), nullptr, nullptr, &*(args + 2)};
  }

  /// g(t, x, p): the hidden constraints, which involve states, parameters and time only.
  void emitInvariants(const std::string &name, const std::vector<const Expr *> &residuals,
                      const std::vector<StepRun> &runs) {
    llvm::Function *f = newRoot(name, invariantType());
    emitInParts(f, runs, kItemsPerFunction, invariantFrame, [&](FunctionEmitter &fe, size_t i) {
      Value *g = &*(fe.function()->arg_begin() + 3);
      fe.b().CreateStore(fe.emit(residuals[i]), fe.b().CreateGEP(types.f64, g, fe.place(static_cast<long>(i))));
    });
  }

  /// g(t, x, p) of constraints that read what the ODE computes (OdeModel::initialConstraintsReadOde):
  /// dx and a on the stack, the loops' unknowns at their start values (Newton's guesses, as the
  /// driver's), rhs, then the residuals from (t, x, dx, a, p) in `<name>_residuals`. A failure of
  /// rhs (a loop that does not converge) is g's.
  void emitOdeReadingConstraints(const std::string &name, llvm::Function *rhs,
                                 const std::vector<const Expr *> &residuals, const std::vector<StepRun> &runs) {
    llvm::Function *f = newRoot(name, invariantType());
    auto *innerType = llvm::FunctionType::get(
        types.i32, {types.f64, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr}, false);
    llvm::Function *inner = newRoot(name + "_residuals", innerType, true);
    emitInParts(
        inner, runs, kItemsPerFunction,
        [](llvm::Function *fn) {
          auto args = fn->arg_begin();
          return Frame{&*args, &*(args + 1), &*(args + 2), &*(args + 3), &*(args + 4)};
        },
        [&](FunctionEmitter &fe, size_t i) {
          Value *g = &*(fe.function()->arg_begin() + 5);
          fe.b().CreateStore(fe.emit(residuals[i]), fe.b().CreateGEP(types.f64, g, fe.place(static_cast<long>(i))));
        });
    if (f->isDeclaration())
      return;
    auto args = f->arg_begin();
    Value *t = &*args, *x = &*(args + 1), *p = &*(args + 2), *g = &*(args + 3);
    llvm::IRBuilder<> b(&f->getEntryBlock());
    auto buffer = [&](size_t n) { return b.CreateAlloca(types.f64, b.getInt32(static_cast<int>(std::max<size_t>(n, 1)))); };
    Value *dx = buffer(model.states.size());
    Value *a = buffer(model.algebraics.size());
    {
      FunctionEmitter fe(*this, f, Frame{t, x, dx, a, p});
      for (const AlgebraicLoop &loop : model.ode.loops)
        for (const AlgebraicLoop *l = &loop; l; l = l->untorn.get())
          for (int v : l->vars)
            if (model.slots[v].storage == Storage::Algebraic)
              fe.b().CreateStore(flat.vars[v].hasStart ? asDouble(fe.b(), fe.emit(flat.vars[v].binding))
                                                       : llvm::ConstantFP::get(types.f64, 0.0),
                                 fe.address(v));
      b.SetInsertPoint(fe.b().GetInsertBlock());
    }
    emitCallOrReturn(b, f, rhs, {t, x, dx, a, p});
    b.CreateRet(b.CreateCall(inner, {t, x, dx, a, p, g}));
  }

  /// Items (residuals, start values, Jacobian rows) per function of emitInParts: LLVM's code
  /// generation is superlinear in the size of one function (one function of the 10^5-equation
  /// pendula's 8·10^4 invariants took most of the JIT's 29 s).
  static constexpr size_t kItemsPerFunction = 256;

  /// Fills `f` (just created, empty) with the items of `runs`, `emit(fe, k)` emitting item k: a
  /// single item as it is, a run of alike items as a loop over its blocks with its variables and
  /// places (FunctionEmitter::place) rolled; in f itself when there are at most `perPart` runs,
  /// else in internal noinline functions of f's signature of `perPart` runs each, which f calls in
  /// order with its own arguments, returning the first non-zero status. `frameOf` gives a
  /// function's frame from its arguments.
  template <typename FrameOf, typename Emit>
  void emitInParts(llvm::Function *f, const std::vector<StepRun> &runs, size_t perPart, FrameOf frameOf, Emit emit) {
    emitParts(f, runs.size(), perPart, f->getName().str() + "_part",
              [&](llvm::Function *into, size_t begin, size_t end, bool) {
                const Frame frame = frameOf(into);
                FunctionEmitter fe(*this, into, frame);
                for (size_t r = begin; r < end; ++r) {
                  if (runs[r].steps() == 1) {
                    emit(fe, runs[r].begin);
                    continue;
                  }
                  emitLoop(fe, frame, runs[r], [&](FunctionEmitter &iteration, Value *) {
                    for (size_t q = 0; q < runs[r].period; ++q)
                      emit(iteration, runs[r].begin + q);
                  });
                }
                fe.b().CreateRet(fe.b().getInt32(0));
              },
              [](llvm::IRBuilder<> &, const std::vector<Value *> &) {});
  }

  /// The shape of every function that grows with the model: `f` (made by newRoot) does items
  /// [0, n) itself when n <= perPart, else calls parts `<partPrefix>K` (roots, noinline, f's
  /// signature) of perPart items each in order, returning the first non-zero status, after
  /// `prologue(b, args)`. `emitRange(into, begin, end, whole)` emits items [begin, end) and the
  /// return into `into` (whole: into is f, unsplit). Only the functions this module owns
  /// (newRoot) get bodies.
  template <typename EmitRange, typename Prologue>
  void emitParts(llvm::Function *f, size_t n, size_t perPart, const std::string &partPrefix, EmitRange emitRange,
                 Prologue prologue) {
    const bool owned = !f->isDeclaration();
    if (n <= perPart) {
      if (owned)
        emitRange(f, 0, n, true);
      return;
    }
    std::optional<llvm::IRBuilder<>> b;
    std::vector<Value *> args;
    if (owned) {
      b.emplace(&f->getEntryBlock());
      for (auto &a : f->args())
        args.push_back(&a);
      prologue(*b, args);
    }
    for (size_t begin = 0, part = 0; begin < n; begin += perPart, ++part) {
      llvm::Function *chunk = newRoot(partPrefix + std::to_string(part), f->getFunctionType(), true);
      chunk->addFnAttr(llvm::Attribute::NoInline);
      if (!chunk->isDeclaration())
        emitRange(chunk, begin, std::min(n, begin + perPart), false);
      if (owned)
        emitCallOrReturn(*b, f, chunk, args);
    }
    if (owned)
      b->CreateRet(b->getInt32(0));
  }

  /// `i32 bind(const i8 *given, double *p)`: the dependent parameters from the others, in
  /// dependency order; one marked in `given` keeps its value. External objects and what reads
  /// them (`objects`, objectParameters' positions) are emitObjects's.
  void emitBind(const std::vector<int> &objects) {
    std::vector<int> order = dependentParameters(flat, model.params);
    if (!objects.empty()) {
      std::unordered_set<int> made(objects.begin(), objects.end());
      order.erase(std::remove_if(order.begin(), order.end(), [&](int k) { return made.count(k) > 0; }), order.end());
    }
    emitParameterFunction(symbols.bind, order);
  }

  /// `i32 objects(const i8 *given, double *p)` and `i32 release(double *p)` (eqc_model.h): the
  /// external objects (MLS 3.5, 12.9.7) made anew (the old ones freed) with the parameters that
  /// read them, and freed.
  void emitObjects(const std::vector<int> &order) {
    emitParameterFunction(symbols.objects, order);
    auto *type = llvm::FunctionType::get(types.i32, {types.f64ptr}, false);
    llvm::Function *f = newRoot(symbols.release, type);
    if (f->isDeclaration())
      return;
    Value *zero = llvm::ConstantFP::get(types.f64, 0.0);
    Frame frame{zero, nullptr, nullptr, nullptr, &*f->arg_begin()};
    FunctionEmitter fe(*this, f, frame);
    for (auto k = order.rbegin(); k != order.rend(); ++k) {
      const int var = model.params[static_cast<size_t>(*k)];
      if (flat.vars[var].object) {
        emitDestroy(fe, var);
        fe.b().CreateStore(zero, fe.address(var));
      }
    }
    fe.b().CreateRet(fe.b().getInt32(0));
  }

  /// The destructor of external object `var` on the address p holds, when it holds one.
  void emitDestroy(FunctionEmitter &fe, int var) {
    llvm::IRBuilder<> &b = fe.b();
    Value *old = b.CreateLoad(types.f64, fe.address(var));
    fe.define(var, old); // the destructor's argument, read here where both paths see it
    llvm::BasicBlock *destroy = llvm::BasicBlock::Create(ctx, "destroy", b.GetInsertBlock()->getParent());
    llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx, "destroyed", b.GetInsertBlock()->getParent());
    b.CreateCondBr(b.CreateICmpNE(b.CreateBitCast(old, b.getInt64Ty()), b.getInt64(0)), destroy, done);
    b.SetInsertPoint(destroy);
    fe.callFunction(flat.vars[var].destructor, {flat.ctx->var(var)});
    fe.b().CreateBr(done);
    fe.b().SetInsertPoint(done);
  }

  /// `i32 name(const i8 *given, double *p)`: parameters `order` (positions in model.params) from
  /// their bindings, in that order; one marked in `given` keeps its value, an external object is
  /// made anew (the old one freed).
  void emitParameterFunction(const std::string &name, const std::vector<int> &order) {
    auto *type = llvm::FunctionType::get(types.i32, {llvm::Type::getInt8PtrTy(ctx), types.f64ptr}, false);
    llvm::Function *f = newRoot(name, type);
    // In parts like every function that grows with the model: each Real select is a branch at
    // -O0 that splits its block, so one block of 20,000 of them (the bindings of an array
    // `theta[i] = f(i)`) costs LLVM time quadratic in their number (28 s at 4,000 pendula).
    emitParts(
        f, order.size(), kItemsPerFunction, name + "_part",
        [&](llvm::Function *into, size_t begin, size_t end, bool) {
          auto args = into->arg_begin();
          Value *given = &*args;
          Frame frame{llvm::ConstantFP::get(types.f64, 0.0), nullptr, nullptr, nullptr, &*(args + 1)};
          FunctionEmitter fe(*this, into, frame);
          for (size_t i = begin; i < end; ++i)
            emitParameter(fe, given, order[i]);
          fe.b().CreateRet(fe.b().getInt32(0));
        },
        [](llvm::IRBuilder<> &, const std::vector<Value *> &) {});
  }

  /// Parameter k := its binding, unless `given[k]` (then it keeps its value); an external object
  /// is destroyed and made again.
  void emitParameter(FunctionEmitter &fe, Value *given, int k) {
    const int var = model.params[static_cast<size_t>(k)];
    Value *cell = fe.address(var);
    llvm::IRBuilder<> &b = fe.b();
    if (flat.vars[var].object) {
      emitDestroy(fe, var);
      Value *value = asDouble(b, fe.emit(flat.vars[var].binding));
      b.CreateStore(value, cell);
      fe.define(var, value);
      return;
    }
    Value *kept = b.CreateICmpNE(b.CreateLoad(b.getInt8Ty(), b.CreateConstGEP1_64(b.getInt8Ty(), given, k)),
                                 b.getInt8(0));
    Value *value = b.CreateSelect(kept, b.CreateLoad(types.f64, cell), asDouble(b, fe.emit(flat.vars[var].binding)));
    b.CreateStore(value, cell);
    fe.define(var, value);
  }

  /// `i32 discrete_start(double *p)`: the discrete part of p from the parameters (see
  /// eqc_model_discrete_start_fn).
  void emitDiscreteStart() {
    auto *type = llvm::FunctionType::get(types.i32, {types.f64ptr}, false);
    llvm::Function *f = newRoot(symbols.discreteStart, type);
    if (f->isDeclaration())
      return;
    Value *zero = llvm::ConstantFP::get(types.f64, 0.0);
    Frame frame{zero, nullptr, nullptr, nullptr, &*f->arg_begin()};
    FunctionEmitter fe(*this, f, frame);
    llvm::IRBuilder<> &b = fe.b();
    auto cell = [&](size_t offset) { return b.CreateConstGEP1_64(types.f64, frame.p, offset); };
    for (size_t j = 0; j < model.discretes.size(); ++j) {
      const Variable &v = flat.vars[model.discretes[j]];
      Value *start = v.hasStart && v.binding ? asDouble(b, fe.emit(v.binding)) : zero;
      b.CreateStore(start, cell(model.discreteOffset() + j));
      b.CreateStore(start, cell(model.preOffset() + j));
    }
    for (size_t k = 0; k < model.preContinuous.size(); ++k)
      b.CreateStore(zero, cell(model.preContinuousOffset() + k));
    b.CreateStore(llvm::ConstantFP::get(types.f64, 1.0), cell(model.initialFlagOffset()));
    b.CreateRet(b.getInt32(0));
  }

  /// `i32 start(const double *p, double *x)`: the start values that read parameters.
  void emitStart() {
    auto *type = llvm::FunctionType::get(types.i32, {types.f64ptr, types.f64ptr}, false);
    llvm::Function *f = newRoot(symbols.start, type);
    Value *zero = llvm::ConstantFP::get(types.f64, 0.0);
    const std::vector<int> &starts = runs->starts;
    auto frameOf = [zero](llvm::Function *fn) {
      auto args = fn->arg_begin();
      return Frame{zero, &*(args + 1), nullptr, nullptr, &*args};
    };
    emitInParts(f, runs->startRuns, kItemsPerFunction, frameOf, [&](FunctionEmitter &fe, size_t k) {
      const int var = model.states[static_cast<size_t>(starts[k])];
      fe.b().CreateStore(asDouble(fe.b(), fe.emit(flat.vars[var].binding)), fe.address(var));
    });
  }

  /// G = ∂g/∂x as the values of constraintJacobianPattern (one store per entry, 0 where the
  /// partial derivative vanishes).
  void emitInvariantJacobian(const std::string &name, const ConstraintJacobianEntries &entries,
                             const std::vector<StepRun> &runs) {
    llvm::Function *f = newRoot(name, invariantType());
    emitInParts(f, runs, kItemsPerFunction, invariantFrame, [&](FunctionEmitter &fe, size_t i) {
      auto &b = fe.b();
      Value *values = &*(fe.function()->arg_begin() + 3);
      for (auto [place, partial] : entries[i])
        b.CreateStore(partial->isConst(0) ? llvm::ConstantFP::get(types.f64, 0.0) : fe.emit(partial),
                      b.CreateGEP(types.f64, values, fe.place(place)));
    });
  }

  /// G = ∂g/∂x as the values of `pattern` by forward differences of the constraints `of`
  /// (eqc_constraint_jacobian_fd of the runtime, the pattern a constant of the module).
  void emitDifferenceJacobian(const std::string &name, const std::string &of, const SparsityPattern &pattern) {
    llvm::Function *f = newRoot(name, invariantType());
    if (f->isDeclaration())
      return;
    llvm::Function *g = declareExternal(of.c_str(), invariantType());
    auto constant = [&](const std::vector<int> &values, const std::string &suffix) -> Value * {
      std::vector<int32_t> data(values.begin(), values.end());
      if (data.empty())
        data.push_back(0);
      auto *init = llvm::ConstantDataArray::get(ctx, data);
      auto *global = new llvm::GlobalVariable(*module, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                              init, name + suffix);
      return llvm::ConstantExpr::getBitCast(global, llvm::Type::getInt32PtrTy(ctx));
    };
    auto args = f->arg_begin();
    llvm::IRBuilder<> b(&f->getEntryBlock());
    auto *i32ptr = llvm::Type::getInt32PtrTy(ctx);
    auto *type = llvm::FunctionType::get(types.i32,
                                         {invariantType()->getPointerTo(), types.i32, types.i32, i32ptr, i32ptr,
                                          types.f64, types.f64ptr, types.f64ptr, types.f64ptr},
                                         false);
    const int n = static_cast<int>(model.states.size());
    const int rows = static_cast<int>(model.initialConstraints.residuals.size());
    b.CreateRet(b.CreateCall(declareExternal("eqc_constraint_jacobian_fd", type),
                             {g, b.getInt32(n), b.getInt32(rows), constant(pattern.colStart, "_col_start"),
                              constant(pattern.rowIndex, "_row_index"), &*args, &*(args + 1), &*(args + 2),
                              &*(args + 3)}));
  }

  /// Whether a block's matrix reads a discrete variable (or its pre()).
  bool modeDependent(const AlgebraicLoop &loop) const {
    for (const Expr *entry : loop.jacobian) {
      bool discrete = false;
      if (!entry->isConst())
        forEachNode(entry, [&](const Expr *n) {
          discrete = n->kind() == ExprKind::Pre ||
                     (n->kind() == ExprKind::Var && flat.vars[n->var()].role == VarRole::Discrete);
          return discrete ? Walk::Stop : Walk::Descend;
        });
      if (discrete)
        return true;
    }
    return false;
  }

  /// A linear block A w = -offset: A and the right-hand side on the stack, one call of eqc_linsolve.
  void emitLinearSolve(FunctionEmitter &fe, const AlgebraicLoop &loop, int loopIndex) {
    emitLinearSolve(fe, loop, fe.b().getInt32(EQC_MODEL_LOOP_FAILURE_BASE + loopIndex));
  }
  /// A linear block solved by one LU (eqc_linsolve); `failureCode` returned when it is singular.
  void emitLinearSolve(FunctionEmitter &fe, const AlgebraicLoop &loop, Value *failureCode) {
    auto &b = fe.b();
    int m = static_cast<int>(loop.vars.size());
    llvm::IRBuilder<> entry(&fe.function()->getEntryBlock(), fe.function()->getEntryBlock().begin());
    Value *mat = entry.CreateAlloca(types.f64, b.getInt32(m * m));
    Value *rhs = entry.CreateAlloca(types.f64, b.getInt32(m));
    for (int k = 0; k < m * m; ++k)
      b.CreateStore(fe.emit(loop.jacobian[k]), b.CreateConstGEP1_64(types.f64, mat, k));
    for (int i = 0; i < m; ++i)
      b.CreateStore(b.CreateFNeg(fe.emit(loop.offset[i])), b.CreateConstGEP1_64(types.f64, rhs, i));
    Value *status;
    if (modeDependent(loop)) {
      // A matrix that changes with the discrete state may be singular in some modes while the
      // system stays consistent (two stuck friction elements in series: only the sum of their
      // torques is determined); there the solution nearest the unknowns' values before is taken.
      Value *before = entry.CreateAlloca(types.f64, b.getInt32(m));
      for (int i = 0; i < m; ++i)
        b.CreateStore(b.CreateLoad(types.f64, fe.address(loop.vars[i])), b.CreateConstGEP1_64(types.f64, before, i));
      auto *nearestType = llvm::FunctionType::get(
          types.i32, {types.i32, types.f64ptr, types.f64ptr, types.i32, types.f64ptr}, false);
      status = b.CreateCall(declareExternal("eqc_linsolve_nearest", nearestType),
                            {b.getInt32(m), mat, rhs, b.getInt32(1), before});
    } else {
      auto *linsolveType = llvm::FunctionType::get(types.i32, {types.i32, types.f64ptr, types.f64ptr, types.i32}, false);
      status = b.CreateCall(declareExternal("eqc_linsolve", linsolveType), {b.getInt32(m), mat, rhs, b.getInt32(1)});
    }
    fe.returnIfFailed(status, failureCode);
    for (int i = 0; i < m; ++i) {
      Value *v = b.CreateLoad(types.f64, b.CreateConstGEP1_64(types.f64, rhs, i));
      b.CreateStore(v, fe.address(loop.vars[i]));
      fe.define(loop.vars[i], v);
    }
  }

  /// `name(args) { return target(args); }`, with target kept out of line so its body is compiled once.
  void emitForwarder(const std::string &name, llvm::Function *target) {
    llvm::Function *f = newRoot(name, target->getFunctionType());
    target->addFnAttr(llvm::Attribute::NoInline);
    if (f->isDeclaration())
      return;
    llvm::IRBuilder<> b(&f->getEntryBlock());
    std::vector<Value *> args;
    for (auto &a : f->args())
      args.push_back(&a);
    b.CreateRet(b.CreateCall(target, args));
  }

  /// Copies above this many are a loop over a constant table instead of straight-line code.
  static constexpr size_t kStraightCopies = 64;

  /// dx[to] = x[from] for the model's chain copies (der(x) = v with v a state): straight-line when
  /// few, else a loop over a constant table of (to, from) pairs, so that the code's size (and its
  /// compile time) does not grow with the model.
  void emitChainCopies(llvm::IRBuilder<> &b, Value *x, Value *dx) {
    const auto &copies = model.chainCopies;
    if (copies.size() <= kStraightCopies) {
      for (auto [to, from] : copies)
        b.CreateStore(b.CreateLoad(types.f64, b.CreateConstGEP1_64(types.f64, x, from)),
                      b.CreateConstGEP1_64(types.f64, dx, to));
      return;
    }
    std::vector<uint32_t> pairs;
    pairs.reserve(2 * copies.size());
    for (auto [to, from] : copies) {
      pairs.push_back(static_cast<uint32_t>(to));
      pairs.push_back(static_cast<uint32_t>(from));
    }
    llvm::Constant *data = llvm::ConstantDataArray::get(ctx, pairs);
    auto *table = new llvm::GlobalVariable(*module, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data,
                                           "chain_copies");
    llvm::Function *f = b.GetInsertBlock()->getParent();
    llvm::BasicBlock *before = b.GetInsertBlock();
    llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx, "copy", f);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx, "copied", f);
    b.CreateBr(body);
    b.SetInsertPoint(body);
    llvm::PHINode *k = b.CreatePHI(b.getInt64Ty(), 2);
    k->addIncoming(b.getInt64(0), before);
    auto entry = [&](Value *index) {
      Value *cell = b.CreateGEP(data->getType(), table, {b.getInt64(0), index});
      return b.CreateZExt(b.CreateLoad(b.getInt32Ty(), cell), b.getInt64Ty());
    };
    Value *to = entry(b.CreateShl(k, 1));
    Value *from = entry(b.CreateAdd(b.CreateShl(k, 1), b.getInt64(1)));
    b.CreateStore(b.CreateLoad(types.f64, b.CreateGEP(types.f64, x, from)), b.CreateGEP(types.f64, dx, to));
    Value *next = b.CreateAdd(k, b.getInt64(1));
    k->addIncoming(next, body);
    b.CreateCondBr(b.CreateICmpULT(next, b.getInt64(copies.size())), body, done);
    b.SetInsertPoint(done);
  }

  /// The address of `var`'s slot `k·stride` slots further (k an i64 value).
  Value *strideAddress(llvm::IRBuilder<> &b, const Frame &frame, int var, Value *k, long stride) {
    const Slot &slot = model.slots[static_cast<size_t>(var)];
    int64_t first = slot.index;
    Value *base = frame.a;
    switch (slot.storage) {
    case Storage::Param: base = frame.p; break;
    case Storage::State: base = frame.x; break;
    case Storage::Derivative: base = frame.dx; break;
    case Storage::Algebraic: break;
    case Storage::Discrete:
      base = frame.p;
      first += static_cast<int64_t>(model.discreteOffset());
      break;
    }
    Value *index = b.getInt64(first);
    if (stride != 0)
      index = b.CreateAdd(index, b.CreateMul(k, b.getInt64(stride)));
    return b.CreateGEP(types.f64, base, index);
  }

  /// A run (middle/StepRuns.h) as a loop over its blocks k: `body(iteration, k)` emits the first
  /// block's items into a FunctionEmitter in which each variable and place of the run is k·stride
  /// further. `fe` continues after the loop.
  template <typename Body>
  void emitLoop(FunctionEmitter &fe, const Frame &frame, const StepRun &run, Body body) {
    llvm::Function *f = fe.function();
    llvm::BasicBlock *before = fe.b().GetInsertBlock();
    llvm::BasicBlock *loop = llvm::BasicBlock::Create(ctx, "run", f);
    fe.b().CreateBr(loop);
    FunctionEmitter iteration(*this, f, frame); // at f's last block: the loop's
    auto &b = iteration.b();
    llvm::PHINode *k = b.CreatePHI(b.getInt64Ty(), 2, "k");
    k->addIncoming(b.getInt64(0), before);
    for (auto [var, stride] : run.strides)
      iteration.roll(var, strideAddress(b, frame, var, k, stride));
    for (auto [place, stride] : run.places)
      iteration.rollPlace(place, b.CreateAdd(b.getInt64(place), b.CreateMul(k, b.getInt64(stride))));
    body(iteration, k);
    Value *next = b.CreateAdd(k, b.getInt64(1));
    k->addIncoming(next, b.GetInsertBlock());
    llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx, "ran", f);
    b.CreateCondBr(b.CreateICmpULT(next, b.getInt64(run.count)), loop, done);
    fe.b().SetInsertPoint(done);
  }

  /// A run of causal steps: assignments, and linear blocks whose failure code names this
  /// iteration's block (their indices advance evenly).
  void emitRun(FunctionEmitter &fe, const Frame &frame, const CausalSystem &cs, const StepRun &run) {
    emitLoop(fe, frame, run, [&](FunctionEmitter &iteration, Value *k) {
      auto &b = iteration.b();
      for (size_t q = 0; q < run.period; ++q) {
        const CausalStep &step = cs.steps[run.begin + q];
        if (step.loop < 0) {
          b.CreateStore(iteration.emit(step.value), iteration.address(step.var));
          continue;
        }
        const long loopStride = static_cast<long>(cs.steps[run.begin + q + run.period].loop) - step.loop;
        Value *code = b.CreateAdd(b.getInt32(EQC_MODEL_LOOP_FAILURE_BASE + step.loop),
                                  b.CreateMul(b.CreateTrunc(k, b.getInt32Ty()), b.getInt32(static_cast<int32_t>(loopStride))));
        emitLinearSolve(iteration, cs.loops[static_cast<size_t>(step.loop)], code);
      }
    });
  }

  /// Emits runs [begin, end) of a causal sequence into a function with the rhs signature.
  void emitSteps(llvm::Function *f, const CausalSystem &cs, const std::vector<StepRun> &runs, size_t begin,
                 size_t end, const std::string &name, const std::string &tag, bool copies) {
    auto args = f->arg_begin();
    Frame frame{&*args, &*(args + 1), &*(args + 2), &*(args + 3), &*(args + 4)};
    FunctionEmitter fe(*this, f, frame);
    if (copies)
      emitChainCopies(fe.b(), frame.x, frame.dx);
    for (size_t r = begin; r < end; ++r) {
      if (runs[r].steps() > 1) {
        emitRun(fe, frame, cs, runs[r]);
        continue;
      }
      const CausalStep &step = cs.steps[runs[r].begin];
      if (step.loop < 0) {
        Value *v = fe.emit(step.value);
        fe.b().CreateStore(v, fe.address(step.var));
        fe.define(step.var, v);
        continue;
      }
      const AlgebraicLoop &loop = cs.loops[step.loop];
      if (loop.linear) {
        emitLinearSolve(fe, loop, step.loop);
        continue;
      }
      const std::string loopName = name + "_" + tag + "_loop" + std::to_string(step.loop);
      llvm::Function *blockFn = emitLoopFunction(loopName, loop);
      emitLoopSolve(fe, frame, loop, blockFn, step.loop, loopName);
    }
    fe.b().CreateRet(fe.b().getInt32(0));
  }

  /// Steps per function: LLVM's code generation is superlinear in the size of one function, so a
  /// large model is compiled as a sequence of functions of this many steps (values flow between
  /// them through the dx and a arrays, which are written anyway).
  static constexpr size_t kStepsPerFunction = 512;
  /// The Jacobian's parts are smaller: its code is mostly stores into the values array, and the
  /// optimizer's cost per function grows faster than linearly with them (measured on a 10^4-state
  /// chain: 3.0 s to compile with parts of 512 steps, 2.4 s with 128, 2.4 s with 32).
  static constexpr size_t kJacobianStepsPerFunction = 128;

  llvm::Function *emitSequenceFunction(const std::string &name, const CausalSystem &cs, const EquationSystem &sys,
                                       const std::string &tag) {
    (void)sys;
    auto *type = llvm::FunctionType::get(types.i32, {types.f64, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr}, false);
    llvm::Function *f = newRoot(name, type);
    const std::vector<StepRun> &runs = &cs == &model.ode ? this->runs->ode : this->runs->init;
    emitParts(
        f, runs.size(), kStepsPerFunction, name + "_" + tag + "_part",
        [&](llvm::Function *into, size_t begin, size_t end, bool whole) {
          emitSteps(into, cs, runs, begin, end, name, tag, whole);
        },
        [&](llvm::IRBuilder<> &b, const std::vector<Value *> &args) { emitChainCopies(b, args[1], args[2]); });
    return f;
  }

  /// In `f` at b's position: `status = part(args...); if (status != 0) return status;`.
  void emitCallOrReturn(llvm::IRBuilder<> &b, llvm::Function *f, llvm::Function *part, const std::vector<Value *> &args) {
    Value *status = b.CreateCall(part, args);
    llvm::BasicBlock *fail = llvm::BasicBlock::Create(ctx, "fail", f);
    llvm::BasicBlock *ok = llvm::BasicBlock::Create(ctx, "ok", f);
    b.CreateCondBr(b.CreateICmpNE(status, b.getInt32(0)), fail, ok);
    b.SetInsertPoint(fail);
    b.CreateRet(status);
    b.SetInsertPoint(ok);
  }

  /// Forward-mode tangents through the evaluation sequence, one column per state, written as the
  /// values of the structural pattern (compressed sparse columns); only the steps that depend on
  /// a state are visited, so the cost follows the Jacobian's structure. Columns are emitted into
  /// internal functions of about kJacobianStepsPerFunction steps each.
  void emitJacobian(SparsityPattern &pattern) {
    auto *type = llvm::FunctionType::get(types.i32, {types.f64, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr, types.f64ptr}, false);
    llvm::Function *f = newFunction(symbols.jac, type, false);
    llvm::IRBuilder<> top(&f->back());
    std::vector<Value *> args;
    for (auto &arg : f->args())
      args.push_back(&arg);

    const CausalSystem &cs = model.ode;
    StepDependencies deps(flat, cs);
    pattern = odeJacobianPattern(flat, model, deps);
    const size_t n = model.states.size();
    auto *linsolveType = llvm::FunctionType::get(types.i32, {types.i32, types.f64ptr, types.f64ptr, types.i32}, false);
    llvm::Function *linsolve = declareExternal("eqc_linsolve", linsolveType);

    llvm::Function *part = nullptr;
    std::unique_ptr<FunctionEmitter> fe;
    size_t partSteps = 0, parts = 0;
    auto finishPart = [&]() {
      if (!part)
        return;
      fe->b().CreateRet(fe->b().getInt32(0));
      emitCallOrReturn(top, f, part, args);
      part = nullptr;
      fe.reset();
    };
    std::vector<int> affected;
    for (size_t j = 0; j < n; ++j) {
      deps.reachableSteps(model.states[j], affected);
      if (part && partSteps + affected.size() > kJacobianStepsPerFunction)
        finishPart();
      if (!part) {
        part = newFunction(symbols.jac + "_part" + std::to_string(parts++), type, true);
        part->addFnAttr(llvm::Attribute::NoInline);
        auto pa = part->arg_begin();
        fe = std::make_unique<FunctionEmitter>(*this, part, Frame{&*pa, &*(pa + 1), &*(pa + 2), &*(pa + 3), &*(pa + 4)});
        partSteps = 0;
      }
      partSteps += affected.size() + 1;
      emitJacobianColumn(*fe, part, static_cast<int>(j), affected, deps, pattern, linsolve);
    }
    finishPart();
    top.CreateRet(top.getInt32(0));
  }

  /// Column j of the Jacobian into `values` (the last argument of `fn`) at the pattern's entries.
  void emitJacobianColumn(FunctionEmitter &fe, llvm::Function *fn, int j, const std::vector<int> &affected,
                          const StepDependencies &deps, const SparsityPattern &pattern, llvm::Function *linsolve) {
    auto &b = fe.b();
    const CausalSystem &cs = model.ode;
    Value *values = &*(fn->arg_begin() + 5);
    std::unordered_map<int, Value *> tangent{{model.states[j], llvm::ConstantFP::get(types.f64, 1.0)}};
    auto chain = [&](const Expr *e, const std::vector<int> &vars, const std::vector<int> &skip) -> Value * {
      Value *sum = nullptr;
      for (int u : vars) {
        auto t = tangent.find(u);
        if (t == tangent.end() || std::find(skip.begin(), skip.end(), u) != skip.end())
          continue;
        const Expr *partial = diff.diff(e, u);
        if (partial->isConst(0))
          continue;
        Value *term = b.CreateFMul(fe.emit(partial), t->second);
        sum = sum ? b.CreateFAdd(sum, term) : term;
      }
      return sum;
    };
    for (int s : affected) {
      const CausalStep &step = cs.steps[s];
      if (step.loop < 0) {
        if (Value *t = chain(step.value, deps.reads(s), {}))
          tangent[step.var] = t;
        continue;
      }
      // J_w w' = -Σ ∂F/∂u u' for the loop unknowns w.
      const AlgebraicLoop &loop = cs.loops[step.loop];
      int m = static_cast<int>(loop.vars.size());
      llvm::IRBuilder<> entry(&fn->getEntryBlock(), fn->getEntryBlock().begin());
      Value *mat = entry.CreateAlloca(types.f64, b.getInt32(m * m));
      Value *rhs = entry.CreateAlloca(types.f64, b.getInt32(m));
      for (int k = 0; k < m * m; ++k)
        b.CreateStore(fe.emit(loop.jacobian[k]), b.CreateConstGEP1_64(types.f64, mat, k));
      for (int i = 0; i < m; ++i) {
        Value *t = chain(loop.residuals[i], deps.reads(s), loop.vars);
        Value *v = t ? b.CreateFNeg(t) : llvm::ConstantFP::get(types.f64, 0.0);
        b.CreateStore(v, b.CreateConstGEP1_64(types.f64, rhs, i));
      }
      Value *status = b.CreateCall(linsolve, {b.getInt32(m), mat, rhs, b.getInt32(1)});
      fe.returnIfFailed(status, b.getInt32(EQC_MODEL_LOOP_FAILURE_BASE + step.loop));
      for (int i = 0; i < m; ++i)
        tangent[loop.vars[i]] = b.CreateLoad(types.f64, b.CreateConstGEP1_64(types.f64, rhs, i));
    }
    // A chain copy's derivative is a state: the seed itself (1) when it is states[j].
    for (int k = pattern.colStart[j]; k < pattern.colStart[j + 1]; ++k) {
      auto t = tangent.find(flat.vars[model.states[pattern.rowIndex[k]]].derivative);
      Value *v = t != tangent.end() ? t->second : llvm::ConstantFP::get(types.f64, 0.0);
      b.CreateStore(v, b.CreateConstGEP1_64(types.f64, values, k));
    }
  }
};

FunctionEmitter::FunctionEmitter(ModuleEmitter &mod, llvm::Function *fn, Frame frame)
    : mod_(mod), fn_(fn), frame_(frame), b_(&fn->back()) {}

Value *FunctionEmitter::address(int var) {
  if (!rolled_.empty())
    if (auto it = rolled_.find(var); it != rolled_.end())
      return it->second;
  const Slot &slot = mod_.model.slots[var];
  if (slot.storage == Storage::Discrete)
    return b_.CreateConstGEP1_64(mod_.types.f64, frame_.p, mod_.model.discreteOffset() + slot.index,
                                 mod_.flat.varName(var));
  Value *base = slot.storage == Storage::Param        ? frame_.p
                : slot.storage == Storage::State      ? frame_.x
                : slot.storage == Storage::Derivative ? frame_.dx
                                                      : frame_.a;
  return b_.CreateConstGEP1_64(mod_.types.f64, base, slot.index, mod_.flat.varName(var));
}

Value *FunctionEmitter::slotAddress(int base, int extent, const Expr *offset) {
  auto *f64 = mod_.types.f64;
  Value *index = b_.CreateFPToSI(emit(offset), b_.getInt64Ty());
  Value *outside = b_.CreateICmpUGE(index, b_.getInt64(extent));
  returnIfFailed(b_.CreateZExt(outside, b_.getInt32Ty()), b_.getInt32(functionFailure(kFunctionIndexOutOfBounds)));
  return b_.CreateGEP(f64, b_.CreateConstGEP1_64(f64, slots_, base), index);
}

Value *FunctionEmitter::callFunction(int fn, const std::vector<const Expr *> &args, int output) {
  auto *f64 = mod_.types.f64;
  const Function &callee = mod_.flat.ctx->function(fn);
  CallKey key{&callee};
  for (size_t i = 0; i < args.size(); ++i)
    key.push_back(output >= 0 && !callee.reads(output, static_cast<int>(i)) ? nullptr : args[i]);
  if (auto known = calls_.find(key); known != calls_.end())
    return known->second.out;
  llvm::IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
  Value *in = entry.CreateAlloca(f64, b_.getInt32(std::max<size_t>(1, args.size())));
  Value *out = entry.CreateAlloca(f64, b_.getInt32(std::max<size_t>(1, callee.outputs.size())));
  for (size_t i = 0; i < args.size(); ++i) {
    if (output >= 0 && !callee.reads(output, static_cast<int>(i))) {
      b_.CreateStore(llvm::ConstantFP::get(f64, 0.0), b_.CreateConstGEP1_64(f64, in, i));
      continue;
    }
    Value *v = emit(args[i]);
    if (v->getType() != f64)
      v = b_.CreateUIToFP(v, f64);
    b_.CreateStore(v, b_.CreateConstGEP1_64(f64, in, i));
  }
  Value *status = b_.CreateCall(mod_.userFunction(fn), {in, out});
  // A failing function returns the code that names it and why (eqc_model.h): passed on as it is.
  returnIfFailed(status, status);
  Call call{out, std::numeric_limits<int>::max(), -1};
  for (const void *arg : key)
    if (arg && arg != &callee)
      forEachNode(static_cast<const Expr *>(arg), [&](const Expr *n) {
        if (n->kind() == ExprKind::Local || n->kind() == ExprKind::LocalAt) {
          call.lo = std::min(call.lo, n->slot());
          call.hi = std::max(call.hi, n->slot() + (n->kind() == ExprKind::LocalAt ? n->extent() - 1 : 0));
        }
        return Walk::Descend;
      });
  if (calls_.emplace(key, call).second && !callJournal_.empty())
    callJournal_.back().push_back(key);
  return out;
}

void FunctionEmitter::chunk() {
  if (++sinceChunk_ < kChunk || b_.GetInsertBlock()->getTerminator())
    return;
  sinceChunk_ = 0;
  llvm::BasicBlock *next = llvm::BasicBlock::Create(mod_.ctx, "chunk", fn_);
  b_.CreateBr(next);
  b_.SetInsertPoint(next);
}

void FunctionEmitter::returnIfFailed(Value *status, Value *code) {
  llvm::LLVMContext &c = mod_.ctx;
  llvm::BasicBlock *fail = llvm::BasicBlock::Create(c, "fail", fn_);
  llvm::BasicBlock *ok = llvm::BasicBlock::Create(c, "ok", fn_);
  b_.CreateCondBr(b_.CreateICmpNE(status, b_.getInt32(0)), fail, ok);
  b_.SetInsertPoint(fail);
  // Residual functions of algebraic loops return nothing: their residuals stay NaN (stored
  // first), so the solver stops with a non-finite residual.
  if (fn_->getReturnType()->isVoidTy()) {
    b_.CreateRetVoid();
  } else {
    if (body_) // a failing function body leaves its level of the call depth, and its Strings
      mod_.leaveCall(b_, stringMark_);
    b_.CreateRet(code);
  }
  b_.SetInsertPoint(ok);
}

Value *FunctionEmitter::emit(const Expr *e) {
  if (e->kind() == ExprKind::Var) {
    Value *v;
    auto it = varValue_.find(e->var());
    if (it != varValue_.end()) {
      v = it->second;
    } else {
      v = b_.CreateLoad(mod_.types.f64, address(e->var()));
      const Slot &slot = mod_.model.slots[e->var()];
      // Parameters and states do not change within a call; other variables are defined by steps.
      if ((slot.storage == Storage::Param || slot.storage == Storage::State) && !rolled_.count(e->var())) {
        varValue_[e->var()] = v;
        if (!varJournal_.empty())
          varJournal_.back().push_back(e->var());
      }
    }
    if (e->isBool()) // Boolean parameters are stored as 0/1
      return b_.CreateFCmpONE(v, llvm::ConstantFP::get(mod_.types.f64, 0.0));
    return v;
  }
  auto it = memo_.find(e);
  if (it != memo_.end())
    return it->second;
  Value *v = compute(e);
  // Values depending on loop unknowns must not be reused after the loop is re-solved; loops are
  // solved before any use in evaluation order, so memoizing is safe within one function. Slots
  // of function bodies change between statements: their values are not kept.
  if (e->kind() != ExprKind::Local && e->kind() != ExprKind::LocalAt && memo_.emplace(e, v).second &&
      !memoJournal_.empty())
    memoJournal_.back().push_back(e);
  return v;
}

Value *FunctionEmitter::intrinsic(llvm::Intrinsic::ID id, std::vector<Value *> args) {
  llvm::Function *f = llvm::Intrinsic::getDeclaration(mod_.module.get(), id, {mod_.types.f64});
  return b_.CreateCall(f, args);
}

Value *FunctionEmitter::libm(const char *name, std::vector<Value *> args) {
  std::vector<llvm::Type *> params(args.size(), mod_.types.f64);
  auto *type = llvm::FunctionType::get(mod_.types.f64, params, false);
  llvm::Function *f = mod_.declareExternal(name, type);
  f->setOnlyReadsMemory(); // pure for our purposes: lets LLVM hoist and share calls
  return b_.CreateCall(f, args);
}

Value *FunctionEmitter::power(Value *base, const Expr *exponent) {
  auto *f64 = mod_.types.f64;
  if (exponent->isConst()) {
    double k = exponent->value();
    if (k == 0.5)
      return intrinsic(llvm::Intrinsic::sqrt, {base});
    if (k == std::floor(k) && std::fabs(k) <= 64) {
      // Repeated squaring: x^5 = x^4 * x.
      long n = static_cast<long>(std::fabs(k));
      Value *result = nullptr, *square = base;
      while (n) {
        if (n & 1)
          result = result ? b_.CreateFMul(result, square) : square;
        n >>= 1;
        if (n)
          square = b_.CreateFMul(square, square);
      }
      if (!result)
        result = llvm::ConstantFP::get(f64, 1.0);
      return k < 0 ? b_.CreateFDiv(llvm::ConstantFP::get(f64, 1.0), result) : result;
    }
  }
  return intrinsic(llvm::Intrinsic::pow, {base, emit(exponent)});
}

Value *FunctionEmitter::product(const Expr *e) {
  auto *f64 = mod_.types.f64;
  Value *num = nullptr, *den = nullptr;
  double coeff = 1;
  for (const Expr *f : e->ops()) {
    if (f->isConst()) {
      coeff = f->value();
      continue;
    }
    if (f->kind() == ExprKind::Pow && f->op(1)->isConst() && f->op(1)->value() < 0) {
      // a * b^-k is emitted as a / b^k: one division instead of a reciprocal and a product.
      const Expr *positive = mod_.flat.ctx->constant(-f->op(1)->value());
      Value *d = power(emit(f->op(0)), positive);
      den = den ? b_.CreateFMul(den, d) : d;
      continue;
    }
    Value *v = emit(f);
    num = num ? b_.CreateFMul(num, v) : v;
  }
  if (coeff == -1 && num)
    num = b_.CreateFNeg(num);
  else if (coeff != 1)
    num = num ? b_.CreateFMul(llvm::ConstantFP::get(f64, coeff), num) : llvm::ConstantFP::get(f64, coeff);
  if (!num)
    num = llvm::ConstantFP::get(f64, 1.0);
  return den ? b_.CreateFDiv(num, den) : num;
}

Value *FunctionEmitter::once(const Expr *e) {
  // The variable holds the operand's value once evaluated in this step of the event iteration;
  // NaN (the runtime's mark at each step's start) means not yet.
  auto *f64 = mod_.types.f64;
  Value *cell = address(e->var());
  Value *held = b_.CreateLoad(f64, cell);
  Value *v = computedIf(b_.CreateFCmpUNO(held, held), held, "once", [&]() -> Value * {
    Value *value = emit(e->op(0));
    value = value->getType() == f64 ? value : b_.CreateUIToFP(value, f64);
    b_.CreateStore(value, cell);
    return value;
  });
  return e->isBool() ? b_.CreateFCmpONE(v, llvm::ConstantFP::get(f64, 0.0)) : v;
}

Value *FunctionEmitter::delay(const Expr *e) {
  // p[delayContextOffset()] holds the address of the simulation's eqc_delay_context (eqc_model.h);
  // without one (0 bits: the driver's own evaluations at the start) the delay is the value now.
  llvm::LLVMContext &c = mod_.ctx;
  auto *f64 = mod_.types.f64;
  auto *i64 = llvm::Type::getInt64Ty(c);
  // The expression's value now: a delay does not wait for its variables (structural analysis
  // leaves them out, collectVars), so this may read values of the previous evaluation, which the
  // history uses only where the delay reaches into the current step. Not memoized past here.
  Value *v = inBranch([&] { return emit(e->op(0)); });
  mod_.delayExprs.emplace(e->delayIndex(), e->op(0));
  Value *delayTime = emit(e->op(1)), *delayMax = emit(e->op(2));
  Value *cell = b_.CreateBitCast(b_.CreateConstGEP1_64(f64, frame_.p, mod_.model.delayContextOffset()),
                                 i64->getPointerTo());
  Value *bits = b_.CreateLoad(i64, cell);
  return computedIf(b_.CreateICmpNE(bits, llvm::ConstantInt::get(i64, 0)), v, "delay", [&]() -> Value * {
    // double value(eqc_delay_context *, int k, double t, double v, double delay, double delay_max),
    // the context's first field.
    auto *valueType = llvm::FunctionType::get(f64, {mod_.types.i8ptr, mod_.types.i32, f64, f64, f64, f64}, false);
    Value *context = b_.CreateIntToPtr(bits, mod_.types.i8ptr);
    Value *slot = b_.CreateBitCast(context, valueType->getPointerTo()->getPointerTo());
    Value *fn = b_.CreateLoad(valueType->getPointerTo(), slot);
    return b_.CreateCall(valueType, fn,
                         {context, llvm::ConstantInt::get(mod_.types.i32, e->delayIndex()), frame_.t, v, delayTime,
                          delayMax});
  });
}

Value *FunctionEmitter::compute(const Expr *e) {
  auto *f64 = mod_.types.f64;
  auto op = [&](size_t i) { return emit(e->op(i)); };
  switch (e->kind()) {
  case ExprKind::Const:
    return llvm::ConstantFP::get(f64, e->value());
  case ExprKind::BoolConst:
    return b_.getInt1(e->boolValue());
  case ExprKind::Var:
    return emit(e);
  case ExprKind::Time:
    return frame_.t;
  case ExprKind::Add: {
    Value *sum = op(0);
    for (size_t i = 1; i < e->numOps(); ++i)
      sum = b_.CreateFAdd(sum, op(i));
    return sum;
  }
  case ExprKind::Mul:
    return product(e);
  case ExprKind::Pow:
    return power(op(0), e->op(1));
  case ExprKind::If: {
    // A branch that calls a user function runs only when taken (the function may fail on values
    // the other branch guards against); plain arithmetic is a select.
    Value *cond = op(0);
    if (!mod_.containsCall(e->op(1)) && !mod_.containsCall(e->op(2)))
      return b_.CreateSelect(cond, op(1), op(2));
    llvm::LLVMContext &c = mod_.ctx;
    llvm::BasicBlock *thenBlock = llvm::BasicBlock::Create(c, "then", fn_);
    llvm::BasicBlock *elseBlock = llvm::BasicBlock::Create(c, "else", fn_);
    llvm::BasicBlock *merge = llvm::BasicBlock::Create(c, "merge", fn_);
    b_.CreateCondBr(cond, thenBlock, elseBlock);
    b_.SetInsertPoint(thenBlock);
    Value *a = inBranch([&] { return op(1); });
    llvm::BasicBlock *thenEnd = b_.GetInsertBlock();
    b_.CreateBr(merge);
    b_.SetInsertPoint(elseBlock);
    Value *bv = inBranch([&] { return op(2); });
    llvm::BasicBlock *elseEnd = b_.GetInsertBlock();
    b_.CreateBr(merge);
    b_.SetInsertPoint(merge);
    llvm::PHINode *phi = b_.CreatePHI(a->getType(), 2);
    phi->addIncoming(a, thenEnd);
    phi->addIncoming(bv, elseEnd);
    return phi;
  }
  case ExprKind::Lt:
    return b_.CreateFCmpOLT(op(0), op(1));
  case ExprKind::Le:
    return b_.CreateFCmpOLE(op(0), op(1));
  case ExprKind::Eq:
  case ExprKind::Ne: {
    // Booleans compare as i1 (a == b of two conditions), numbers as doubles.
    Value *a = op(0), *c = op(1);
    if (a->getType() != c->getType()) {
      a = a->getType()->isIntegerTy(1) ? b_.CreateUIToFP(a, mod_.types.f64) : a;
      c = c->getType()->isIntegerTy(1) ? b_.CreateUIToFP(c, mod_.types.f64) : c;
    }
    if (a->getType()->isIntegerTy(1))
      return e->kind() == ExprKind::Eq ? b_.CreateICmpEQ(a, c) : b_.CreateICmpNE(a, c);
    return e->kind() == ExprKind::Eq ? b_.CreateFCmpOEQ(a, c) : b_.CreateFCmpUNE(a, c);
  }
  case ExprKind::And:
    return b_.CreateAnd(op(0), op(1));
  case ExprKind::Or:
    return b_.CreateOr(op(0), op(1));
  case ExprKind::Not:
    return b_.CreateNot(op(0));
  case ExprKind::NoEvent:
    return op(0);
  case ExprKind::Pre: {
    const Slot &slot = mod_.model.slots[e->var()];
    Value *v;
    if (slot.storage == Storage::Param) {
      v = b_.CreateLoad(f64, address(e->var()));
    } else if (slot.storage == Storage::Discrete) {
      v = b_.CreateLoad(f64, b_.CreateConstGEP1_64(f64, frame_.p, mod_.model.preOffset() + slot.index));
    } else {
      const auto &pc = mod_.model.preContinuous;
      size_t k = std::find(pc.begin(), pc.end(), e->var()) - pc.begin();
      v = b_.CreateLoad(f64, b_.CreateConstGEP1_64(f64, frame_.p, mod_.model.preContinuousOffset() + k));
    }
    return e->isBool() ? b_.CreateFCmpONE(v, llvm::ConstantFP::get(f64, 0.0)) : v;
  }
  case ExprKind::Delay:
    return delay(e);
  case ExprKind::Once:
    return once(e);
  case ExprKind::Initial: {
    Value *flag = b_.CreateLoad(f64, b_.CreateConstGEP1_64(f64, frame_.p, mod_.model.initialFlagOffset()));
    return b_.CreateFCmpONE(flag, llvm::ConstantFP::get(f64, 0.0));
  }
  case ExprKind::Local:
  case ExprKind::LocalAt: {
    Value *addr = e->kind() == ExprKind::Local ? b_.CreateConstGEP1_64(f64, slots_, e->slot())
                                               : slotAddress(e->slot(), e->extent(), e->op(0));
    Value *v = b_.CreateLoad(f64, addr);
    return e->isBool() ? b_.CreateFCmpONE(v, llvm::ConstantFP::get(f64, 0.0)) : v;
  }
  case ExprKind::FnCall: {
    Value *out = callFunction(e->function(), e->ops(), e->fnOutput());
    Value *v = b_.CreateLoad(f64, b_.CreateConstGEP1_64(f64, out, e->fnOutput()));
    return e->isBool() ? b_.CreateFCmpONE(v, llvm::ConstantFP::get(f64, 0.0)) : v;
  }
  case ExprKind::Call:
    break;
  }
  using I = llvm::Intrinsic::ID;
  auto unary = [&](I id) { return intrinsic(id, {op(0)}); };
  switch (e->builtin()) {
  case Builtin::Sin: return unary(llvm::Intrinsic::sin);
  case Builtin::Cos: return unary(llvm::Intrinsic::cos);
  case Builtin::Exp: return unary(llvm::Intrinsic::exp);
  case Builtin::Log: return unary(llvm::Intrinsic::log);
  case Builtin::Log10: return unary(llvm::Intrinsic::log10);
  case Builtin::Sqrt: return unary(llvm::Intrinsic::sqrt);
  case Builtin::Abs: return unary(llvm::Intrinsic::fabs);
  case Builtin::Floor: return unary(llvm::Intrinsic::floor);
  case Builtin::Ceil: return unary(llvm::Intrinsic::ceil);
  case Builtin::Min: return intrinsic(llvm::Intrinsic::minnum, {op(0), op(1)});
  case Builtin::Max: return intrinsic(llvm::Intrinsic::maxnum, {op(0), op(1)});
  case Builtin::Tan:
  case Builtin::Asin:
  case Builtin::Acos:
  case Builtin::Atan:
  case Builtin::Sinh:
  case Builtin::Cosh:
  case Builtin::Tanh:
    return libm(builtinInfo(e->builtin()).libm, {op(0)});
  case Builtin::Atan2:
    return libm("atan2", {op(0), op(1)});
  case Builtin::Sign: {
    Value *x = op(0);
    Value *zero = llvm::ConstantFP::get(f64, 0.0);
    Value *neg = b_.CreateSelect(b_.CreateFCmpOLT(x, zero), llvm::ConstantFP::get(f64, -1.0), zero);
    return b_.CreateSelect(b_.CreateFCmpOGT(x, zero), llvm::ConstantFP::get(f64, 1.0), neg);
  }
  case Builtin::Mod: {
    Value *a = op(0), *m = op(1);
    Value *q = intrinsic(llvm::Intrinsic::floor, {b_.CreateFDiv(a, m)});
    return b_.CreateFSub(a, b_.CreateFMul(q, m));
  }
  }
  return llvm::ConstantFP::get(f64, NAN);
}

} // namespace

unsigned modulesFor(std::size_t items, unsigned threads) {
  if (threads < 2)
    return 1;
  return static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(items / kStepsPerModule, kModulesPerThread * threads)));
}

namespace {

/// Per residual, its entries of constraintJacobianPattern: the next unfilled place of each
/// state's column (rows are visited in order), with the partial derivative.
ConstraintJacobianEntries constraintJacobianEntries(const FlatSystem &flat, const OdeModel &model,
                                                    const std::vector<const Expr *> &residuals) {
  const SparsityPattern pattern = constraintJacobianPattern(model, residuals);
  std::vector<int> next(pattern.colStart.begin(), pattern.colStart.end() - (pattern.colStart.empty() ? 0 : 1));
  Differentiator diff(*flat.ctx);
  ConstraintJacobianEntries entries(residuals.size());
  for (size_t i = 0; i < residuals.size(); ++i)
    for (int v : collectVars(residuals[i]))
      if (model.slots[v].storage == Storage::State)
        entries[i].emplace_back(next[static_cast<size_t>(model.slots[v].index)]++, diff.diff(residuals[i], v));
  return entries;
}

/// findRuns over n items, item k described by `describe(shapes, k)`; single items without loops.
template <typename Describe>
std::vector<StepRun> itemRuns(const OdeModel &model, size_t n, bool loops, Describe describe) {
  if (!loops)
    return singleSteps(n);
  ItemShapes shapes(model, n);
  for (size_t k = 0; k < n; ++k) {
    shapes.beginItem();
    describe(shapes, k);
  }
  shapes.finish();
  return findRuns(shapes);
}

std::vector<StepRun> residualRuns(const OdeModel &model, const std::vector<const Expr *> &residuals, bool loops) {
  return itemRuns(model, residuals.size(), loops,
                  [&](ItemShapes &shapes, size_t i) { shapes.storeToPlace(static_cast<long>(i), residuals[i]); });
}

std::vector<StepRun> jacobianRuns(const OdeModel &model, const ConstraintJacobianEntries &entries, bool loops) {
  return itemRuns(model, entries.size(), loops, [&](ItemShapes &shapes, size_t i) {
    for (auto [place, partial] : entries[i])
      shapes.storeToPlace(place, partial);
  });
}

} // namespace

std::shared_ptr<const ModelRuns> modelRuns(const FlatSystem &flat, const OdeModel &model, bool loops) {
  auto runs = std::make_shared<ModelRuns>();
  runs->ode = loops ? findStepRuns(model, model.ode) : singleSteps(model.ode.steps.size());
  runs->init = loops ? findStepRuns(model, model.init) : singleSteps(model.init.steps.size());
  runs->invariants = residualRuns(model, model.invariants.residuals, loops);
  runs->initialConstraints = residualRuns(model, model.initialConstraints.residuals, loops);
  runs->starts = parameterDependentStarts(flat, model.states, model.params);
  runs->startRuns = itemRuns(model, runs->starts.size(), loops, [&](ItemShapes &shapes, size_t k) {
    const int var = model.states[static_cast<size_t>(runs->starts[k])];
    shapes.storeToVariable(var, flat.vars[static_cast<size_t>(var)].binding);
  });
  runs->invariantJacobian = constraintJacobianEntries(flat, model, model.invariants.residuals);
  if (!model.initialConstraintsReadOde) // else by differences (emitDifferenceJacobian)
    runs->initialConstraintJacobian = constraintJacobianEntries(flat, model, model.initialConstraints.residuals);
  runs->invariantJacobianRuns = jacobianRuns(model, runs->invariantJacobian, loops);
  runs->initialConstraintJacobianRuns = jacobianRuns(model, runs->initialConstraintJacobian, loops);
  return runs;
}

std::size_t simulationItems(const ModelRuns &runs) {
  return runs.ode.size() + runs.init.size() + runs.invariants.size() + runs.initialConstraints.size() +
         runs.startRuns.size();
}

std::size_t constraintJacobianItems(const ModelRuns &runs) {
  return runs.invariantJacobianRuns.size() + runs.initialConstraintJacobianRuns.size();
}

std::unique_ptr<llvm::Module> generateModelIR(FlatSystem &flat, const OdeModel &model, llvm::LLVMContext &context,
                                              const ModelSymbols &symbols, ModelPart part,
                                              SparsityPattern *jacobianPattern, const CodegenOptions &options) {
  const ModuleSplit split = options.split;
  if (split.count > 1 && (part == ModelPart::Jacobian || part == ModelPart::All ||
                          (part == ModelPart::Simulation && model.delays > 0)))
    llvm::report_fatal_error("eqc internal error: the ODE Jacobian and a model with delays do not split");
  ModuleEmitter emitter(flat, model, context, symbols);
  emitter.split = split;
  emitter.runs = options.runs ? options.runs : modelRuns(flat, model, true);
  std::unique_ptr<llvm::Module> m = emitter.run(part, jacobianPattern);
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(*m, &os)) {
    os.flush();
    llvm::report_fatal_error(llvm::Twine("eqc internal error: generated IR does not verify: ") + err);
  }
  return m;
}

} // namespace eqc
