// User-defined functions: the interpreter the middle end evaluates them with, their printed
// form, and forward-mode derivative functions generated statement by statement.
#include "middle/Function.h"

#include "middle/ChainRule.h"
#include "middle/ExprOps.h"

#include "eqc/eqc_external.h"

#include <ffi.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <mutex>
#include <ostream>
#include <unordered_map>
#include <unordered_set>

namespace eqc {
namespace {

/// Forward-mode tangents of a function body's expressions: slot s has tangent slot s + shift.
class Tangent {
public:
  /// `total`: the tangents of a time derivative (calls take their derivative annotations as
  /// given); else of partial derivatives (calls' bodies differentiated where they can be).
  Tangent(ExprContext &ctx, const Function &f, Function &out, int shift, bool total = true)
      : ctx_(ctx), f_(f), out_(out), shift_(shift), total_(total) {}

  const Expr *of(const Expr *e) {
    auto it = memo_.find(e);
    if (it != memo_.end())
      return it->second;
    const Expr *t;
    if (e->isBool())
      t = ctx_.zero();
    else if (e->kind() == ExprKind::Local)
      t = f_.slotTypes[e->slot()] != SlotType::Real ? ctx_.zero() : ctx_.local(e->slot() + shift_);
    else if (e->kind() == ExprKind::LocalAt)
      t = ctx_.localAt(e->slot() + shift_, e->extent(), e->op(0));
    else
      t = chainRule(ctx_, e, [&](size_t i) { return of(e->op(i)); }, total_);
    memo_.emplace(e, t);
    return t;
  }

  std::vector<FnStatement> block(const std::vector<FnStatement> &in) {
    std::vector<FnStatement> out;
    for (const FnStatement &s : in) {
      FnStatement copy = s;
      copy.blocks.clear();
      for (const auto &b : s.blocks)
        copy.blocks.push_back(block(b));
      if (s.kind == FnStatement::External)
        external(*s.external, s.loc, out);
      if (s.kind == FnStatement::Assign && f_.slotTypes[s.slot] == SlotType::Real) {
        // The tangent first: it reads the target's old value when the value does.
        FnStatement tangent = s;
        tangent.slot = s.slot + shift_;
        tangent.value = of(s.value);
        out.push_back(std::move(tangent));
      }
      out.push_back(std::move(copy));
    }
    return out;
  }

private:
  int newSlot(const std::string &name) { return out_.addSlot(name, SlotType::Real); }

  void assign(std::vector<FnStatement> &out, SourceRange loc, int slot, const Expr *value) {
    FnStatement a;
    a.kind = FnStatement::Assign;
    a.loc = loc;
    a.slot = slot;
    a.value = value;
    out.push_back(std::move(a));
  }

  /// The tangents of a C function's results by central differences along the tangent of what it
  /// reads: (f(x + h dx) - f(x - h dx)) / 2h, h = eps^(1/3) (1 + max|x|) / max|dx| (both calls
  /// on copies of the slots it reads and writes, before the call itself overwrites them).
  void external(const ExternalCall &call, SourceRange loc, std::vector<FnStatement> &out) {
    std::vector<int> slots; // every slot the call reads or writes, once
    std::vector<bool> real; // whether the call passes it as a double
    auto add = [&](int s, bool isReal) {
      if (std::find(slots.begin(), slots.end(), s) == slots.end()) {
        slots.push_back(s);
        real.push_back(isReal);
      }
    };
    for (const ExternalArg &a : call.args)
      if (a.kind != ExternalArg::Literal)
        for (int k = 0; k < a.count; ++k)
          add(a.slot + k, a.type == CType::Double);
    if (call.resultSlot >= 0)
      add(call.resultSlot, call.resultType == CType::Double);
    std::vector<const Expr *> size, step;
    for (size_t i = 0; i < slots.size(); ++i)
      if (real[i]) {
        size.push_back(ctx_.call(Builtin::Abs, {ctx_.local(slots[i])}));
        step.push_back(ctx_.call(Builtin::Abs, {ctx_.local(slots[i] + shift_)}));
      }
    auto maximum = [&](const std::vector<const Expr *> &v) {
      const Expr *m = ctx_.zero();
      for (const Expr *e : v)
        m = ctx_.call(Builtin::Max, {m, e});
      return m;
    };
    int norm = newSlot("fd.norm"), h = newSlot("fd.h");
    assign(out, loc, norm, maximum(step));
    const Expr *moving = ctx_.lt(ctx_.zero(), ctx_.local(norm));
    assign(out, loc, h,
           ctx_.ifThenElse(moving,
                           ctx_.div(ctx_.mul(ctx_.constant(6.0554544523933395e-06), ctx_.add(ctx_.one(), maximum(size))),
                                    ctx_.local(norm)),
                           ctx_.zero()));
    // Copies in the order of `slots`, so that an array's copies are consecutive like its slots.
    std::unordered_map<int, int> plus, minus;
    for (int s : slots)
      plus[s] = newSlot("fd+(" + f_.slotNames[s] + ")");
    for (int s : slots)
      minus[s] = newSlot("fd-(" + f_.slotNames[s] + ")");
    for (size_t i = 0; i < slots.size(); ++i) {
      int s = slots[i];
      const Expr *x = ctx_.local(s), *dx = ctx_.mul(ctx_.local(h), ctx_.local(s + shift_));
      assign(out, loc, plus[s], real[i] ? ctx_.add(x, dx) : x);
      assign(out, loc, minus[s], real[i] ? ctx_.sub(x, dx) : x);
    }
    for (auto *map : {&plus, &minus}) {
      auto moved = std::make_shared<ExternalCall>(call);
      for (ExternalArg &a : moved->args)
        if (a.kind != ExternalArg::Literal)
          a.slot = (*map)[a.slot]; // the copies of an array's slots are consecutive too
      if (moved->resultSlot >= 0)
        moved->resultSlot = (*map)[moved->resultSlot];
      FnStatement c;
      c.kind = FnStatement::External;
      c.loc = loc;
      c.external = std::move(moved);
      out.push_back(std::move(c));
    }
    // The tangents of what the call writes; Integer results have none.
    auto written = [&](int s, bool isReal) {
      const Expr *d = ctx_.div(ctx_.sub(ctx_.local(plus[s]), ctx_.local(minus[s])),
                               ctx_.mul(ctx_.constant(2), ctx_.local(h)));
      assign(out, loc, s + shift_, isReal ? ctx_.ifThenElse(moving, d, ctx_.zero()) : ctx_.zero());
    };
    for (const ExternalArg &a : call.args)
      if (a.kind == ExternalArg::Pointer && a.written)
        for (int k = 0; k < a.count; ++k)
          written(a.slot + k, a.type == CType::Double);
    if (call.resultSlot >= 0)
      written(call.resultSlot, call.resultType == CType::Double);
  }

  ExprContext &ctx_;
  const Function &f_;
  Function &out_;
  int shift_;
  bool total_;
  std::unordered_map<const Expr *, const Expr *> memo_;
};

/// Calls `fn` through libffi with ModelicaError's way back set: false when it called
/// ModelicaError (its message: eqc_external_error()). Nothing here has a destructor.
bool guardedCall(ffi_cif *cif, void (*fn)(), void *result, void **values) {
  alignas(16) static thread_local char jump[EQC_EXTERNAL_JMP_BUF_SIZE];
  if (setjmp(*reinterpret_cast<jmp_buf *>(jump)) != 0)
    return false;
  eqc_external_enter(jump);
  ffi_call(cif, fn, result, values);
  eqc_external_leave();
  return true;
}

enum class Flow { Normal, Break, Return, Error };

/// Runs a function body on its slots; no memo: slots change between statements.
class Interpreter {
public:
  Interpreter(const Function &f, std::string &error, int depth)
      : f_(f), slots_(f.numSlots(), 0.0), error_(error), depth_(depth) {}

  std::vector<double> run(const std::vector<double> &args) {
    for (int s = 0; s < f_.numSlots(); ++s)
      if (f_.isString(s))
        slots_[s] = objectBits("");
    for (size_t i = 0; i < f_.inputs.size() && i < args.size(); ++i)
      slots_[f_.inputs[i]] = args[i];
    const size_t mark = f_.releasesStrings() ? eqc_strings_mark() : 0;
    std::vector<double> out;
    if (exec(f_.body) == Flow::Error)
      out.assign(f_.outputs.size(), NAN);
    else
      for (int s : f_.outputs)
        out.push_back(slots_[s]);
    if (f_.releasesStrings())
      eqc_strings_release(mark);
    return out;
  }

private:
  bool fail(const std::string &message) {
    if (error_.empty())
      error_ = message;
    return false;
  }

  /// The slot of LocalAt / an indexed assignment, or -1 after reporting the bad index.
  int element(int base, int extent, double offset) {
    if (!(offset >= 0 && offset < extent) || offset != std::floor(offset)) {
      fail("in function '" + f_.name + "': index " + formatNumber(offset + 1) + " out of bounds 1.." +
           std::to_string(extent));
      return -1;
    }
    return base + static_cast<int>(offset);
  }

  double eval(const Expr *e) {
    auto op = [&](size_t i) { return eval(e->op(i)); };
    switch (e->kind()) {
    case ExprKind::Const: return e->value();
    case ExprKind::BoolConst: return e->boolValue();
    case ExprKind::Local: return slots_[e->slot()];
    case ExprKind::LocalAt: {
      int s = element(e->slot(), e->extent(), op(0));
      return s < 0 ? NAN : slots_[s];
    }
    case ExprKind::Add: {
      double sum = 0;
      for (size_t i = 0; i < e->numOps(); ++i)
        sum += op(i);
      return sum;
    }
    case ExprKind::Mul: {
      double p = 1;
      for (size_t i = 0; i < e->numOps(); ++i)
        p *= op(i);
      return p;
    }
    case ExprKind::Pow: return std::pow(op(0), op(1));
    case ExprKind::Call: {
      double a[2] = {op(0), e->numOps() > 1 ? op(1) : 0};
      return evalBuiltin(e->builtin(), a);
    }
    case ExprKind::If: return op(0) != 0 ? op(1) : op(2);
    case ExprKind::Lt: return op(0) < op(1);
    case ExprKind::Le: return op(0) <= op(1);
    case ExprKind::Eq: return op(0) == op(1);
    case ExprKind::Ne: return op(0) != op(1);
    case ExprKind::And: return op(0) != 0 && op(1) != 0;
    case ExprKind::Or: return op(0) != 0 || op(1) != 0;
    case ExprKind::Not: return op(0) == 0;
    case ExprKind::NoEvent: return op(0);
    case ExprKind::FnCall: {
      if (depth_ > 200) {
        fail("in function '" + f_.name + "': calls nested more than 200 deep");
        return NAN;
      }
      std::vector<double> args;
      for (size_t i = 0; i < e->numOps(); ++i)
        args.push_back(op(i));
      std::vector<double> out = Interpreter(e->callee(), error_, depth_ + 1).run(args);
      return out[e->fnOutput()];
    }
    case ExprKind::Var:
    case ExprKind::Time:
    case ExprKind::Pre:
    case ExprKind::Initial:
    case ExprKind::Delay:
    case ExprKind::Once:
      break; // not in function bodies
    }
    return NAN;
  }

  /// One pass through a loop body: whether the loop goes on. A break ends the loop and leaves
  /// flow Normal; a return or an error ends it with that flow.
  bool iterate(const std::vector<FnStatement> &body, Flow &flow) {
    flow = exec(body);
    if (flow == Flow::Break)
      flow = Flow::Normal;
    else if (flow == Flow::Normal)
      return true;
    return false;
  }

  Flow exec(const std::vector<FnStatement> &block) {
    for (const FnStatement &s : block) {
      if (++steps_ > kMaxSteps) {
        fail("in function '" + f_.name + "': more than 10^8 statements executed (an endless loop?)");
        return Flow::Error;
      }
      Flow flow = Flow::Normal;
      switch (s.kind) {
      case FnStatement::Assign: {
        double v = eval(s.value);
        int target = s.slot;
        if (s.index && (target = element(s.slot, s.extent, eval(s.index))) < 0)
          return Flow::Error;
        slots_[target] = v;
        break;
      }
      case FnStatement::If: {
        size_t i = 0;
        for (; i < s.conditions.size(); ++i)
          if (eval(s.conditions[i]) != 0)
            break;
        if (i < s.blocks.size())
          flow = exec(s.blocks[i]);
        break;
      }
      case FnStatement::For: {
        double start = eval(s.value), step = eval(s.step), stop = eval(s.stop);
        for (double v = start; step > 0 ? v <= stop : v >= stop; v += step) {
          slots_[s.slot] = v;
          if (!iterate(s.blocks[0], flow))
            break;
        }
        break;
      }
      case FnStatement::While:
        while (eval(s.conditions[0]) != 0) {
          if (!iterate(s.blocks[0], flow))
            break;
          if (++steps_ > kMaxSteps) {
            fail("in function '" + f_.name + "': more than 10^8 statements executed (an endless loop?)");
            return Flow::Error;
          }
        }
        break;
      case FnStatement::Break: return Flow::Break;
      case FnStatement::Return: return Flow::Return;
      case FnStatement::Assert:
        if (eval(s.value) == 0) {
          const char *text = s.text ? static_cast<const char *>(bitsAddress(eval(s.text))) : nullptr;
          fail("assertion failed in function '" + f_.name + "': " + (text && error_.empty() ? text : s.message));
          return Flow::Error;
        }
        break;
      case FnStatement::External:
        if (!callExternal(*s.external))
          return Flow::Error;
        break;
      }
      if (!error_.empty())
        return Flow::Error;
      if (flow != Flow::Normal)
        return flow;
    }
    return Flow::Normal;
  }

  /// The C function of `call` on the slots (through libffi, as the C compiler would call it).
  bool callExternal(const ExternalCall &call) {
    static_assert(sizeof(size_t) == sizeof(uint64_t), "size_t is passed as a 64-bit integer");
    const size_t n = call.args.size();
    std::vector<ffi_type *> types(n);
    // Storage of each argument's value; an Integer array is converted to int and back.
    std::vector<double> doubles(n);
    std::vector<int> ints(n);
    std::vector<uint64_t> sizes(n);
    std::vector<const void *> pointers(n);
    std::vector<std::vector<int>> intArrays(n);
    std::vector<std::vector<double>> doubleArrays(n); // FORTRAN matrices, column-major
    std::vector<void *> values(n);
    auto copyIndex = [](const ExternalArg &a, int k) { // slot k's place in the copy
      const int columns = a.rows > 0 ? a.count / a.rows : 0;
      return static_cast<size_t>(a.rows > 0 ? (k % columns) * a.rows + k / columns : k);
    };
    for (size_t i = 0; i < n; ++i) {
      const ExternalArg &a = call.args[i];
      if (a.kind == ExternalArg::Pointer) {
        types[i] = &ffi_type_pointer;
        if (a.type == CType::Double && a.rows == 0) {
          pointers[i] = &slots_[a.slot];
        } else if (a.type == CType::Double) {
          doubleArrays[i].resize(static_cast<size_t>(a.count));
          for (int k = 0; k < a.count; ++k)
            doubleArrays[i][copyIndex(a, k)] = slots_[a.slot + k];
          pointers[i] = doubleArrays[i].data();
        } else {
          intArrays[i].resize(static_cast<size_t>(a.count));
          for (int k = 0; k < a.count; ++k)
            intArrays[i][copyIndex(a, k)] = static_cast<int>(slots_[a.slot + k]);
          pointers[i] = intArrays[i].data();
        }
        values[i] = &pointers[i];
        continue;
      }
      double v = a.kind == ExternalArg::Value ? slots_[a.slot] : a.number;
      switch (a.type) {
      case CType::Double: types[i] = &ffi_type_double, doubles[i] = v, values[i] = &doubles[i]; break;
      case CType::Int: types[i] = &ffi_type_sint, ints[i] = static_cast<int>(v), values[i] = &ints[i]; break;
      case CType::SizeT: types[i] = &ffi_type_uint64, sizes[i] = static_cast<uint64_t>(v), values[i] = &sizes[i]; break;
      case CType::String:
        types[i] = &ffi_type_pointer, values[i] = &pointers[i];
        pointers[i] = a.kind == ExternalArg::Value ? bitsAddress(v) : a.text.c_str();
        break;
      case CType::Object:
        types[i] = &ffi_type_pointer, std::memcpy(&pointers[i], &v, sizeof v), values[i] = &pointers[i];
        break;
      }
    }
    // FORTRAN 77 takes every argument by reference: the address of the value just stored.
    std::vector<void *> references(n);
    if (call.fortran)
      for (size_t i = 0; i < n; ++i)
        if (call.args[i].kind != ExternalArg::Pointer) {
          references[i] = values[i];
          types[i] = &ffi_type_pointer;
          values[i] = &references[i];
        }
    ffi_type *resultType = call.resultSlot < 0                ? &ffi_type_void
                           : call.resultType == CType::Double ? &ffi_type_double
                           : call.resultType == CType::Object || call.resultType == CType::String
                               ? &ffi_type_pointer
                               : &ffi_type_sint;
    ffi_cif cif;
    if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, static_cast<unsigned>(n), resultType, types.data()) != FFI_OK)
      return fail("in function '" + f_.name + "': cannot call C function '" + call.symbol + "'");
    union {
      double d;
      ffi_arg i;
      void *p;
    } result{};
    if (!guardedCall(&cif, reinterpret_cast<void (*)()>(call.address), &result, values.data()))
      return fail("in function '" + f_.name + "': " + eqc_external_error());
    for (size_t i = 0; i < n; ++i) {
      const ExternalArg &a = call.args[i];
      if (a.kind == ExternalArg::Pointer && a.written && (a.type != CType::Double || a.rows > 0))
        for (int k = 0; k < a.count; ++k)
          slots_[a.slot + k] =
              a.type == CType::Double ? doubleArrays[i][copyIndex(a, k)] : intArrays[i][copyIndex(a, k)];
    }
    if (call.resultSlot >= 0 && call.resultType == CType::String) // kept until the outermost call returns
      slots_[call.resultSlot] =
          objectBits(call.resultKept ? result.p : eqc_string_keep(static_cast<const char *>(result.p)));
    else if (call.resultSlot >= 0)
      slots_[call.resultSlot] = call.resultType == CType::Double   ? result.d
                                : call.resultType == CType::Object ? objectBits(result.p)
                                                                   : static_cast<int>(result.i);
    return true;
  }

  static constexpr long kMaxSteps = 100000000;
  const Function &f_;
  std::vector<double> slots_;
  std::string &error_;
  int depth_;
  long steps_ = 0;
};

void printBlock(std::ostream &os, const Function &f, const std::vector<FnStatement> &block, int indent) {
  VarNamer none = [](int) { return std::string("?"); };
  VarNamer slot = [&f](int s) { return f.slotNames[s]; };
  auto text = [&](const Expr *e) { return toString(e, none, &slot); };
  const std::string pad(indent, ' ');
  for (const FnStatement &s : block) {
    switch (s.kind) {
    case FnStatement::Assign: {
      std::string target = f.slotNames[s.slot];
      if (s.index)
        target = target.substr(0, target.find('[')) + "[" + text(s.index) + " + 1]";
      os << pad << target << " := " << text(s.value) << ";\n";
      break;
    }
    case FnStatement::If:
      for (size_t i = 0; i < s.blocks.size(); ++i) {
        if (i < s.conditions.size())
          os << pad << (i ? "elseif " : "if ") << text(s.conditions[i]) << " then\n";
        else
          os << pad << "else\n";
        printBlock(os, f, s.blocks[i], indent + 2);
      }
      os << pad << "end if;\n";
      break;
    case FnStatement::For:
      os << pad << "for " << f.slotNames[s.slot] << " in " << text(s.value) << ":" << text(s.step) << ":"
         << text(s.stop) << " loop\n";
      printBlock(os, f, s.blocks[0], indent + 2);
      os << pad << "end for;\n";
      break;
    case FnStatement::While:
      os << pad << "while " << text(s.conditions[0]) << " loop\n";
      printBlock(os, f, s.blocks[0], indent + 2);
      os << pad << "end while;\n";
      break;
    case FnStatement::Break: os << pad << "break;\n"; break;
    case FnStatement::Return: os << pad << "return;\n"; break;
    case FnStatement::Assert:
      os << pad << "assert(" << text(s.value) << ", \"" << s.message << "\");\n";
      break;
    case FnStatement::External: {
      const ExternalCall &c = *s.external;
      os << pad << "external \"C\" " << (c.resultSlot >= 0 ? f.slotNames[c.resultSlot] + " = " : "") << c.symbol
         << "(";
      for (size_t i = 0; i < c.args.size(); ++i) {
        const ExternalArg &a = c.args[i];
        os << (i ? ", " : "");
        if (a.kind == ExternalArg::Literal)
          os << (a.type == CType::String ? "\"" + a.text + "\"" : formatNumber(a.number));
        else
          os << (a.kind == ExternalArg::Pointer ? "&" : "") << f.slotNames[a.slot];
      }
      os << ");\n";
      break;
    }
    }
  }
}

} // namespace

int addDerivativeShell(ExprContext &ctx, int fn) {
  const Function &f = ctx.function(fn);
  const int n = f.numSlots();
  auto d = std::make_unique<Function>();
  d->name = "der(" + f.name + ")";
  d->loc = f.loc;
  d->derivativeOf = fn;
  d->runtimeOnly = f.runtimeOnly;
  d->makesStrings = f.makesStrings;
  for (int s = 0; s < n; ++s)
    d->addSlot(f.slotNames[s], f.slotTypes[s]);
  for (int s = 0; s < n; ++s)
    d->addSlot("der(" + f.slotNames[s] + ")", f.slotTypes[s]);
  d->inputs = f.inputs;
  for (int s : f.inputs)
    d->inputs.push_back(s + n);
  for (int s : f.outputs)
    d->outputs.push_back(s + n);
  Function *raw = d.get();
  int id = ctx.addFunction(std::move(d));
  raw->symbol = "eqc_fn" + std::to_string(id) + "_der";
  ctx.function(fn).derivative = id;
  return id;
}

int derivativeFunction(ExprContext &ctx, int fn) {
  if (ctx.function(fn).derivative >= 0)
    return ctx.function(fn).derivative;
  // Registered before its body is made: a recursive function's derivative calls itself.
  const int id = addDerivativeShell(ctx, fn);
  Function &d = ctx.function(id);
  d.body = Tangent(ctx, ctx.function(fn), d, ctx.function(fn).numSlots()).block(ctx.function(fn).body);
  return id;
}

namespace {

/// Whether `pred` holds for a statement of `body`, at any depth of its blocks.
template <typename Pred> bool anyStatement(const std::vector<FnStatement> &body, Pred pred) {
  for (const FnStatement &st : body) {
    if (pred(st))
      return true;
    for (const auto &b : st.blocks)
      if (anyStatement(b, pred))
        return true;
  }
  return false;
}

/// Whether a statement's own expressions (not its blocks') hold a call `pred` holds for.
template <typename Pred> bool callsWhere(const FnStatement &st, Pred pred) {
  bool found = false;
  auto visit = [&](const Expr *e) {
    if (e && !found)
      forEachNode(e, [&](const Expr *n) {
        found = n->kind() == ExprKind::FnCall && pred(n);
        return found ? Walk::Stop : Walk::Descend;
      });
  };
  for (const Expr *e : {st.value, st.index, st.step, st.stop})
    visit(e);
  for (const Expr *e : st.conditions)
    visit(e);
  return found;
}

/// Whether function `fn` has a derivative annotation or its body calls (at any depth) one that
/// has: its partial derivatives then differ from its time derivative's recipe.
bool reachesUserDerivative(ExprContext &ctx, int fn, std::vector<int> &visiting) {
  const Function &f = ctx.function(fn);
  if (!f.tangentUnused.empty())
    return true;
  if (std::find(visiting.begin(), visiting.end(), fn) != visiting.end())
    return false;
  visiting.push_back(fn);
  const bool found = anyStatement(f.body, [&](const FnStatement &st) {
    return callsWhere(st, [&](const Expr *call) { return reachesUserDerivative(ctx, call->function(), visiting); });
  });
  visiting.pop_back();
  return found;
}

bool reachesUserDerivative(ExprContext &ctx, int fn) {
  std::vector<int> visiting;
  return reachesUserDerivative(ctx, fn, visiting);
}

bool callsExternal(const std::vector<FnStatement> &body) {
  return anyStatement(body, [](const FnStatement &st) { return st.kind == FnStatement::External; });
}

} // namespace

int partialDerivativeFunction(ExprContext &ctx, int fn) {
  const Function &f = ctx.function(fn);
  if (f.runtimeOnly || f.body.empty() || callsExternal(f.body) || !reachesUserDerivative(ctx, fn))
    return derivativeFunction(ctx, fn); // the same derivative, or no body to differentiate
  if (f.bodyDerivative >= 0)
    return f.bodyDerivative;
  // A shell of its own: addDerivativeShell registers it as `derivative`, which stays the user's.
  const int user = f.derivative;
  const int id = addDerivativeShell(ctx, fn);
  ctx.function(fn).derivative = user;
  ctx.function(fn).bodyDerivative = id;
  Function &d = ctx.function(id);
  d.name = "d(" + ctx.function(fn).name + ")";
  d.body = Tangent(ctx, ctx.function(fn), d, ctx.function(fn).numSlots(), /*total=*/false).block(ctx.function(fn).body);
  return id;
}

namespace {

/// The inputs each slot's value may depend on (Function::reads): a forward data-flow analysis
/// over the statements; an assignment inside a branch or loop adds to its target's inputs (it
/// may not run), a loop's body runs until nothing is added, every condition's inputs are those
/// of all outputs (control dependence, conservatively for the whole body).
class InputDependence {
public:
  explicit InputDependence(const Function &f)
      : f_(f), inputs_(f.inputs.size()), slots_(static_cast<size_t>(f.numSlots()), Set(f.inputs.size(), 0)),
        control_(f.inputs.size(), 0) {
    for (size_t i = 0; i < inputs_; ++i)
      slots_[static_cast<size_t>(f.inputs[i])][i] = 1;
  }

  std::vector<std::vector<char>> run() {
    block(f_.body, false);
    std::vector<std::vector<char>> reads;
    for (int out : f_.outputs) {
      Set s = slots_[static_cast<size_t>(out)];
      merge(s, control_);
      reads.push_back(std::move(s));
    }
    return reads;
  }

private:
  using Set = std::vector<char>;

  static bool merge(Set &into, const Set &from) {
    bool changed = false;
    for (size_t i = 0; i < into.size(); ++i)
      if (from[i] && !into[i])
        into[i] = 1, changed = true;
    return changed;
  }

  /// Whether `e` calls a function with effects: an assertion or C code at any depth.
  static bool callsFunction(const Expr *e) {
    if (!e)
      return false;
    FnStatement st;
    st.value = e;
    std::vector<const Function *> visiting;
    return callsWhere(st, [&](const Expr *call) { return effects(call->callee(), visiting); });
  }
  static bool effects(const Function &f, std::vector<const Function *> &visiting) {
    if (std::find(visiting.begin(), visiting.end(), &f) != visiting.end())
      return false;
    if (f.body.empty() || f.runtimeOnly)
      return true; // not known here (a shell being made, an external object's function)
    visiting.push_back(&f);
    const bool found = anyStatement(f.body, [&](const FnStatement &st) {
      return st.kind == FnStatement::Assert || st.kind == FnStatement::External ||
             callsWhere(st, [&](const Expr *call) { return effects(call->callee(), visiting); });
    });
    visiting.pop_back();
    return found;
  }

  Set of(const Expr *e) const {
    Set s(inputs_, 0);
    if (!e)
      return s;
    // A nested call's arguments that its output does not read are not read here either.
    std::unordered_set<const Expr *> seen;
    std::vector<const Expr *> stack{e};
    while (!stack.empty()) {
      const Expr *n = stack.back();
      stack.pop_back();
      if (!seen.insert(n).second)
        continue;
      if (n->kind() == ExprKind::Local)
        merge(s, slots_[static_cast<size_t>(n->slot())]);
      else if (n->kind() == ExprKind::LocalAt)
        for (int k = 0; k < n->extent(); ++k)
          merge(s, slots_[static_cast<size_t>(n->slot() + k)]);
      for (size_t i = 0; i < n->numOps(); ++i)
        if (n->kind() != ExprKind::FnCall || n->callee().reads(n->fnOutput(), static_cast<int>(i)))
          stack.push_back(n->op(i));
    }
    return s;
  }

  /// Assigns `value` to slots [first, first + count); returns whether anything was added.
  bool assign(int first, int count, const Set &value, bool weak) {
    bool changed = false;
    for (int k = 0; k < count; ++k) {
      Set &target = slots_[static_cast<size_t>(first + k)];
      if (weak || count > 1) {
        changed = merge(target, value) || changed;
      } else {
        changed = changed || target != value;
        target = value;
      }
    }
    return changed;
  }

  bool block(const std::vector<FnStatement> &statements, bool weak) {
    bool changed = false;
    for (const FnStatement &st : statements) {
      switch (st.kind) {
      case FnStatement::Assign: {
        Set value = of(st.value);
        merge(value, of(st.index));
        if (callsFunction(st.value)) // its assertions, its C code's effects: like a condition
          changed = merge(control_, value) || changed;
        changed = assign(st.slot, st.index ? st.extent : 1, value, weak) || changed;
        break;
      }
      case FnStatement::Assert: // a failing assertion is the call's result too
        changed = merge(control_, of(st.value)) || changed;
        break;
      case FnStatement::If:
        for (const Expr *c : st.conditions)
          changed = merge(control_, of(c)) || changed;
        for (const auto &b : st.blocks)
          changed = block(b, true) || changed;
        break;
      case FnStatement::For:
      case FnStatement::While: {
        Set bounds = of(st.value);
        merge(bounds, of(st.step));
        merge(bounds, of(st.stop));
        for (const Expr *c : st.conditions)
          merge(bounds, of(c));
        changed = merge(control_, bounds) || changed;
        if (st.kind == FnStatement::For)
          changed = assign(st.slot, 1, bounds, true) || changed;
        for (size_t round = 0; round <= slots_.size(); ++round) {
          bool more = false;
          for (const auto &b : st.blocks)
            more = block(b, true) || more;
          for (const Expr *c : st.conditions) // a while condition reads what the body changed
            more = merge(control_, of(c)) || more;
          changed = changed || more;
          if (!more)
            break;
        }
        break;
      }
      case FnStatement::External: {
        Set all(inputs_, 0);
        for (const ExternalArg &a : st.external->args)
          if (a.kind != ExternalArg::Literal)
            for (int k = 0; k < a.count; ++k)
              merge(all, slots_[static_cast<size_t>(a.slot + k)]);
        changed = merge(control_, all) || changed; // its effects
        for (const ExternalArg &a : st.external->args)
          if (a.kind == ExternalArg::Pointer && a.written)
            changed = assign(a.slot, a.count, all, true) || changed;
        if (st.external->resultSlot >= 0)
          changed = assign(st.external->resultSlot, 1, all, weak) || changed;
        break;
      }
      case FnStatement::Break:
      case FnStatement::Return:
        break;
      }
    }
    return changed;
  }

  const Function &f_;
  size_t inputs_;
  std::vector<Set> slots_;
  Set control_;
};

} // namespace

bool Function::reads(int output, int input) const {
  if (!readsKnown_) {
    // Nested calls ask their callees (recursive functions: a call of one being analysed reads
    // everything).
    static std::recursive_mutex once;
    static thread_local std::vector<const Function *> analysing;
    std::lock_guard<std::recursive_mutex> lock(once);
    if (std::find(analysing.begin(), analysing.end(), this) != analysing.end())
      return true;
    if (!readsKnown_) {
      // Large array functions (slots x inputs beyond a few million) are taken to read everything.
      if (body.empty() || static_cast<size_t>(numSlots()) * inputs.size() > (size_t{1} << 22)) {
        reads_.clear();
      } else {
        analysing.push_back(this);
        reads_ = InputDependence(*this).run();
        analysing.pop_back();
      }
      readsKnown_ = true;
    }
  }
  if (reads_.empty() || output < 0 || static_cast<size_t>(output) >= reads_.size() || input < 0 ||
      static_cast<size_t>(input) >= reads_[static_cast<size_t>(output)].size())
    return true;
  return reads_[static_cast<size_t>(output)][static_cast<size_t>(input)] != 0;
}

bool Function::releasesStrings() const {
  if (!makesStrings)
    return false;
  for (int s : outputs)
    if (isString(s))
      return false;
  return true;
}

std::vector<double> callFunction(const Function &f, const std::vector<double> &args, std::string &error) {
  error.clear();
  if (f.runtimeOnly) {
    error = "function '" + f.name + "' uses an external object, which exists only when the model runs (MLS 3.5, 12.9.7)";
    return std::vector<double>(f.outputs.size(), NAN);
  }
  return Interpreter(f, error, 0).run(args);
}

void printFunction(std::ostream &os, const Function &f) {
  os << "function " << f.name << "\n";
  std::vector<char> role(f.numSlots(), 0);
  for (int s : f.inputs)
    role[s] = 'i';
  for (int s : f.outputs)
    role[s] = 'o';
  for (int s = 0; s < f.numSlots(); ++s) {
    const char *prefix = role[s] == 'i' ? "input " : role[s] == 'o' ? "output " : "protected ";
    const char *type = f.isBool(s) ? "Boolean " : f.isString(s) ? "String " : "Real ";
    os << "  " << prefix << type << f.slotNames[s] << ";\n";
  }
  os << "algorithm\n";
  printBlock(os, f, f.body, 2);
  os << "end " << f.name << ";\n";
}

} // namespace eqc
