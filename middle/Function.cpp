// User-defined functions: the interpreter the middle end evaluates them with, their printed
// form, and forward-mode derivative functions generated statement by statement.
#include "middle/Function.h"

#include "middle/ChainRule.h"
#include "middle/ExprOps.h"

#include <cmath>
#include <ostream>
#include <unordered_map>

namespace eqc {
namespace {

/// Forward-mode tangents of a function body's expressions: slot s has tangent slot s + shift.
class Tangent {
public:
  Tangent(ExprContext &ctx, const Function &f, int shift) : ctx_(ctx), f_(f), shift_(shift) {}

  const Expr *of(const Expr *e) {
    auto it = memo_.find(e);
    if (it != memo_.end())
      return it->second;
    const Expr *t;
    if (e->isBool())
      t = ctx_.zero();
    else if (e->kind() == ExprKind::Local)
      t = f_.slotIsBool[e->slot()] ? ctx_.zero() : ctx_.local(e->slot() + shift_);
    else if (e->kind() == ExprKind::LocalAt)
      t = ctx_.localAt(e->slot() + shift_, e->extent(), e->op(0));
    else
      t = chainRule(ctx_, e, [&](size_t i) { return of(e->op(i)); });
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
      if (s.kind == FnStatement::Assign && !f_.slotIsBool[s.slot]) {
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
  ExprContext &ctx_;
  const Function &f_;
  int shift_;
  std::unordered_map<const Expr *, const Expr *> memo_;
};

enum class Flow { Normal, Break, Return, Error };

/// Runs a function body on its slots; no memo: slots change between statements.
class Interpreter {
public:
  Interpreter(const Function &f, std::string &error, int depth)
      : f_(f), slots_(f.numSlots(), 0.0), error_(error), depth_(depth) {}

  std::vector<double> run(const std::vector<double> &args) {
    for (size_t i = 0; i < f_.inputs.size() && i < args.size(); ++i)
      slots_[f_.inputs[i]] = args[i];
    std::vector<double> out;
    if (exec(f_.body) == Flow::Error) {
      out.assign(f_.outputs.size(), NAN);
      return out;
    }
    for (int s : f_.outputs)
      out.push_back(slots_[s]);
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
          fail("assertion failed in function '" + f_.name + "': " + s.message);
          return Flow::Error;
        }
        break;
      }
      if (!error_.empty())
        return Flow::Error;
      if (flow != Flow::Normal)
        return flow;
    }
    return Flow::Normal;
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
    }
  }
}

} // namespace

int derivativeFunction(ExprContext &ctx, int fn) {
  if (ctx.function(fn).derivative >= 0)
    return ctx.function(fn).derivative;
  const Function &f = ctx.function(fn);
  const int n = f.numSlots();
  auto d = std::make_unique<Function>();
  d->name = "der(" + f.name + ")";
  d->loc = f.loc;
  d->derivativeOf = fn;
  d->slotNames = f.slotNames;
  d->slotIsBool = f.slotIsBool;
  for (int s = 0; s < n; ++s) {
    d->slotNames.push_back("der(" + f.slotNames[s] + ")");
    d->slotIsBool.push_back(f.slotIsBool[s]);
  }
  d->inputs = f.inputs;
  for (int s : f.inputs)
    d->inputs.push_back(s + n);
  for (int s : f.outputs)
    d->outputs.push_back(s + n);
  Function *raw = d.get();
  // Registered before its body is made: a recursive function's derivative calls itself.
  int id = ctx.addFunction(std::move(d));
  raw->symbol = "eqc_fn" + std::to_string(id) + "_der";
  ctx.function(fn).derivative = id;
  raw->body = Tangent(ctx, ctx.function(fn), n).block(ctx.function(fn).body);
  return id;
}

std::vector<double> callFunction(const Function &f, const std::vector<double> &args, std::string &error) {
  error.clear();
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
    os << "  " << prefix << (f.slotIsBool[s] ? "Boolean " : "Real ") << f.slotNames[s] << ";\n";
  }
  os << "algorithm\n";
  printBlock(os, f, f.body, 2);
  os << "end " << f.name << ";\n";
}

} // namespace eqc
