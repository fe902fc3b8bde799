// Printing, evaluation, variable collection and substitution on the expression DAG.
#include "middle/ExprOps.h"

#include "middle/Function.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <memory>
#include <unordered_set>

namespace eqc {

std::string formatNumber(double v) {
  if (std::isnan(v))
    return "NaN";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

namespace {

enum Prec { PrecIf = 0, PrecOr = 1, PrecAnd = 2, PrecNot = 3, PrecRel = 4, PrecAdd = 5, PrecMul = 6,
            PrecUnary = 7, PrecPow = 8, PrecAtom = 9 };

class Printer {
public:
  Printer(const VarNamer &name, const VarNamer *slotName) : name_(name), slotName_(slotName) {}

  std::string print(const Expr *e, int context) {
    int prec = 0;
    std::string s = body(e, prec);
    return prec < context ? "(" + s + ")" : s;
  }

private:
  std::string body(const Expr *e, int &prec) {
    prec = PrecAtom;
    switch (e->kind()) {
    case ExprKind::Const:
      if (e->value() < 0)
        prec = PrecUnary;
      return formatNumber(e->value());
    case ExprKind::BoolConst:
      return e->boolValue() ? "true" : "false";
    case ExprKind::Var:
      return name_(e->var());
    case ExprKind::Time:
      return "time";
    case ExprKind::Add:
      prec = PrecAdd;
      return sum(e);
    case ExprKind::Mul:
      return product(e, prec);
    case ExprKind::Pow:
      if (e->op(1)->isConst() && e->op(1)->value() < 0) { // x^-1 reads as 1/x
        prec = PrecMul;
        double k = -e->op(1)->value();
        return "1/" + (k == 1 ? print(e->op(0), PrecPow) : print(e->op(0), PrecPow + 1) + "^" + formatNumber(k));
      }
      prec = PrecPow;
      return print(e->op(0), PrecPow + 1) + "^" + print(e->op(1), PrecPow + 1);
    case ExprKind::Call: {
      std::string s = std::string(builtinInfo(e->builtin()).name) + "(";
      for (size_t i = 0; i < e->numOps(); ++i)
        s += (i ? ", " : "") + print(e->op(i), PrecIf);
      return s + ")";
    }
    case ExprKind::If:
      prec = PrecIf;
      return "if " + print(e->op(0), PrecIf) + " then " + print(e->op(1), PrecIf) + " else " +
             print(e->op(2), PrecIf);
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Eq:
    case ExprKind::Ne: {
      prec = PrecRel;
      const char *op = e->kind() == ExprKind::Lt   ? " < "
                       : e->kind() == ExprKind::Le ? " <= "
                       : e->kind() == ExprKind::Eq ? " == "
                                                   : " <> ";
      return print(e->op(0), PrecRel + 1) + op + print(e->op(1), PrecRel + 1);
    }
    case ExprKind::And:
      prec = PrecAnd;
      return print(e->op(0), PrecAnd) + " and " + print(e->op(1), PrecAnd + 1);
    case ExprKind::Or:
      prec = PrecOr;
      return print(e->op(0), PrecOr) + " or " + print(e->op(1), PrecOr + 1);
    case ExprKind::Not:
      prec = PrecNot;
      return "not " + print(e->op(0), PrecNot);
    case ExprKind::FnCall: {
      const Function &f = e->callee();
      if (f.inputs.empty() && !f.name.empty() && f.name[0] == '"') // a String literal (frontend/Strings.cpp)
        return f.name;
      std::string s = f.name + "(";
      for (size_t i = 0; i < e->numOps(); ++i)
        s += (i ? ", " : "") + print(e->op(i), PrecIf);
      s += ")";
      if (f.outputs.size() > 1)
        s += "[" + std::to_string(e->fnOutput() + 1) + "]";
      return s;
    }
    case ExprKind::Pre:
      return "pre(" + name_(e->var()) + ")";
    case ExprKind::NoEvent:
      return "noEvent(" + print(e->op(0), PrecIf) + ")";
    case ExprKind::Initial:
      return "initial()";
    case ExprKind::Once:
      return "once(" + print(e->op(0), PrecIf) + ")";
    case ExprKind::Delay:
      return "delay(" + print(e->op(0), PrecIf) + ", " + print(e->op(1), PrecIf) +
             (e->op(2) == e->op(1) ? "" : ", " + print(e->op(2), PrecIf)) + ")";
    case ExprKind::Local:
      return slotName_ ? (*slotName_)(e->slot()) : "$" + std::to_string(e->slot());
    case ExprKind::LocalAt: {
      std::string base = slotName_ ? (*slotName_)(e->slot()) : "$" + std::to_string(e->slot());
      return base.substr(0, base.find('[')) + "[" + print(e->op(0), PrecAdd) + " + 1]";
    }
    }
    return "?";
  }

  /// A term printed without its sign; `negative` tells whether it was subtracted.
  std::string unsignedTerm(const Expr *t, bool &negative) {
    negative = false;
    if (t->isConst() && t->value() < 0) {
      negative = true;
      return formatNumber(-t->value());
    }
    if (t->kind() == ExprKind::Mul && t->op(0)->isConst() && t->op(0)->value() < 0) {
      negative = true;
      int prec = 0;
      std::string s = productBody(t, -t->op(0)->value(), prec);
      return prec < PrecAdd + 1 && prec != PrecMul ? "(" + s + ")" : s;
    }
    return print(t, PrecAdd);
  }

  std::string sum(const Expr *e) {
    // Print the constant last: `x - 1` reads better than `-1 + x`.
    std::vector<const Expr *> terms(e->ops().begin(), e->ops().end());
    if (terms.front()->isConst())
      std::rotate(terms.begin(), terms.begin() + 1, terms.end());
    std::string s;
    for (size_t i = 0; i < terms.size(); ++i) {
      bool negative;
      std::string t = unsignedTerm(terms[i], negative);
      if (i == 0)
        s = negative ? "-" + t : t;
      else
        s += (negative ? " - " : " + ") + t;
    }
    return s;
  }

  std::string product(const Expr *e, int &prec) {
    double coeff = e->op(0)->isConst() ? e->op(0)->value() : 1;
    if (coeff < 0) {
      std::string s = productBody(e, -coeff, prec);
      prec = PrecUnary;
      return "-" + s;
    }
    return productBody(e, coeff, prec);
  }

  /// A product with coefficient `coeff` (>0) in place of its constant factor.
  std::string productBody(const Expr *e, double coeff, int &prec) {
    prec = PrecMul;
    std::vector<std::string> num, den;
    if (coeff != 1)
      num.push_back(formatNumber(coeff));
    for (const Expr *f : e->ops()) {
      if (f->isConst())
        continue;
      if (f->kind() == ExprKind::Pow && f->op(1)->isConst() && f->op(1)->value() < 0) {
        double k = -f->op(1)->value();
        // A denominator binds like an exponent: y/(2*x), y/(-x), y/x^2.
        std::string base = print(f->op(0), k == 1 ? PrecPow : PrecPow + 1);
        den.push_back(k == 1 ? base : base + "^" + formatNumber(k));
      } else {
        num.push_back(print(f, PrecMul));
      }
    }
    std::string s;
    for (size_t i = 0; i < num.size(); ++i)
      s += (i ? "*" : "") + num[i];
    if (num.empty())
      s = "1";
    if (!den.empty()) {
      std::string d;
      for (size_t i = 0; i < den.size(); ++i)
        d += (i ? "*" : "") + den[i];
      s += "/" + (den.size() > 1 ? "(" + d + ")" : d);
    }
    if (num.size() == 1 && den.empty())
      prec = coeff != 1 ? PrecMul : PrecAtom;
    return s;
  }

  const VarNamer &name_;
  const VarNamer *slotName_;
};

class Evaluator {
public:
  Evaluator(const std::vector<double> &values, double t) : values_(values), t_(t) {}

  double eval(const Expr *e) {
    auto it = memo_.find(e);
    if (it != memo_.end())
      return it->second;
    double v = compute(e);
    memo_.emplace(e, v);
    return v;
  }

private:
  double compute(const Expr *e) {
    auto op = [&](size_t i) { return eval(e->op(i)); };
    switch (e->kind()) {
    case ExprKind::Const:
      return e->value();
    case ExprKind::BoolConst:
      return e->boolValue();
    case ExprKind::Var:
      assert(static_cast<size_t>(e->var()) < values_.size());
      return values_[e->var()];
    case ExprKind::Time:
      return t_;
    case ExprKind::Add: {
      double s = 0;
      for (size_t i = 0; i < e->numOps(); ++i)
        s += op(i);
      return s;
    }
    case ExprKind::Mul: {
      double p = 1;
      for (size_t i = 0; i < e->numOps(); ++i)
        p *= op(i);
      return p;
    }
    case ExprKind::Pow:
      return std::pow(op(0), op(1));
    case ExprKind::Call: {
      double args[2] = {op(0), e->numOps() > 1 ? op(1) : 0};
      return evalBuiltin(e->builtin(), args);
    }
    case ExprKind::If:
      return op(0) != 0 ? op(1) : op(2);
    case ExprKind::Lt:
      return op(0) < op(1);
    case ExprKind::Le:
      return op(0) <= op(1);
    case ExprKind::Eq:
      return op(0) == op(1);
    case ExprKind::Ne:
      return op(0) != op(1);
    case ExprKind::And:
      return op(0) != 0 && op(1) != 0;
    case ExprKind::Or:
      return op(0) != 0 || op(1) != 0;
    case ExprKind::Not:
      return op(0) == 0;
    case ExprKind::NoEvent:
    case ExprKind::Delay: // at one point (the start): the expression's value
    case ExprKind::Once:
      return op(0);
    case ExprKind::Pre: // outside events pre(v) is v
      return values_[e->var()];
    case ExprKind::FnCall: {
      std::vector<double> args;
      for (size_t i = 0; i < e->numOps(); ++i)
        args.push_back(op(i));
      const Function &f = e->callee();
      std::string error;
      return callFunction(f, args, error)[e->fnOutput()];
    }
    case ExprKind::Initial:
      return 0;
    case ExprKind::Local:
    case ExprKind::LocalAt:
      break;
    }
    return NAN;
  }

  const std::vector<double> &values_;
  double t_;
  std::unordered_map<const Expr *, double> memo_;
};

} // namespace

std::string toString(const Expr *e, const VarNamer &name, const VarNamer *slotName) {
  return Printer(name, slotName).print(e, 0);
}

double evaluate(const Expr *e, const std::vector<double> &values, double t) {
  return Evaluator(values, t).eval(e);
}

/// Whether the node's value now depends on operand i's value now: not a delay's expression (read
/// from its history, its past values), not an input a user function's output does not read.
static bool readsNow(const Expr *n, size_t i) {
  if (n->kind() == ExprKind::Delay)
    return i >= 1;
  if (n->kind() == ExprKind::FnCall)
    return n->callee().reads(n->fnOutput(), static_cast<int>(i));
  return true;
}

bool readsSlots(const Expr *e, int first, int count) {
  const long end = static_cast<long>(first) + count;
  bool found = false;
  forEachNode(e, [&](const Expr *n) {
    found = (n->kind() == ExprKind::Local && n->slot() >= first && n->slot() < end) ||
            (n->kind() == ExprKind::LocalAt && n->slot() < end && n->slot() + n->extent() > first);
    return found ? Walk::Stop : Walk::Descend;
  });
  return found;
}

std::vector<int> collectDelays(const Expr *e) {
  std::vector<int> out;
  forEachNode(e, [&](const Expr *n) {
    if (n->kind() == ExprKind::Delay && std::find(out.begin(), out.end(), n->delayIndex()) == out.end())
      out.push_back(n->delayIndex());
    return Walk::Descend;
  });
  return out;
}

void collectVars(const Expr *e, std::vector<int> &out, std::vector<uint32_t> &seen, uint32_t stamp) {
  std::vector<const Expr *> stack{e};
  while (!stack.empty()) {
    const Expr *n = stack.back();
    stack.pop_back();
    if (n->id() >= seen.size())
      seen.resize(std::max<size_t>(n->id() + 1, seen.size() * 2), 0);
    if (seen[n->id()] == stamp)
      continue;
    seen[n->id()] = stamp;
    if (n->kind() == ExprKind::Var)
      out.push_back(n->var());
    for (size_t i = 0; i < n->numOps(); ++i)
      if (readsNow(n, i))
        stack.push_back(n->op(i));
  }
}

namespace detail {

namespace {
thread_local std::vector<std::unique_ptr<WalkScratch>> walkScratch; // per nesting depth
thread_local size_t walkDepth = 0;
} // namespace

WalkScope::WalkScope()
    : scratch_([]() -> WalkScratch & {
        if (walkDepth == walkScratch.size())
          walkScratch.push_back(std::make_unique<WalkScratch>());
        return *walkScratch[walkDepth++];
      }()),
      stamp_(++scratch_.current) {
  if (stamp_ == 0) { // wrapped: old stamps could match again
    std::fill(scratch_.stamps.begin(), scratch_.stamps.end(), 0);
    stamp_ = scratch_.current = 1;
  }
}

WalkScope::~WalkScope() {
  scratch_.stack.clear();
  --walkDepth;
}

} // namespace detail

namespace {

/// Scratch marks indexed by node id for one traversal at a time: a node is marked when its stamp
/// is the traversal's. Thread-local and reused, so a traversal costs what it visits (per-call hash
/// sets made collectVars and isLinearIn mostly malloc; a fresh id-indexed buffer per call would be
/// quadratic in the model size).
struct Marks {
  std::vector<uint32_t> stamps;
  std::vector<uint8_t> values;
  uint32_t current = 0;
  uint32_t begin() {
    if (++current == 0) { // wrapped: old stamps could match again
      std::fill(stamps.begin(), stamps.end(), 0);
      current = 1;
    }
    return current;
  }
  void fit(uint32_t id) {
    if (id >= stamps.size()) {
      size_t n = std::max<size_t>(id + 1, stamps.size() * 2);
      stamps.resize(n, 0);
      values.resize(n, 0);
    }
  }
};

thread_local Marks collectMarks, degreeMarks;
thread_local std::vector<const Expr *> collectStack;

} // namespace

std::vector<int> collectVars(const Expr *e) {
  std::vector<int> out;
  const uint32_t stamp = collectMarks.begin();
  std::vector<const Expr *> &stack = collectStack;
  stack.clear();
  stack.push_back(e);
  while (!stack.empty()) {
    const Expr *n = stack.back();
    stack.pop_back();
    collectMarks.fit(n->id());
    if (collectMarks.stamps[n->id()] == stamp)
      continue;
    collectMarks.stamps[n->id()] = stamp;
    if (n->kind() == ExprKind::Var)
      out.push_back(n->var());
    for (size_t i = 0; i < n->numOps(); ++i)
      if (readsNow(n, i))
        stack.push_back(n->op(i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<int> collectAllVars(const Expr *e) {
  std::vector<int> out;
  forEachNode(e, [&](const Expr *n) {
    if (n->kind() == ExprKind::Var)
      out.push_back(n->var());
    return Walk::Descend;
  });
  std::sort(out.begin(), out.end());
  return out;
}

bool dependsOn(const Expr *e, int var) {
  if (!e->mayContain(var))
    return false;
  std::vector<int> vars = collectVars(e);
  return std::binary_search(vars.begin(), vars.end(), var);
}

namespace {

/// isLinearIn's degree of `e` in `var`: 0 free of it, 1 affine, 2 nonlinear; memoized in
/// degreeMarks for the current stamp (the input is a DAG).
int degreeIn(const Expr *e, int var, uint32_t stamp) {
  if (!e->mayContain(var))
    return 0;
  degreeMarks.fit(e->id());
  if (degreeMarks.stamps[e->id()] == stamp)
    return degreeMarks.values[e->id()];
  int d = 0;
  switch (e->kind()) {
  case ExprKind::Var:
    d = e->var() == var ? 1 : 0;
    break;
  case ExprKind::Add:
    for (const Expr *t : e->ops())
      d = std::max(d, degreeIn(t, var, stamp));
    break;
  case ExprKind::Mul: {
    int sum = 0;
    for (const Expr *f : e->ops())
      sum += std::min(degreeIn(f, var, stamp), 2);
    d = std::min(sum, 2);
    break;
  }
  case ExprKind::Pow: {
    d = degreeIn(e->op(0), var, stamp);
    int exponent = degreeIn(e->op(1), var, stamp);
    if (exponent != 0 || (d != 0 && !e->op(1)->isConst(1)))
      d = d || exponent ? 2 : 0;
    break;
  }
  case ExprKind::Delay: // the expression's past values: free of the current var
    d = degreeIn(e->op(1), var, stamp) || degreeIn(e->op(2), var, stamp) ? 2 : 0;
    break;
  case ExprKind::If:
    d = degreeIn(e->op(0), var, stamp) ? 2
                                       : std::max(degreeIn(e->op(1), var, stamp), degreeIn(e->op(2), var, stamp));
    break;
  default:
    for (size_t i = 0; i < e->numOps(); ++i)
      if (readsNow(e, i) && degreeIn(e->op(i), var, stamp))
        d = 2;
    break;
  }
  // fit() again: the recursion may have grown (and so moved) the buffers.
  degreeMarks.fit(e->id());
  degreeMarks.stamps[e->id()] = stamp;
  degreeMarks.values[e->id()] = static_cast<uint8_t>(d);
  return d;
}

} // namespace

bool isLinearIn(const Expr *root, int var) { return degreeIn(root, var, degreeMarks.begin()) <= 1; }

const Expr *expandJumps(ExprContext &ctx, const Expr *call) {
  switch (call->builtin()) {
  case Builtin::Mod: {
    const Expr *u = call->op(0), *v = call->op(1);
    return ctx.sub(u, ctx.mul(v, ctx.call(Builtin::Floor, {ctx.div(u, v)})));
  }
  default:
    assert(builtinInfo(call->builtin()).events != BuiltinEvents::Jumps && "a Jumps builtin without an expansion");
    return call;
  }
}

const Expr *rebuild(ExprContext &ctx, const Expr *e, const std::vector<const Expr *> &ops) {
  switch (e->kind()) {
  case ExprKind::Const:
  case ExprKind::BoolConst:
  case ExprKind::Var:
  case ExprKind::Time:
    return e;
  case ExprKind::Add:
    return ctx.add(ops);
  case ExprKind::Mul:
    return ctx.mul(ops);
  case ExprKind::Pow:
    return ctx.pow(ops[0], ops[1]);
  case ExprKind::Call:
    return ctx.call(e->builtin(), ops);
  case ExprKind::If:
    return ctx.ifThenElse(ops[0], ops[1], ops[2]);
  case ExprKind::Lt:
    return ctx.lt(ops[0], ops[1]);
  case ExprKind::Le:
    return ctx.le(ops[0], ops[1]);
  case ExprKind::Eq:
    return ctx.eq(ops[0], ops[1]);
  case ExprKind::Ne:
    return ctx.ne(ops[0], ops[1]);
  case ExprKind::And:
    return ctx.logicalAnd(ops[0], ops[1]);
  case ExprKind::Or:
    return ctx.logicalOr(ops[0], ops[1]);
  case ExprKind::Not:
    return ctx.logicalNot(ops[0]);
  case ExprKind::FnCall:
    return ctx.fnCall(e->function(), e->fnOutput(), ops, e->isBool());
  case ExprKind::NoEvent:
    return ctx.noEvent(ops[0]);
  case ExprKind::Delay:
    return ctx.delay(e->delayIndex(), ops[0], ops[1], ops[2]);
  case ExprKind::Once:
    return ctx.once(e->var(), ops[0]);
  case ExprKind::LocalAt:
    return ctx.localAt(e->slot(), e->extent(), ops[0], e->isBool());
  case ExprKind::Pre:
  case ExprKind::Initial:
  case ExprKind::Local:
    return e;
  }
  return e;
}

namespace {

struct Substituter {
  ExprContext &ctx;
  const std::unordered_map<int, const Expr *> &replacement;
  const Expr *time = nullptr; ///< time's replacement (null: none)
  /// Replacements of pre(v) by v (null: none).
  const std::unordered_map<int, const Expr *> *pre = nullptr;
  std::unordered_map<const Expr *, const Expr *> memo;

  const Expr *run(const Expr *e) {
    auto it = memo.find(e);
    if (it != memo.end())
      return it->second;
    const Expr *result = e;
    if (e->kind() == ExprKind::Time && time) {
      result = time;
    } else if (e->kind() == ExprKind::Var) {
      auto r = replacement.find(e->var());
      if (r != replacement.end())
        result = r->second;
    } else if (e->kind() == ExprKind::Pre && pre) {
      auto r = pre->find(e->var());
      if (r != pre->end())
        result = r->second;
    } else if (e->numOps()) {
      std::vector<const Expr *> ops;
      ops.reserve(e->numOps());
      bool changed = false;
      for (const Expr *op : e->ops()) {
        ops.push_back(run(op));
        changed = changed || ops.back() != op;
      }
      if (changed)
        result = rebuild(ctx, e, ops);
    }
    memo.emplace(e, result);
    return result;
  }
};

} // namespace

const Expr *substitute(ExprContext &ctx, const Expr *e,
                       const std::unordered_map<int, const Expr *> &replacement) {
  return Substituter{ctx, replacement, nullptr, nullptr, {}}.run(e);
}

const Expr *substitutePre(ExprContext &ctx, const Expr *e,
                          const std::unordered_map<int, const Expr *> &replacement) {
  static const std::unordered_map<int, const Expr *> none;
  return Substituter{ctx, none, nullptr, &replacement, {}}.run(e);
}

const Expr *substitute(ExprContext &ctx, const Expr *e, const std::unordered_map<int, const Expr *> &replacement,
                       const Expr *time) {
  return Substituter{ctx, replacement, time, nullptr, {}}.run(e);
}

} // namespace eqc
