// Interning and the canonicalizing factories of the expression DAG.
#include "middle/Expr.h"

#include "middle/Function.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace eqc {

static const BuiltinInfo kBuiltins[] = {
#define BUILTIN(Enum, Name, Arity, Libm, Events, Integer) {Name, Arity, Libm, BuiltinEvents::Events, Integer},
#include "middle/Builtins.def"
};

const BuiltinInfo &builtinInfo(Builtin b) { return kBuiltins[static_cast<int>(b)]; }

bool lookupBuiltin(const std::string &name, Builtin &out) {
  for (size_t i = 0; i < kBuiltinCount; ++i)
    if (name == kBuiltins[i].name) {
      out = static_cast<Builtin>(i);
      return true;
    }
  return false;
}

static uint64_t bitsOf(double v) {
  if (v == 0)
    v = 0; // -0.0 and 0.0 are one constant
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

bool ExprEqual::operator()(const Expr *a, const Expr *b) const {
  return a->kind_ == b->kind_ && a->payload_ == b->payload_ && a->isBool_ == b->isBool_ &&
         bitsOf(a->value_) == bitsOf(b->value_) && a->ops_ == b->ops_;
}

/// The finalizer of MurmurHash3: every bit of h affects the low bits that index the table.
static size_t mixBits(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return static_cast<size_t>(h);
}

static size_t hashCombine(size_t seed, size_t v) {
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

ExprContext::ExprContext() {
  zero_ = constant(0);
  one_ = constant(1);
  minusOne_ = constant(-1);
  time_ = intern(ExprKind::Time, 0, 0, {}, false);
}

ExprContext::~ExprContext() = default;

void ExprContext::growTable() {
  std::vector<TableSlot> old(std::max<size_t>(1024, table_.size() * 2));
  old.swap(table_);
  const size_t mask = table_.size() - 1;
  for (const TableSlot &slot : old)
    if (slot.node) {
      size_t i = mixBits(slot.hash) & mask;
      while (table_[i].node)
        i = (i + 1) & mask;
      table_[i] = slot;
    }
}

int ExprContext::addFunction(std::unique_ptr<Function> fn) {
  functions_.push_back(std::move(fn));
  return static_cast<int>(functions_.size() - 1);
}

const Expr *ExprContext::fnCall(int fn, int output, std::vector<const Expr *> args, bool isBool) {
  if (!isBool)
    if (const Expr *value = inlineCall(*this, *functions_[fn], output, args))
      return value;
  const Expr *e = intern(ExprKind::FnCall, fn, output, std::move(args), isBool);
  const_cast<Expr *>(e)->callee_ = functions_[fn].get();
  return e;
}
const Expr *ExprContext::pre(int var, bool isBool) { return intern(ExprKind::Pre, var, 0, {}, isBool); }
const Expr *ExprContext::noEvent(const Expr *e) {
  switch (e->kind()) {
  case ExprKind::Const:
  case ExprKind::BoolConst:
  case ExprKind::Var:
  case ExprKind::Time:
  case ExprKind::NoEvent:
    return e;
  default:
    return intern(ExprKind::NoEvent, 0, 0, {e}, e->isBool());
  }
}
const Expr *ExprContext::delay(int index, const Expr *e, const Expr *delayTime, const Expr *delayMax) {
  if (e->isConst())
    return e;
  return intern(ExprKind::Delay, index, 0, {e, delayTime, delayMax}, false);
}
const Expr *ExprContext::once(int var, const Expr *e) {
  return intern(ExprKind::Once, var, 0, {e}, e->isBool());
}
const Expr *ExprContext::initial() { return intern(ExprKind::Initial, 0, 0, {}, true); }
const Expr *ExprContext::local(int slot, bool isBool) { return intern(ExprKind::Local, slot, 0, {}, isBool); }
const Expr *ExprContext::localAt(int base, int extent, const Expr *offset, bool isBool) {
  if (offset->isConst() && offset->value() >= 0 && offset->value() < extent &&
      offset->value() == static_cast<int>(offset->value()))
    return local(base + static_cast<int>(offset->value()), isBool);
  return intern(ExprKind::LocalAt, base, extent, {offset}, isBool);
}

const Expr *ExprContext::intern(ExprKind kind, int payload, double value,
                                std::vector<const Expr *> ops, bool isBool) {
  Expr probe;
  probe.kind_ = kind;
  probe.payload_ = payload;
  probe.value_ = value == 0 ? 0 : value;
  probe.isBool_ = isBool;
  probe.ops_ = std::move(ops);
  size_t h = hashCombine(static_cast<size_t>(kind), static_cast<size_t>(payload));
  h = hashCombine(h, bitsOf(value));
  for (const Expr *op : probe.ops_)
    h = hashCombine(h, op->id_);
  probe.hash_ = h;
  // Open addressing with linear probing over (hash, node) pairs: a lookup reads one cache line
  // of the table and, when the hashes agree, the node; chained buckets cost a miss per link,
  // which dominated flattening large models.
  if (2 * (tableCount_ + 1) > table_.size())
    growTable();
  const size_t mask = table_.size() - 1;
  size_t i = mixBits(h) & mask;
  ExprEqual equal;
  for (; table_[i].node; i = (i + 1) & mask)
    if (table_[i].hash == h && equal(table_[i].node, &probe))
      return table_[i].node;
  probe.id_ = static_cast<uint32_t>(nodes_.size());
  if (kind == ExprKind::Var)
    probe.varMask_ = Expr::maskBit(payload);
  else if (kind == ExprKind::Time)
    probe.varMask_ = Expr::maskBit(-1);
  for (const Expr *op : probe.ops_)
    probe.varMask_ |= op->varMask_;
  nodes_.push_back(std::move(probe));
  const Expr *node = &nodes_.back();
  table_[i] = {h, node};
  ++tableCount_;
  return node;
}

static bool byId(const Expr *a, const Expr *b) { return a->id() < b->id(); }

const Expr *ExprContext::constant(double v) { return intern(ExprKind::Const, 0, v, {}, false); }
const Expr *ExprContext::boolean(bool v) { return intern(ExprKind::BoolConst, v, 0, {}, true); }
const Expr *ExprContext::var(int index, bool isBool) {
  return intern(ExprKind::Var, index, 0, {}, isBool);
}

std::pair<double, const Expr *> ExprContext::splitCoefficient(const Expr *term) {
  if (term->kind() == ExprKind::Mul && term->op(0)->isConst()) {
    std::vector<const Expr *> rest(term->ops().begin() + 1, term->ops().end());
    return {term->op(0)->value(), rest.size() == 1 ? rest[0] : mul(std::move(rest))};
  }
  return {1.0, term};
}

std::pair<const Expr *, const Expr *> ExprContext::splitPower(const Expr *factor) {
  if (factor->kind() == ExprKind::Pow)
    return {factor->op(0), factor->op(1)};
  return {factor, one_};
}

// Rules of add (each has a test in tests/middle/SimplifyTest.cpp):
//   (a + b) + c      -> a + b + c            flattening
//   2 + x + 3        -> 5 + x                constant folding
//   x + 0            -> x                    neutral element
//   2*x + 3*x        -> 5*x                  like terms
//   x - x            -> 0                    cancellation
const Expr *ExprContext::add(std::vector<const Expr *> terms) {
  std::vector<const Expr *> flat;
  flat.reserve(terms.size());
  for (const Expr *t : terms) {
    assert(!t->isBool() && "add of a Boolean operand");
    if (t->kind() == ExprKind::Add)
      flat.insert(flat.end(), t->ops().begin(), t->ops().end());
    else
      flat.push_back(t);
  }
  double c = 0;
  std::vector<std::pair<const Expr *, double>> like;
  std::unordered_map<const Expr *, size_t> index;
  for (const Expr *t : flat) {
    if (t->isConst()) {
      c += t->value();
      continue;
    }
    auto [coeff, rest] = splitCoefficient(t);
    auto [it, inserted] = index.emplace(rest, like.size());
    if (inserted)
      like.emplace_back(rest, coeff);
    else
      like[it->second].second += coeff;
  }
  std::vector<const Expr *> out;
  for (auto &[rest, coeff] : like) {
    if (coeff == 0)
      continue;
    out.push_back(coeff == 1 ? rest : mul(constant(coeff), rest));
  }
  std::sort(out.begin(), out.end(), byId);
  if (out.empty())
    return constant(c);
  if (c != 0)
    out.insert(out.begin(), constant(c));
  if (out.size() == 1)
    return out[0];
  return intern(ExprKind::Add, 0, 0, std::move(out), false);
}

// Rules of mul:
//   (a * b) * c      -> a * b * c            flattening
//   2 * x * 3        -> 6 * x                constant folding
//   x * 1            -> x                    neutral element
//   x * 0            -> 0                    absorbing element
//   x * x^2          -> x^3                  powers of one base merge
//   x / x            -> 1                    cancellation
//   2 * (x + y)      -> 2*x + 2*y            constants distribute over a single sum
const Expr *ExprContext::mul(std::vector<const Expr *> factors) {
  std::vector<const Expr *> flat;
  flat.reserve(factors.size());
  for (const Expr *f : factors) {
    assert(!f->isBool() && "mul of a Boolean operand");
    if (f->kind() == ExprKind::Mul)
      flat.insert(flat.end(), f->ops().begin(), f->ops().end());
    else
      flat.push_back(f);
  }
  double c = 1;
  std::vector<std::pair<const Expr *, std::vector<const Expr *>>> powers;
  std::unordered_map<const Expr *, size_t> index;
  for (const Expr *f : flat) {
    if (f->isConst()) {
      c *= f->value();
      continue;
    }
    auto [base, exponent] = splitPower(f);
    auto [it, inserted] = index.emplace(base, powers.size());
    if (inserted)
      powers.push_back({base, {exponent}});
    else
      powers[it->second].second.push_back(exponent);
  }
  if (c == 0)
    return zero_;
  std::vector<const Expr *> out;
  for (auto &[base, exponents] : powers) {
    const Expr *e = exponents.size() == 1 ? exponents[0] : add(exponents);
    if (e->isConst(0))
      continue;
    const Expr *f = e->isConst(1) ? base : pow(base, e);
    if (f->isConst())
      c *= f->value();
    else
      out.push_back(f);
  }
  // A merged power can give back a product ((y*z)^2 * (y*z)^-1 = y*z): flatten again.
  if (std::any_of(out.begin(), out.end(), [](const Expr *f) { return f->kind() == ExprKind::Mul; })) {
    out.push_back(constant(c));
    return mul(std::move(out));
  }
  std::sort(out.begin(), out.end(), byId);
  if (out.empty())
    return constant(c);
  if (c != 1 && out.size() == 1 && out[0]->kind() == ExprKind::Add) {
    // c*(a + b) -> c*a + c*b, so that x - (x + y) cancels to -y.
    std::vector<const Expr *> terms;
    for (const Expr *t : out[0]->ops())
      terms.push_back(mul(constant(c), t));
    return add(std::move(terms));
  }
  if (c != 1)
    out.insert(out.begin(), constant(c));
  if (out.size() == 1)
    return out[0];
  return intern(ExprKind::Mul, 0, 0, std::move(out), false);
}

static bool isInteger(double v) { return std::isfinite(v) && v == std::floor(v); }

// Rules of pow:
//   x^0 -> 1,  x^1 -> x,  1^x -> 1,  2^3 -> 8 (only when the result is finite),
//   (x^a)^n -> x^(a*n) for integer n (not for (x^2)^0.5, which is |x|).
const Expr *ExprContext::pow(const Expr *base, const Expr *exponent) {
  if (exponent->isConst(0) || base->isConst(1))
    return one_;
  if (exponent->isConst(1))
    return base;
  if (base->isConst() && exponent->isConst()) {
    double v = std::pow(base->value(), exponent->value());
    if (std::isfinite(v))
      return constant(v);
  }
  if (base->kind() == ExprKind::Pow && exponent->isConst() && isInteger(exponent->value()) &&
      base->op(1)->isConst())
    return pow(base->op(0), constant(base->op(1)->value() * exponent->value()));
  return intern(ExprKind::Pow, 0, 0, {base, exponent}, false);
}

/// Evaluates a builtin on numbers (shared with the evaluator and the tests' reference).
double evalBuiltin(Builtin fn, const double *a);

const Expr *ExprContext::call(Builtin fn, std::vector<const Expr *> args) {
  assert(static_cast<int>(args.size()) == builtinInfo(fn).arity && "builtin arity");
  bool allConst = true;
  double vals[2] = {0, 0};
  for (size_t i = 0; i < args.size(); ++i) {
    allConst = allConst && args[i]->isConst();
    if (args[i]->isConst())
      vals[i] = args[i]->value();
  }
  if (allConst) {
    double v = evalBuiltin(fn, vals);
    if (std::isfinite(v))
      return constant(v);
  }
  return intern(ExprKind::Call, static_cast<int>(fn), 0, std::move(args), false);
}

const Expr *ExprContext::ifThenElse(const Expr *cond, const Expr *a, const Expr *b) {
  assert(cond->isBool() && "if condition must be Boolean");
  if (cond->kind() == ExprKind::BoolConst)
    return cond->boolValue() ? a : b;
  if (a == b)
    return a;
  return intern(ExprKind::If, 0, 0, {cond, a, b}, a->isBool());
}

const Expr *ExprContext::lt(const Expr *a, const Expr *b) {
  if (a->isConst() && b->isConst())
    return boolean(a->value() < b->value());
  return intern(ExprKind::Lt, 0, 0, {a, b}, true);
}
const Expr *ExprContext::le(const Expr *a, const Expr *b) {
  if (a->isConst() && b->isConst())
    return boolean(a->value() <= b->value());
  return intern(ExprKind::Le, 0, 0, {a, b}, true);
}
const Expr *ExprContext::eq(const Expr *a, const Expr *b) {
  if (a->isConst() && b->isConst())
    return boolean(a->value() == b->value());
  if (byId(b, a))
    std::swap(a, b);
  return intern(ExprKind::Eq, 0, 0, {a, b}, true);
}
const Expr *ExprContext::ne(const Expr *a, const Expr *b) {
  if (a->isConst() && b->isConst())
    return boolean(a->value() != b->value());
  if (byId(b, a))
    std::swap(a, b);
  return intern(ExprKind::Ne, 0, 0, {a, b}, true);
}
const Expr *ExprContext::logicalAnd(const Expr *a, const Expr *b) {
  if (a->kind() == ExprKind::BoolConst)
    return a->boolValue() ? b : a;
  if (b->kind() == ExprKind::BoolConst)
    return b->boolValue() ? a : b;
  if (a == b)
    return a;
  return intern(ExprKind::And, 0, 0, {a, b}, true);
}
const Expr *ExprContext::logicalOr(const Expr *a, const Expr *b) {
  if (a->kind() == ExprKind::BoolConst)
    return a->boolValue() ? a : b;
  if (b->kind() == ExprKind::BoolConst)
    return b->boolValue() ? b : a;
  if (a == b)
    return a;
  return intern(ExprKind::Or, 0, 0, {a, b}, true);
}
const Expr *ExprContext::logicalNot(const Expr *a) {
  if (a->kind() == ExprKind::BoolConst)
    return boolean(!a->boolValue());
  if (a->kind() == ExprKind::Not)
    return a->op(0);
  return intern(ExprKind::Not, 0, 0, {a}, true);
}

double evalBuiltin(Builtin fn, const double *a) {
  switch (fn) {
  case Builtin::Sin: return std::sin(a[0]);
  case Builtin::Cos: return std::cos(a[0]);
  case Builtin::Tan: return std::tan(a[0]);
  case Builtin::Asin: return std::asin(a[0]);
  case Builtin::Acos: return std::acos(a[0]);
  case Builtin::Atan: return std::atan(a[0]);
  case Builtin::Atan2: return std::atan2(a[0], a[1]);
  case Builtin::Sinh: return std::sinh(a[0]);
  case Builtin::Cosh: return std::cosh(a[0]);
  case Builtin::Tanh: return std::tanh(a[0]);
  case Builtin::Exp: return std::exp(a[0]);
  case Builtin::Log: return std::log(a[0]);
  case Builtin::Log10: return std::log10(a[0]);
  case Builtin::Sqrt: return std::sqrt(a[0]);
  case Builtin::Abs: return std::fabs(a[0]);
  case Builtin::Sign: return a[0] > 0 ? 1.0 : a[0] < 0 ? -1.0 : 0.0;
  case Builtin::Min: return std::fmin(a[0], a[1]);
  case Builtin::Max: return std::fmax(a[0], a[1]);
  case Builtin::Floor: return std::floor(a[0]);
  case Builtin::Ceil: return std::ceil(a[0]);
  case Builtin::Mod: return a[0] - std::floor(a[0] / a[1]) * a[1];
  }
  return NAN;
}

} // namespace eqc
