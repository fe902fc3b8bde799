// The symbolic core: immutable, interned (hash-consed) expression nodes owned by an ExprContext.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace eqc {

struct Function;

enum class ExprKind : uint8_t {
#define EXPR_KIND(Name, Op, Bool) Name,
#include "middle/ExprKinds.def"
};

enum class Builtin : uint8_t {
#define BUILTIN(Enum, Name, Arity, Libm, Events, Integer) Enum,
#include "middle/Builtins.def"
};
constexpr size_t kBuiltinCount = 0
#define BUILTIN(Enum, Name, Arity, Libm, Events, Integer) +1
#include "middle/Builtins.def"
    ;

/// How a builtin behaves where its arguments move continuously (middle/Builtins.def).
enum class BuiltinEvents : uint8_t { Smooth, Steps, Jumps };

/// Name, arity, C library symbol and event behaviour of a builtin.
struct BuiltinInfo {
  const char *name;
  int arity;
  const char *libm;
  BuiltinEvents events;
  bool integer; ///< Integer-valued for Integer arguments
};
const BuiltinInfo &builtinInfo(Builtin b);
/// Looks a builtin up by its source name; false if there is none.
bool lookupBuiltin(const std::string &name, Builtin &out);

/// One node. Equal expressions are the same node, so pointer comparison is structural equality.
class Expr {
public:
  ExprKind kind() const { return kind_; }
  /// Const: the value.
  double value() const { return value_; }
  /// Var: the variable index in the flat system.
  int var() const { return payload_; }
  /// Call: the builtin.
  Builtin builtin() const { return static_cast<Builtin>(payload_); }
  bool boolValue() const { return payload_ != 0; }
  /// FnCall: the function (an index into the context's functions).
  int function() const { return payload_; }
  /// FnCall: the function itself (owned by the context).
  const Function &callee() const { return *callee_; }
  /// FnCall: which scalar output of the function.
  int fnOutput() const { return static_cast<int>(value_); }
  /// Once: the discrete variable that holds the value (var() too).
  /// Delay: which delay of the model (its own history at run time).
  int delayIndex() const { return payload_; }
  /// Local, LocalAt: the slot (LocalAt: of the array's first element).
  int slot() const { return payload_; }
  /// LocalAt: the number of slots of the array, for the bounds check.
  int extent() const { return static_cast<int>(value_); }
  const std::vector<const Expr *> &ops() const { return ops_; }
  const Expr *op(size_t i) const { return ops_[i]; }
  size_t numOps() const { return ops_.size(); }
  /// Creation order within the context: a stable, deterministic ordering key and memo index.
  uint32_t id() const { return id_; }
  /// True for relations, logical operators and Boolean constants/variables.
  bool isBool() const { return isBool_; }
  bool isConst() const { return kind_ == ExprKind::Const; }
  bool isConst(double v) const { return kind_ == ExprKind::Const && value_ == v; }
  /// A 32-bit summary of the leaves below: bit maskBit(v) for each variable v (Var nodes; pre(v)
  /// is not an occurrence), bit maskBit(-1) for time. When false, `var` (for var < 0: time)
  /// does not occur in the expression: its derivative in var is 0 without a walk.
  bool mayContain(int var) const { return (varMask_ & maskBit(var)) != 0; }
  static uint32_t maskBit(int var) { return var < 0 ? 1u << 31 : 1u << (static_cast<unsigned>(var) % 31); }

private:
  friend class ExprContext;
  friend struct ExprHash;
  friend struct ExprEqual;
  ExprKind kind_;
  bool isBool_ = false;
  int payload_ = 0;
  double value_ = 0;
  uint32_t id_ = 0;
  uint32_t varMask_ = 0; ///< mayContain's summary (in what would be padding)
  size_t hash_ = 0;
  const Function *callee_ = nullptr; ///< FnCall (identified by payload_; not part of the key)
  std::vector<const Expr *> ops_;
};

struct ExprHash {
  size_t operator()(const Expr *e) const { return e->hash_; }
};
struct ExprEqual {
  bool operator()(const Expr *a, const Expr *b) const;
};

/// Owns all nodes. Factories canonicalize: they flatten sums and products, sort operands, fold
/// constants, merge like terms and powers, and apply neutral/absorbing elements, so that
/// structurally different spellings of the same simple expression become one node.
class ExprContext {
public:
  ExprContext();
  ExprContext(const ExprContext &) = delete;
  ExprContext &operator=(const ExprContext &) = delete;

  const Expr *constant(double v);
  const Expr *boolean(bool v);
  /// A variable of the flat system; `isBool` for Boolean parameters.
  const Expr *var(int index, bool isBool = false);
  const Expr *time() { return time_; }
  const Expr *zero() { return zero_; }
  const Expr *one() { return one_; }

  const Expr *add(std::vector<const Expr *> terms);
  const Expr *add(const Expr *a, const Expr *b) { return add(std::vector<const Expr *>{a, b}); }
  const Expr *sub(const Expr *a, const Expr *b) { return add(a, neg(b)); }
  const Expr *mul(std::vector<const Expr *> factors);
  const Expr *mul(const Expr *a, const Expr *b) { return mul(std::vector<const Expr *>{a, b}); }
  const Expr *neg(const Expr *a) { return mul(minusOne_, a); }
  const Expr *div(const Expr *a, const Expr *b) { return mul(a, pow(b, minusOne_)); }
  const Expr *pow(const Expr *base, const Expr *exponent);
  const Expr *call(Builtin fn, std::vector<const Expr *> args);
  const Expr *ifThenElse(const Expr *cond, const Expr *a, const Expr *b);
  const Expr *lt(const Expr *a, const Expr *b);
  const Expr *le(const Expr *a, const Expr *b);
  const Expr *gt(const Expr *a, const Expr *b) { return lt(b, a); }
  const Expr *ge(const Expr *a, const Expr *b) { return le(b, a); }
  const Expr *eq(const Expr *a, const Expr *b);
  const Expr *ne(const Expr *a, const Expr *b);
  const Expr *logicalAnd(const Expr *a, const Expr *b);
  const Expr *logicalOr(const Expr *a, const Expr *b);
  const Expr *logicalNot(const Expr *a);

  /// f(args): scalar output `output` of user function `fn`.
  const Expr *fnCall(int fn, int output, std::vector<const Expr *> args, bool isBool = false);
  /// pre(v): the value of variable v before the current event (a leaf).
  const Expr *pre(int var, bool isBool = false);
  /// noEvent(e); constants and plain variables stay as they are.
  const Expr *noEvent(const Expr *e);
  const Expr *initial();
  /// delay(e, delayTime, delayMax) reading history `index` (ExprContext::newDelay; a rebuilt node
  /// keeps its history). Constant e: e.
  const Expr *delay(int index, const Expr *e, const Expr *delayTime, const Expr *delayMax);
  /// A new delay's history index (0, 1, ...): one per occurrence of delay() in the model.
  int newDelay() { return delays_++; }
  /// How many delay histories the model's expressions read.
  int numDelays() const { return delays_; }
  /// once(e): e evaluated at most once per step of the event iteration, its value held in
  /// discrete variable `var` (NaN: not evaluated in this step) for the step's further passes.
  const Expr *once(int var, const Expr *e);
  /// A scalar slot of a function body.
  const Expr *local(int slot, bool isBool = false);
  /// Element `offset` (0-based, an Integer-valued expression) of the array at slots
  /// [base, base + extent) of a function body; a constant offset gives local(base + offset).
  const Expr *localAt(int base, int extent, const Expr *offset, bool isBool = false);

  /// Number of nodes created so far (ids are below this).
  size_t size() const { return nodes_.size(); }

  /// User functions, referred to by FnCall nodes; the context owns them.
  int addFunction(std::unique_ptr<Function> fn);
  Function &function(int fn) { return *functions_[fn]; }
  const Function &function(int fn) const { return *functions_[fn]; }
  size_t numFunctions() const { return functions_.size(); }
  ~ExprContext();

private:
  const Expr *intern(ExprKind kind, int payload, double value, std::vector<const Expr *> ops,
                     bool isBool);
  /// Splits a product term into (coefficient, rest) for like-term merging.
  std::pair<double, const Expr *> splitCoefficient(const Expr *term);
  /// Splits a factor into (base, exponent) for power merging.
  std::pair<const Expr *, const Expr *> splitPower(const Expr *factor);

  std::deque<Expr> nodes_;
  std::vector<std::unique_ptr<Function>> functions_;
  /// The interning table: open addressing, a power-of-two size at most half full.
  struct TableSlot {
    size_t hash = 0;
    const Expr *node = nullptr;
  };
  std::vector<TableSlot> table_;
  size_t tableCount_ = 0;
  void growTable();
  const Expr *zero_, *one_, *minusOne_, *time_;
  int delays_ = 0;
};

} // namespace eqc
