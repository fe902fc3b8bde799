// Operations on expressions: printing, evaluation, variable sets, substitution, derivatives.
#pragma once

#include "middle/Expr.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace eqc {

/// What a walk over an expression does after visiting a node.
enum class Walk { Descend, Skip, Stop }; ///< into its operands; not into them; no further

namespace detail {
/// The scratch of one forEachNode: the stack and the nodes seen, marked by stamp in a vector
/// indexed by node id (a walk costs what it visits: a hash set per walk was most of the cost of
/// the many small walks over functions' statements). Thread-local, one per nesting depth, since a
/// visitor may walk another expression.
struct WalkScratch {
  std::vector<uint32_t> stamps;
  std::vector<const Expr *> stack;
  uint32_t current = 0;
};
/// The scratch of the walk at the current depth, for the lifetime of the scope (which empties its
/// stack, however the walk ends: a visitor may throw).
class WalkScope {
public:
  WalkScope();
  ~WalkScope();
  WalkScope(const WalkScope &) = delete;
  WalkScope &operator=(const WalkScope &) = delete;
  WalkScratch &scratch() { return scratch_; }
  /// The stamp of this walk (a node is seen when its stamp is this).
  uint32_t stamp() const { return stamp_; }

private:
  WalkScratch &scratch_;
  uint32_t stamp_;
};
} // namespace detail

/// Visits each node of the DAG under `e` (e included) once, depth first, as `visit` (Walk(const
/// Expr *)) directs.
template <typename Visit> void forEachNode(const Expr *e, Visit visit) {
  detail::WalkScope scope;
  detail::WalkScratch &w = scope.scratch();
  const uint32_t stamp = scope.stamp();
  w.stack.push_back(e); // (each depth has its own stack, emptied when its walk ends)
  while (!w.stack.empty()) {
    const Expr *n = w.stack.back();
    w.stack.pop_back();
    const uint32_t id = n->id();
    if (id >= w.stamps.size())
      w.stamps.resize(std::max<size_t>(static_cast<size_t>(id) + 1, w.stamps.size() * 2), 0);
    if (w.stamps[id] == stamp)
      continue;
    w.stamps[id] = stamp;
    const Walk next = visit(n);
    if (next == Walk::Stop)
      return;
    if (next == Walk::Descend)
      for (const Expr *op : n->ops())
        w.stack.push_back(op);
  }
}

/// Names variables for printing.
using VarNamer = std::function<std::string(int)>;

/// Shortest text that reads back as the same double (`1`, `0.1`, `2.5e-08`).
std::string formatNumber(double v);

/// Modelica-style infix text with minimal parentheses; `slotName` names the slots of function
/// bodies (Local nodes).
std::string toString(const Expr *e, const VarNamer &name, const VarNamer *slotName = nullptr);

/// Numeric value of a builtin at the given arguments.
double evalBuiltin(Builtin fn, const double *args);

/// Evaluates `e` with variable values from `values` (indexed by variable) and time `t`.
/// Booleans evaluate to 0/1. Memoized on the node, so shared subexpressions cost once.
double evaluate(const Expr *e, const std::vector<double> &values, double t = 0);

/// The distinct variables whose current values `e` depends on, sorted ascending: those in the
/// expression of a delay() (read from its history, MLS 3.5, 3.7.2) are not among them, so that
/// structural analysis sees a delay as breaking the dependence (as other Modelica tools do).
std::vector<int> collectVars(const Expr *e);
/// Every variable that occurs in `e`, in delays too, sorted ascending.
std::vector<int> collectAllVars(const Expr *e);
/// The delay histories (Expr::delayIndex) that `e` reads, each once.
std::vector<int> collectDelays(const Expr *e);
/// Whether `e` (of a function body) reads one of the slots first..first+count-1: a Local of one,
/// or a LocalAt whose array meets them; by default any slot.
bool readsSlots(const Expr *e, int first = 0, int count = std::numeric_limits<int>::max());
/// Appends the variables of `e` not yet marked in `seen` (a scratch buffer indexed by node id,
/// reset by the caller) to `out`. Lets one traversal buffer serve many expressions.
void collectVars(const Expr *e, std::vector<int> &out, std::vector<uint32_t> &seen, uint32_t stamp);

/// True when variable `var` occurs in `e`.
bool dependsOn(const Expr *e, int var);

/// True when `e` is affine in `var`: e = a*var + b with a, b free of var. Conservative: var inside
/// a function call, an if-condition or a non-unit power counts as nonlinear.
bool isLinearIn(const Expr *e, int var);

/// Requires: `call` is a Call of a builtin whose events are Jumps (middle/Builtins.def). Ensures:
/// the same value written with Steps builtins and smooth operations (mod(u, v) = u - v*floor(u/v)),
/// so that event detection sees where it jumps.
const Expr *expandJumps(ExprContext &ctx, const Expr *call);

/// The node `e` with operands `ops`, rebuilt through the canonicalizing factories.
const Expr *rebuild(ExprContext &ctx, const Expr *e, const std::vector<const Expr *> &ops);

/// Replaces variables by expressions (variables absent from the map are kept). Rebuilds only
/// the nodes that change.
const Expr *substitute(ExprContext &ctx, const Expr *e,
                       const std::unordered_map<int, const Expr *> &replacement);
/// The same, with `time` replaced by `time` too.
const Expr *substitute(ExprContext &ctx, const Expr *e, const std::unordered_map<int, const Expr *> &replacement,
                       const Expr *time);

/// Replaces pre(v) by replacement[v] (pre() of variables absent from the map are kept).
const Expr *substitutePre(ExprContext &ctx, const Expr *e,
                          const std::unordered_map<int, const Expr *> &replacement);

/// Symbolic partial derivatives ∂e/∂var, memoized across calls on (node, variable).
class Differentiator {
public:
  /// Pass as `var` to differentiate with respect to `time` (explicit occurrences only).
  static constexpr int kTime = -1;
  explicit Differentiator(ExprContext &ctx) : ctx_(ctx) {}
  /// Requires: `e` is real-valued. Ensures: a canonical expression for ∂e/∂var, where
  /// piecewise-constant functions (sign, floor, ceil, relations) have derivative 0.
  const Expr *diff(const Expr *e, int var);

private:
  const Expr *rule(const Expr *e, int var);
  const Expr **slot(uint64_t key);
  ExprContext &ctx_;
  /// (node id, variable) → derivative: open addressing over (key + 1, value), a power-of-two size
  /// at most half full (the derivatives of a large model are millions of entries).
  std::vector<std::pair<uint64_t, const Expr *>> memo_;
  size_t memoCount_ = 0;
};

} // namespace eqc
