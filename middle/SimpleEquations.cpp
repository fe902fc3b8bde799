#include "middle/SimpleEquations.h"

#include "middle/Causalize.h"
#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace eqc {

namespace {

/// What an equation defines: `x` (its value `value`, free of x), or nothing (x < 0).
struct Definition {
  int x = -1;
  const Expr *value = nullptr;
};

/// The residual at x = a, y = b (y < 0: x only); a constant or null.
const Expr *at(ExprContext &ctx, const Expr *residual, int x, double a, int y = -1, double b = 0) {
  std::unordered_map<int, const Expr *> point{{x, ctx.constant(a)}};
  if (y >= 0)
    point.emplace(y, ctx.constant(b));
  const Expr *r = substitute(ctx, residual, point);
  return r->kind() == ExprKind::Const && std::isfinite(r->value()) ? r : nullptr;
}

/// An equation of one unknown x: a·x + c = 0 with a, c constants, a ≠ 0.
Definition constantDefinition(ExprContext &ctx, const Expr *residual, int x) {
  if (!isLinearIn(residual, x))
    return {};
  const Expr *r0 = at(ctx, residual, x, 0), *r1 = at(ctx, residual, x, 1);
  if (!r0 || !r1 || r1->value() == r0->value())
    return {};
  return {x, ctx.constant(-r0->value() / (r1->value() - r0->value()))};
}

/// An equation of two unknowns x, y: a·x ± a·y = 0 with a a constant ≠ 0; x is the one to
/// replace (`replaceable`; of two, the one without a start value: the kept one's start is the
/// guess of the loops it is in).
template <typename Replaceable>
Definition aliasDefinition(ExprContext &ctx, const FlatSystem &flat, const Expr *residual, int x, int y,
                           Replaceable replaceable) {
  if (!replaceable(x) || (replaceable(y) && flat.vars[x].hasStart && !flat.vars[y].hasStart))
    std::swap(x, y);
  if (!replaceable(x) || flat.vars[y].role != VarRole::Unknown || !isLinearIn(residual, x) ||
      !isLinearIn(residual, y))
    return {};
  const Expr *r00 = at(ctx, residual, x, 0, y, 0), *r10 = at(ctx, residual, x, 1, y, 0);
  const Expr *r01 = at(ctx, residual, x, 0, y, 1), *r11 = at(ctx, residual, x, 1, y, 1);
  if (!r00 || !r10 || !r01 || !r11 || r00->value() != 0)
    return {};
  const double a = r10->value(), b = r01->value();
  if (a == 0 || std::fabs(a) != std::fabs(b) || r11->value() != a + b)
    return {};
  return {x, a == b ? ctx.neg(ctx.var(y)) : ctx.var(y)};
}

/// Which unknowns each equation reads and which equations read each unknown: compressed rows
/// for the equations as flattened (one pass, no allocation per equation), and the rows of the
/// few equations a substitution rewrote.
class Incidence {
public:
  explicit Incidence(const FlatSystem &flat) : flat_(flat) {
    const size_t n = flat.equations.size();
    readStart_.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      if (flat.equations[i].number != kAlgorithmSection) // an algorithm's outputs are computed together
        collect(flat.equations[i], readVars_);
      readStart_[i + 1] = static_cast<uint32_t>(readVars_.size());
    }
    readerStart_.assign(flat.vars.size() + 1, 0);
    for (int v : readVars_)
      ++readerStart_[static_cast<size_t>(v) + 1];
    for (size_t v = 0; v < flat.vars.size(); ++v)
      readerStart_[v + 1] += readerStart_[v];
    readerEqs_.resize(readVars_.size());
    std::vector<uint32_t> fill(readerStart_.begin(), readerStart_.end() - 1);
    for (size_t i = 0; i < n; ++i)
      for (uint32_t k = readStart_[i]; k < readStart_[i + 1]; ++k)
        readerEqs_[fill[readVars_[k]]++] = static_cast<uint32_t>(i);
  }
  /// How many unknowns equation i reads (lhs and rhs; a term that cancels across them counts).
  size_t count(size_t i) const {
    auto it = rewritten_.find(i);
    return it != rewritten_.end() ? it->second.size() : readStart_[i + 1] - readStart_[i];
  }
  /// Whether one of the unknowns equation i reads satisfies `pred`.
  template <typename Pred> bool any(size_t i, Pred pred) const {
    if (auto it = rewritten_.find(i); it != rewritten_.end())
      return std::any_of(it->second.begin(), it->second.end(), pred);
    return std::any_of(readVars_.begin() + readStart_[i], readVars_.begin() + readStart_[i + 1], pred);
  }
  /// The equations that read unknown v.
  std::vector<size_t> readers(int v) const {
    std::vector<size_t> out(readerEqs_.begin() + readerStart_[v], readerEqs_.begin() + readerStart_[v + 1]);
    if (auto it = extraReaders_.find(v); it != extraReaders_.end())
      out.insert(out.end(), it->second.begin(), it->second.end());
    return out;
  }
  /// Equation i was rewritten: its unknowns afresh; it is a reader of those it did not read.
  void rewrite(size_t i) {
    std::vector<int> before;
    if (auto it = rewritten_.find(i); it != rewritten_.end())
      before = std::move(it->second);
    else
      before.assign(readVars_.begin() + readStart_[i], readVars_.begin() + readStart_[i + 1]);
    std::sort(before.begin(), before.end());
    std::vector<int> &now = rewritten_[i];
    now.clear();
    collect(flat_.equations[i], now);
    for (int v : now)
      if (!std::binary_search(before.begin(), before.end(), v))
        extraReaders_[v].push_back(i);
  }

private:
  void collect(const Equation &eq, std::vector<int> &out) {
    const size_t from = out.size();
    ++stamp_;
    collectVars(eq.lhs, out, seen_, stamp_);
    collectVars(eq.rhs, out, seen_, stamp_);
    out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(),
                             [&](int v) { return flat_.vars[v].isKnown(); }),
              out.end());
  }
  const FlatSystem &flat_;
  std::vector<uint32_t> readStart_, readerStart_, readerEqs_;
  std::vector<int> readVars_;
  std::unordered_map<size_t, std::vector<int>> rewritten_;
  std::unordered_map<int, std::vector<size_t>> extraReaders_;
  std::vector<uint32_t> seen_;
  uint32_t stamp_ = 0;
};

/// Whether `eq` is written `x = f(...)` (or `f(...) = x`) with f reading two unknowns or more: x's
/// explicit definition. A constant for x substituted there turns it into a constraint among the
/// others (MultiBody's planar loop joint: `r_rel_a = resolve2(frame_a.R, ...)` with the loop's
/// `0 = ey_a*r_rel_a` folding to r_rel_a[2] = 0), which changes what index reduction differentiates
/// and where the initialization must start; the equation keeps x, which its own defines anyway.
/// The unknowns `e` reads (not parameters, discrete variables or inputs), sorted.
std::vector<int> unknownsOf(const FlatSystem &flat, const Expr *e) {
  std::vector<int> out = collectVars(e);
  out.erase(std::remove_if(out.begin(), out.end(), [&](int v) { return flat.vars[v].isKnown(); }), out.end());
  return out;
}

bool explicitDefinition(const FlatSystem &flat, const Equation &eq, int x) {
  for (auto [side, other] : {std::pair{eq.lhs, eq.rhs}, std::pair{eq.rhs, eq.lhs}})
    if (side->kind() == ExprKind::Var && side->var() == x)
      return unknownsOf(flat, other).size() >= 2;
  return false;
}

} // namespace

SimpleEquations substituteSimpleEquations(FlatSystem &flat) {
  ExprContext &ctx = *flat.ctx;
  std::vector<char> replaced(flat.vars.size(), 0);
  auto replaceable = [&](int v) {
    const Variable &var = flat.vars[v];
    return var.role == VarRole::Unknown && var.type == ValueType::Real && var.derivative < 0 && !replaced[v];
  };
  Incidence incidence(flat);
  std::vector<size_t> work;
  for (size_t i = flat.equations.size(); i-- > 0;) // popped in their order
    if (flat.equations[i].number != kAlgorithmSection && incidence.count(i) <= 2)
      work.push_back(i);
  std::vector<char> defining(flat.equations.size(), 0);
  SimpleEquations done;
  while (!work.empty()) {
    const size_t i = work.back();
    work.pop_back();
    if (defining[i] || !incidence.any(i, replaceable))
      continue;
    const Expr *residual = flat.residual(flat.equations[i]);
    const std::vector<int> unknowns = unknownsOf(flat, residual);
    if (unknowns.empty() || unknowns.size() > 2)
      continue;
    const Definition d =
        unknowns.size() == 1
            ? (replaceable(unknowns[0]) ? constantDefinition(ctx, residual, unknowns[0]) : Definition{})
            : aliasDefinition(ctx, flat, residual, unknowns[0], unknowns[1], replaceable);
    if (d.x < 0)
      continue;
    defining[i] = 1;
    replaced[d.x] = 1;
    ++(unknowns.size() == 1 ? done.constants : done.aliases);
    const std::unordered_map<int, const Expr *> replacement{{d.x, d.value}};
    for (size_t j : incidence.readers(d.x)) {
      if (j == i || defining[j])
        continue;
      Equation &eq = flat.equations[j];
      if (d.value->kind() == ExprKind::Const && explicitDefinition(flat, eq, d.x))
        continue; // x = f(y, z, ...) stays: the constant would make it a constraint of y, z, ...
      const Expr *lhs = substitute(ctx, eq.lhs, replacement), *rhs = substitute(ctx, eq.rhs, replacement);
      if (lhs == eq.lhs && rhs == eq.rhs)
        continue;
      eq.lhs = lhs;
      eq.rhs = rhs;
      // What it reads now: the alias's other unknown, and fewer where terms cancelled (0·y, i - i).
      incidence.rewrite(j);
      if (incidence.count(j) <= 2)
        work.push_back(j);
    }
  }
  return done;
}

namespace {

/// Whether `residual` may define x from parameters: it reads no variable but x and parameters,
/// and nothing that changes in time by itself (time, pre, delay, initial(), an impure call).
bool readsParametersOnly(const FlatSystem &flat, const Expr *residual, int x) {
  bool ok = true;
  forEachNode(residual, [&](const Expr *n) {
    switch (n->kind()) { // every kind (-Wswitch): one added to ExprKinds.def is decided here
    case ExprKind::Time:
    case ExprKind::Pre:
    case ExprKind::Initial:
    case ExprKind::Delay:
    case ExprKind::Once:
    case ExprKind::Local:
    case ExprKind::LocalAt:
      ok = false;
      break;
    case ExprKind::Var:
      ok = n->var() == x || (flat.vars[n->var()].role == VarRole::Parameter && !flat.vars[n->var()].object);
      break;
    case ExprKind::Const:
    case ExprKind::Add:
    case ExprKind::Mul:
    case ExprKind::Pow:
    case ExprKind::Call:
    case ExprKind::If:
    case ExprKind::Lt:
    case ExprKind::Le:
    case ExprKind::Eq:
    case ExprKind::Ne:
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
    case ExprKind::BoolConst:
    case ExprKind::FnCall:
    case ExprKind::NoEvent:
      break;
    }
    return ok ? Walk::Descend : Walk::Stop;
  });
  return ok;
}

} // namespace

size_t promoteParameterUnknowns(FlatSystem &flat) {
  ExprContext &ctx = *flat.ctx;
  Differentiator d(ctx);
  std::vector<char> initial(flat.vars.size(), 0);
  for (const Equation &eq : flat.initialEquations)
    for (const Expr *side : {eq.lhs, eq.rhs})
      for (int v : collectVars(side))
        initial[static_cast<size_t>(v)] = 1;
  auto promotable = [&](int v) {
    const Variable &var = flat.vars[static_cast<size_t>(v)];
    return var.role == VarRole::Unknown && var.type == ValueType::Real && var.derivative < 0 &&
           var.derivativeOf < 0 && !var.output && !var.fixed && !initial[static_cast<size_t>(v)];
  };
  Incidence incidence(flat);
  std::vector<size_t> work;
  for (size_t i = flat.equations.size(); i-- > 0;) // popped in their order
    if (flat.equations[i].number != kAlgorithmSection && incidence.count(i) == 1)
      work.push_back(i);
  std::vector<char> removed(flat.equations.size(), 0);
  size_t promoted = 0;
  while (!work.empty()) {
    const size_t i = work.back();
    work.pop_back();
    if (removed[i] || incidence.count(i) != 1)
      continue;
    const Expr *residual = flat.residual(flat.equations[i]);
    const std::vector<int> unknowns = unknownsOf(flat, residual);
    if (unknowns.size() != 1 || !promotable(unknowns[0]) || !readsParametersOnly(flat, residual, unknowns[0]))
      continue;
    const int x = unknowns[0];
    // Not where another equation defines x from unknowns (`r_rel_a = resolve2(frame_a.R, ...)`
    // of MultiBody's planar loop joint, whose loop constraint fixes r_rel_a[2] = 0): x known, it
    // would become a constraint among those unknowns, which changes what index reduction
    // differentiates and where the initialization must start (as substituteSimpleEquations keeps
    // such a definition).
    const std::vector<size_t> readers = incidence.readers(x);
    if (std::any_of(readers.begin(), readers.end(), [&](size_t j) {
          return j != i && !removed[j] && explicitDefinition(flat, flat.equations[j], x);
        }))
      continue;
    const Expr *value = solveExplicitly(ctx, d, residual, x);
    if (!value || (value->isConst() && !std::isfinite(value->value())))
      continue;
    Variable &var = flat.vars[static_cast<size_t>(x)];
    var.role = VarRole::Parameter;
    var.binding = value;
    var.hasStart = true;
    var.computed = true;
    removed[i] = 1;
    ++promoted;
    // Its readers read one unknown fewer now.
    for (size_t j : readers) {
      if (removed[j] || flat.equations[j].number == kAlgorithmSection)
        continue;
      incidence.rewrite(j);
      if (incidence.count(j) == 1)
        work.push_back(j);
    }
  }
  if (promoted) {
    size_t kept = 0;
    for (size_t i = 0; i < flat.equations.size(); ++i)
      if (!removed[i])
        flat.equations[kept++] = std::move(flat.equations[i]);
    flat.equations.resize(kept);
  }
  return promoted;
}

size_t unlinkUnreadDerivatives(FlatSystem &flat) {
  // Every variable any expression reads (pre() and delay() included); one walk over the DAG.
  std::vector<char> read(flat.vars.size(), 0), visited;
  std::vector<const Expr *> stack;
  auto mark = [&](const Expr *e) {
    if (e)
      stack.push_back(e);
    while (!stack.empty()) {
      const Expr *n = stack.back();
      stack.pop_back();
      if (n->id() >= visited.size())
        visited.resize(std::max<size_t>(n->id() + 1, visited.size() * 2), 0);
      if (visited[n->id()])
        continue;
      visited[n->id()] = 1;
      if (n->kind() == ExprKind::Var || n->kind() == ExprKind::Pre)
        read[n->var()] = 1;
      stack.insert(stack.end(), n->ops().begin(), n->ops().end());
    }
  };
  flat.forEachExpr([&](const Expr *&e) { mark(e); });
  for (const WhenClause &w : flat.whens) // reinit(x, ...) needs x a state
    for (const WhenBranch &br : w.branches)
      for (auto &reinit : br.reinits)
        if (int d = flat.vars[static_cast<size_t>(reinit.first)].derivative; d >= 0)
          read[static_cast<size_t>(d)] = 1;
  size_t count = 0;
  for (size_t x = 0; x < flat.vars.size(); ++x) {
    Variable &var = flat.vars[x];
    if (var.role != VarRole::Unknown || var.derivative < 0 || read[var.derivative] || var.fixed)
      continue;
    Variable &d = flat.vars[var.derivative];
    if (d.derivative >= 0)
      continue;
    d.role = VarRole::Parameter;
    d.derivativeOf = -1;
    d.binding = flat.ctx->zero();
    d.generated = true;
    d.structural = true;
    var.derivative = -1;
    ++count;
  }
  return count;
}

} // namespace eqc
