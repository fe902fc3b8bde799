// Matching diagnostics and the symbolic solution of BLT blocks.
#include "middle/Causalize.h"

#include "middle/ExprOps.h"

#include <cmath>
#include <ostream>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace eqc {

BipartiteGraph incidenceGraph(const FlatSystem &flat, const EquationSystem &sys, bool mergeDerivatives) {
  std::vector<int> column(flat.vars.size(), -1);
  for (size_t j = 0; j < sys.unknowns.size(); ++j)
    column[sys.unknowns[j]] = static_cast<int>(j);
  BipartiteGraph g;
  g.rows = static_cast<int>(sys.residuals.size());
  g.cols = static_cast<int>(sys.unknowns.size());
  g.adj.resize(g.rows);
  std::vector<uint32_t> seen;
  std::vector<int> vars;
  for (int r = 0; r < g.rows; ++r) {
    vars.clear();
    collectVars(sys.residuals[r], vars, seen, static_cast<uint32_t>(r + 1));
    for (int v : vars) {
      if (mergeDerivatives)
        while (flat.vars[v].role == VarRole::Derivative)
          v = flat.vars[v].derivativeOf;
      if (column[v] >= 0)
        g.adj[r].push_back(column[v]);
    }
    std::sort(g.adj[r].begin(), g.adj[r].end());
    g.adj[r].erase(std::unique(g.adj[r].begin(), g.adj[r].end()), g.adj[r].end());
  }
  return g;
}

static std::string joinNames(const FlatSystem &flat, const EquationSystem &sys, const std::vector<int> &cols) {
  std::string s;
  for (size_t i = 0; i < cols.size() && i < 12; ++i)
    s += (i ? ", " : "") + flat.varName(sys.unknowns[cols[i]]);
  if (cols.size() > 12)
    s += ", ... (" + std::to_string(cols.size()) + " in all)";
  return s;
}

std::optional<Matching> matchEquations(const FlatSystem &flat, const EquationSystem &sys,
                                       const BipartiteGraph &g, Diagnostics &diags) {
  Matching m = maximumMatching(g);
  if (m.size == g.rows && g.rows == g.cols)
    return m;
  SingularParts parts = singularParts(g, m);
  const std::string subject = sys.purpose == "model" ? "the model" : "the " + sys.purpose + " problem";
  if (!parts.overRows.empty()) {
    SourceRange at = sys.locs[parts.overRows.front()];
    size_t nr = parts.overRows.size(), nc = parts.overCols.size();
    std::string msg = subject + " is structurally singular: " + plural(nr, "equation") +
                      (nr == 1 ? " involves " : " involve ") +
                      (nc == 0 ? "none of the unknowns" : "only " + plural(nc, "unknown") + " (" +
                                                             joinNames(flat, sys, parts.overCols) + ")");
    diags.error(at, msg);
    for (int r : parts.overRows)
      diags.note(sys.locs[r], sys.labels[r] + " is in the over-determined part");
  }
  if (!parts.underCols.empty()) {
    std::string msg = subject + " is structurally singular: " +
                      plural(parts.underCols.size(), "unknown") + " (" + joinNames(flat, sys, parts.underCols) +
                      ") " + (parts.underCols.size() == 1 ? "is" : "are") + " determined by only " +
                      plural(parts.underRows.size(), "equation");
    SourceRange at = parts.underRows.empty() ? flat.vars[sys.unknowns[parts.underCols.front()]].loc
                                             : sys.locs[parts.underRows.front()];
    diags.error(at, msg);
    for (int r : parts.underRows)
      diags.note(sys.locs[r], sys.labels[r] + " is in the under-determined part");
    for (int c : parts.underCols)
      if (g.adj.size() && std::none_of(g.adj.begin(), g.adj.end(), [c](const std::vector<int> &row) {
            return std::find(row.begin(), row.end(), c) != row.end();
          }))
        diags.note(flat.vars[sys.unknowns[c]].loc, "'" + flat.varName(sys.unknowns[c]) + "' occurs in no equation");
  }
  return std::nullopt;
}

namespace {

/// The common case of a residual solved for a variable: a sum with one term c*var (or var) and
/// var in no other term. Then var = -rest/c with rest the other terms, read off without
/// differentiating or substituting over the whole residual (which made half the causalization
/// time of large models); the nodes are the ones those would make. Else {0, nullptr}.
std::pair<double, const Expr *> splitLinearTerm(ExprContext &ctx, const Expr *r, int var) {
  if (r->kind() != ExprKind::Add)
    return {0, nullptr};
  double coefficient = 0;
  std::vector<const Expr *> rest;
  rest.reserve(r->ops().size());
  for (const Expr *term : r->ops()) {
    const bool isVar = term->kind() == ExprKind::Var && term->var() == var;
    const bool isScaledVar = term->kind() == ExprKind::Mul && term->ops().size() == 2 && term->op(0)->isConst() &&
                             term->op(1)->kind() == ExprKind::Var && term->op(1)->var() == var;
    if ((isVar || isScaledVar) && coefficient == 0) {
      coefficient = isVar ? 1.0 : term->op(0)->value();
      continue;
    }
    if (dependsOn(term, var))
      return {0, nullptr};
    rest.push_back(term);
  }
  if (coefficient == 0 || !std::isfinite(coefficient))
    return {0, nullptr};
  return {coefficient, ctx.add(std::move(rest))};
}

/// How many nonlinear assignments of a torn loop may nest in one another (see tearLoop).
constexpr int kMaxNonlinearDepth = 16;
/// The largest torn loop that keeps its whole form to fall back on.
constexpr size_t kMaxWholeFallback = 64;
/// Linear blocks of at least this many unknowns are torn too: what connections leave (a = b,
/// a = -b, Kirchhoff's sums) is solved in sequence, and one LU of the tearing variables' system
/// (the Schur complement of the eliminated part, exact since its pivots are non-zero constants)
/// replaces the block's dense LU at every evaluation. Smaller blocks keep their LU as it is.
constexpr size_t kMinTornLinear = 16;

/// `r` solved for `var` when var occurs in it linearly with a constant non-zero coefficient
/// (solving never divides by a value that may be zero), else null.
const Expr *solveWithConstantCoefficient(ExprContext &ctx, Differentiator &d, const Expr *r, int var) {
  if (auto [c, rest] = splitLinearTerm(ctx, r, var); rest)
    return ctx.neg(ctx.div(rest, ctx.constant(c)));
  if (!isLinearIn(r, var))
    return nullptr;
  const Expr *slope = d.diff(r, var);
  if (!slope->isConst() || slope->isConst(0) || !std::isfinite(slope->value()))
    return nullptr;
  return ctx.neg(ctx.div(substitute(ctx, r, {{var, ctx.zero()}}), slope));
}

/// `r` solved for `var` when var occurs in it only as its reciprocal with coefficients free of
/// it (`R_m = 1/G_m` solved for G_m, whose start value 0 Newton could not leave): with w = 1/var,
/// r = c0 + c1 w, so var = -c1/c0; else null.
const Expr *solveReciprocal(ExprContext &ctx, Differentiator &d, const Expr *r, int var) {
  const Expr *x = ctx.var(var);
  const Expr *inWs = substitute(ctx, r, {{var, ctx.div(ctx.one(), x)}}); // var's slot now holds w
  if (!isLinearIn(inWs, var))
    return nullptr;
  const Expr *slope = d.diff(inWs, var);
  if (slope->isConst(0) || dependsOn(slope, var))
    return nullptr;
  const Expr *rest = substitute(ctx, inWs, {{var, ctx.zero()}});
  if (dependsOn(rest, var) || !std::isfinite(rest->isConst() ? rest->value() : 1.0))
    return nullptr;
  return ctx.neg(ctx.div(slope, rest));
}

/// Whether `value` switches between pieces (an if-expression whose condition reads one of
/// `vars`, a step function of them) where the loop is solved: an assignment through it would
/// fold the switch into Newton's residuals, where the iteration, linearizing across it, no
/// longer sees the piece it is on. abs, min and max are continuous: assigned through them, a
/// value keeps its range (`B_N = abs(B)` stays >= 0; iterated, it could go negative).
bool kinkedIn(const Expr *value, const std::unordered_map<int, int> &vars) {
  bool kinked = false;
  forEachNode(value, [&](const Expr *n) {
    const bool kink =
        n->kind() == ExprKind::If ||
        (n->kind() == ExprKind::Call && builtinInfo(n->builtin()).events != BuiltinEvents::Smooth);
    if (!kink)
      return Walk::Descend;
    // An if-expression switches only where its condition reads the loop's unknowns; one whose
    // condition is known before the loop (a parameter's choice) stays on its branch.
    const Expr *switching = n->kind() == ExprKind::If ? n->op(0) : n;
    for (int v : collectVars(switching))
      if (vars.count(v)) {
        kinked = true;
        return Walk::Stop;
      }
    return n->kind() == ExprKind::If ? Walk::Descend : Walk::Skip; // its branches may have kinks
  });
  return kinked;
}

/// Whether the loop's residuals are linear in its unknowns (looking at the pairs that occur).
bool linearLoop(Differentiator &d, const AlgebraicLoop &loop) {
  std::unordered_map<int, bool> inLoop;
  for (int v : loop.vars)
    inLoop[v] = true;
  for (const Expr *r : loop.residuals)
    for (int v : collectVars(r)) {
      if (!inLoop.count(v))
        continue;
      if (!isLinearIn(r, v))
        return false;
      for (int w : collectVars(d.diff(r, v)))
        if (inLoop.count(w))
          return false;
    }
  return true;
}

/// The Jacobian, linearity and (when linear) offsets of a loop whose vars and residuals are set.
void finishLoop(ExprContext &ctx, Differentiator &d, AlgebraicLoop &loop) {
  loop.jacobian.clear();
  loop.offset.clear();
  for (const Expr *r : loop.residuals)
    for (int v : loop.vars)
      loop.jacobian.push_back(d.diff(r, v));
  loop.linear = true;
  for (const Expr *r : loop.residuals)
    for (int v : loop.vars)
      loop.linear = loop.linear && isLinearIn(r, v);
  for (const Expr *entry : loop.jacobian)
    for (int v : loop.vars)
      loop.linear = loop.linear && !dependsOn(entry, v);
  if (loop.linear) {
    std::unordered_map<int, const Expr *> zero;
    for (int v : loop.vars)
      zero[v] = ctx.zero();
    for (const Expr *r : loop.residuals)
      loop.offset.push_back(substitute(ctx, r, zero));
  }
}

} // namespace

const Expr *solveExplicitly(ExprContext &ctx, Differentiator &d, const Expr *r, int var) {
  if (auto [c, rest] = splitLinearTerm(ctx, r, var); rest)
    return ctx.neg(ctx.div(rest, ctx.constant(c)));
  const Expr *slope = d.diff(r, var);
  // A structural linearity test: a derivative free of var alone would also accept floor(var)
  // or var inside an if-condition.
  if (!slope->isConst(0) && isLinearIn(r, var)) // r = slope*var + rest, rest = r|var=0
    return ctx.neg(ctx.div(substitute(ctx, r, {{var, ctx.zero()}}), slope));
  return solveReciprocal(ctx, d, r, var);
}

namespace {

/// The greedy tearing of one block (see tearLoop): positions k index the block's variables and
/// rows i its rows.
class Tearing {
public:
  Tearing(FlatSystem &flat, const EquationSystem &sys, const Matching &m, const std::vector<int> &block)
      : flat_(flat), sys_(sys), block_(block), ctx_(*flat.ctx), d_(ctx_), n_(block.size()), vars_(n_), rowVars_(n_),
        varRows_(n_), open_(n_), determined_(n_, false), used_(n_, false), depth_(n_, 0) {
    for (size_t k = 0; k < n_; ++k) {
      vars_[k] = sys.unknowns[m.rowToCol[block[k]]];
      local_[vars_[k]] = static_cast<int>(k);
    }
    for (size_t i = 0; i < n_; ++i) {
      for (int v : collectVars(residual(i)))
        if (auto it = local_.find(v); it != local_.end())
          rowVars_[i].push_back(it->second);
      std::sort(rowVars_[i].begin(), rowVars_[i].end());
      rowVars_[i].erase(std::unique(rowVars_[i].begin(), rowVars_[i].end()), rowVars_[i].end());
      for (int k : rowVars_[i])
        varRows_[static_cast<size_t>(k)].push_back(static_cast<int>(i));
      open_[i] = static_cast<int>(rowVars_[i].size());
      if (open_[i] == 1)
        ready_.push_back(static_cast<int>(i));
    }
  }

  /// Assignments as long as rows give their last unknown, then a tearing variable, until every
  /// variable is determined.
  void run() {
    while (true) {
      assignReady();
      if (count_ == n_)
        break;
      const int k = chooseTearingVariable();
      tears_.push_back(vars_[static_cast<size_t>(k)]);
      determine(k);
    }
    minimize();
  }

  /// The greedy choice may take a variable that the later ones would have determined (the
  /// magnetic reluctance of a flux tube before its flux): each tearing variable, the latest
  /// first, is dropped when the assignments from the others still determine every variable.
  void minimize() {
    if (tears_.size() < 2)
      return;
    // What run() found, restored when no variable can be dropped.
    const std::vector<bool> determined = determined_, used = used_;
    const std::vector<int> depth = depth_;
    const std::vector<Assignment> order = order_;
    std::vector<int> kept = tears_;
    bool dropped = false;
    for (size_t t = kept.size(); t-- > 0 && kept.size() > 1;) {
      std::vector<int> fewer = kept;
      fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(t));
      if (replay(fewer)) {
        kept = std::move(fewer);
        dropped = true;
      }
    }
    if (dropped && replay(kept)) {
      tears_ = kept;
      return;
    }
    determined_ = determined;
    used_ = used;
    depth_ = depth;
    order_ = order;
    count_ = n_;
  }

  /// The assignments from tearing variables `tears` alone (the state run() leaves); whether they
  /// determine every variable.
  bool replay(const std::vector<int> &tears) {
    std::fill(determined_.begin(), determined_.end(), false);
    std::fill(used_.begin(), used_.end(), false);
    std::fill(depth_.begin(), depth_.end(), 0);
    order_.clear();
    ready_.clear();
    blocked_.clear();
    count_ = 0;
    for (size_t i = 0; i < n_; ++i) {
      open_[i] = static_cast<int>(rowVars_[i].size());
      if (open_[i] == 1)
        ready_.push_back(static_cast<int>(i));
    }
    for (int v : tears)
      determine(local_.at(v));
    assignReady();
    return count_ == n_;
  }

  void result(AlgebraicLoop &loop, std::vector<CausalStep> &assignments) {
    // Newton's unknowns: the tearing variables; its residuals: the rows left, with the
    // assignments substituted (in order, each into the next).
    std::unordered_map<int, const Expr *> substituted;
    for (const Assignment &a : order_)
      substituted[a.var] = substitute(ctx_, a.value, substituted);
    loop = AlgebraicLoop{};
    std::sort(tears_.begin(), tears_.end(), [&](int a, int b) { return local_.at(a) < local_.at(b); });
    loop.vars = tears_;
    for (size_t i = 0; i < n_; ++i)
      if (!used_[i]) {
        loop.equations.push_back(block_[i]);
        loop.residuals.push_back(substitute(ctx_, residual(i), substituted));
      }
    assignments.clear();
    for (const Assignment &a : order_) {
      loop.tornVars.push_back(a.var);
      loop.tornEquations.push_back(a.row);
      assignments.push_back({a.var, a.value, -1, a.row});
    }
  }

private:
  struct Assignment {
    int row, var;
    const Expr *value;
  };

  const Expr *residual(size_t i) const { return sys_.residuals[block_[i]]; }

  /// Row i solved for variable k: the value (null when the row cannot give k with a constant
  /// coefficient and through no kink) and the loop's variables it reads, by position, each with
  /// whether it reads it nonlinearly.
  struct Solution {
    const Expr *value = nullptr;
    std::vector<std::pair<int, bool>> reads;
  };

  /// Row i solved for variable k (memoized: minimize() replays the assignments).
  const Solution &solved(size_t i, int k) {
    auto [it, fresh] = solved_.try_emplace((static_cast<uint64_t>(i) << 32) | static_cast<uint32_t>(k));
    if (fresh) {
      const Expr *value = solveWithConstantCoefficient(ctx_, d_, residual(i), vars_[static_cast<size_t>(k)]);
      if (value && !kinkedIn(value, local_)) {
        it->second.value = value;
        for (int v : collectVars(value))
          if (auto at = local_.find(v); at != local_.end())
            it->second.reads.emplace_back(at->second, !isLinearIn(value, v));
      }
    }
    return it->second;
  }

  void determine(int k) {
    determined_[static_cast<size_t>(k)] = true;
    ++count_;
    for (int i : varRows_[static_cast<size_t>(k)])
      if (--open_[static_cast<size_t>(i)] == 1)
        ready_.push_back(i);
  }

  /// Rows left with one unknown give it when they can: linearly with a constant coefficient,
  /// through no kink, nesting nonlinear assignments at most kMaxNonlinearDepth deep (a chain of
  /// them substituted into a residual would make its derivative a product as long as the chain:
  /// quadratic in the loop's size, and ill-conditioned). The others wait for a tearing variable.
  void assignReady() {
    while (!ready_.empty()) {
      const size_t i = static_cast<size_t>(ready_.back());
      ready_.pop_back();
      if (used_[i] || open_[i] != 1)
        continue;
      int k = -1;
      for (int c : rowVars_[i])
        if (!determined_[static_cast<size_t>(c)])
          k = c;
      const Solution &solution = solved(i, k);
      const Expr *value = solution.value;
      int nesting = 0;
      for (auto [at, nonlinear] : solution.reads)
        if (determined_[static_cast<size_t>(at)])
          nesting = std::max(nesting, depth_[static_cast<size_t>(at)] + (nonlinear ? 1 : 0));
      if (!value || nesting > kMaxNonlinearDepth) {
        blocked_.push_back(static_cast<int>(i));
        continue;
      }
      depth_[static_cast<size_t>(k)] = nesting;
      used_[i] = true;
      order_.push_back({block_[i], vars_[static_cast<size_t>(k)], value});
      determine(k);
    }
  }

  /// The last unknown of a row that cannot give it, if there is one (the row becomes a residual
  /// and the assignments go on from there); among those, or else among all: one with a start
  /// value (Newton starts from it), then by Cellier's measure (the rows it lets give their last
  /// unknown), in the most rows left, preferring one that those rows cannot be solved for anyway.
  int chooseTearingVariable() {
    std::vector<char> candidate(n_, 0);
    bool anyBlocked = false;
    for (int i : blocked_)
      if (!used_[static_cast<size_t>(i)] && open_[static_cast<size_t>(i)] == 1)
        for (int c : rowVars_[static_cast<size_t>(i)])
          if (!determined_[static_cast<size_t>(c)]) {
            candidate[static_cast<size_t>(c)] = 1;
            anyBlocked = true;
          }
    blocked_.clear();
    int best = -1;
    std::tuple<bool, int, int, int> bestScore{};
    for (size_t k = 0; k < n_; ++k) {
      if (determined_[k] || (anyBlocked && !candidate[k]))
        continue;
      int rows = 0, unsolvable = 0, enables = 0;
      for (int i : varRows_[k]) {
        if (used_[static_cast<size_t>(i)])
          continue;
        const Expr *r = residual(static_cast<size_t>(i));
        ++rows;
        unsolvable += !isLinearIn(r, vars_[k]);
        if (open_[static_cast<size_t>(i)] == 2)
          for (int c : rowVars_[static_cast<size_t>(i)])
            enables += !determined_[static_cast<size_t>(c)] && c != static_cast<int>(k) &&
                       isLinearIn(r, vars_[static_cast<size_t>(c)]);
      }
      std::tuple<bool, int, int, int> score{flat_.vars[vars_[k]].hasStart, enables, rows, unsolvable};
      if (best < 0 || score > bestScore) {
        best = static_cast<int>(k);
        bestScore = score;
      }
    }
    return best;
  }

  FlatSystem &flat_;
  const EquationSystem &sys_;
  const std::vector<int> &block_;
  ExprContext &ctx_;
  Differentiator d_;
  const size_t n_;
  std::vector<int> vars_;
  std::unordered_map<int, int> local_; ///< variable -> its position in vars_
  std::vector<std::vector<int>> rowVars_, varRows_; ///< the block's incidence, by position
  std::vector<int> open_;                           ///< undetermined variables of each row
  std::vector<bool> determined_, used_;
  std::vector<int> depth_;   ///< nesting of nonlinear assignments (0 for tearing variables)
  std::vector<int> ready_;   ///< rows with one undetermined variable
  std::vector<int> blocked_; ///< rows left with one unknown that they cannot give
  size_t count_ = 0;
  std::vector<Assignment> order_;
  std::vector<int> tears_;
  std::unordered_map<uint64_t, Solution> solved_;
};

} // namespace

void tearLoop(FlatSystem &flat, const EquationSystem &sys, const Matching &m, const std::vector<int> &block,
              AlgebraicLoop &loop, std::vector<CausalStep> &assignments) {
  Tearing tearing(flat, sys, m, block);
  tearing.run();
  tearing.result(loop, assignments);
}

CausalSystem causalize(FlatSystem &flat, const EquationSystem &sys, const Matching &m,
                       const std::vector<std::vector<int>> &blocks) {
  ExprContext &ctx = *flat.ctx;
  Differentiator d(ctx);
  CausalSystem out;
  for (const std::vector<int> &block : blocks) {
    if (block.size() == 1) {
      int row = block[0];
      int var = sys.unknowns[m.rowToCol[row]];
      if (const Expr *value = solveExplicitly(ctx, d, sys.residuals[row], var)) {
        out.steps.push_back({var, value, -1, row});
        continue;
      }
    }
    AlgebraicLoop loop;
    loop.equations = block;
    for (int row : block) {
      loop.vars.push_back(sys.unknowns[m.rowToCol[row]]);
      loop.residuals.push_back(sys.residuals[row]);
    }
    std::vector<CausalStep> after;
    const bool linear = block.size() > 1 && linearLoop(d, loop);
    if (block.size() > 1 && (!linear || block.size() >= kMinTornLinear)) {
      AlgebraicLoop torn;
      tearLoop(flat, sys, m, block, torn, after);
      if (torn.vars.size() < loop.vars.size()) {
        finishLoop(ctx, d, torn);
        // The whole loop to fall back on: its dense Jacobian is code quadratic in its size,
        // which a large loop is torn to avoid (a linear loop's elimination needs none).
        if (!linear && block.size() <= kMaxWholeFallback) {
          finishLoop(ctx, d, loop);
          torn.untorn = std::make_shared<const AlgebraicLoop>(std::move(loop));
        }
        loop = std::move(torn);
      } else {
        after.clear();
        finishLoop(ctx, d, loop);
      }
    } else {
      finishLoop(ctx, d, loop);
    }
    CausalStep step;
    step.loop = static_cast<int>(out.loops.size());
    out.loops.push_back(std::move(loop));
    out.steps.push_back(step);
    out.steps.insert(out.steps.end(), after.begin(), after.end());
  }
  return out;
}

std::string CausalSystem::tearingSummary() const {
  // Per kind (nonlinear loops, then torn linear ones): "N <kind> loops of a, b unknowns -> c, d
  // tearing variables" (the first 8 sizes).
  auto part = [&](bool linear) {
    std::string before, after;
    size_t count = 0;
    for (const AlgebraicLoop &loop : loops) {
      if (loop.linear != linear || (loop.linear && loop.tornVars.empty()))
        continue;
      if (++count > 8)
        continue;
      before += (before.empty() ? "" : ", ") + std::to_string(loop.size());
      after += (after.empty() ? "" : ", ") + std::to_string(loop.vars.size());
    }
    if (count == 0)
      return std::string();
    const char *more = count > 8 ? ", ..." : "";
    return std::to_string(count) + (linear ? " linear" : " nonlinear") + " loop" + (count == 1 ? "" : "s") + " of " +
           before + more + " unknowns -> " + after + more + " tearing variable" +
           (count == 1 && after == "1" ? "" : "s");
  };
  std::string nonlinear = part(false), linear = part(true);
  return nonlinear + (nonlinear.empty() || linear.empty() ? "" : "; ") + linear;
}

void CausalSystem::print(std::ostream &os, const FlatSystem &flat, const EquationSystem &sys) const {
  VarNamer namer = [&flat](int v) { return flat.varName(v); };
  os << "// " << sys.purpose << ": " << steps.size() << " steps, " << loops.size() << " algebraic loops\n";
  for (const CausalStep &s : steps) {
    if (s.loop < 0) {
      os << "  " << flat.varName(s.var) << " := " << toString(s.value, namer) << ";  // from "
         << sys.labels[s.equation] << "\n";
      continue;
    }
    const AlgebraicLoop &loop = loops[s.loop];
    os << "  solve for {";
    for (size_t i = 0; i < loop.vars.size(); ++i)
      os << (i ? ", " : "") << flat.varName(loop.vars[i]);
    os << (loop.linear ? "} by LU (linear)" : "} by Newton");
    if (!loop.tornVars.empty()) {
      os << ", tearing {";
      for (size_t i = 0; i < loop.tornVars.size(); ++i)
        os << (i ? ", " : "") << flat.varName(loop.tornVars[i]);
      os << "} out";
    }
    os << ":\n";
    for (size_t i = 0; i < loop.residuals.size(); ++i)
      os << "    0 = " << toString(loop.residuals[i], namer) << ";  // from " << sys.labels[loop.equations[i]]
         << "\n";
  }
}

} // namespace eqc
