// Matching diagnostics and the symbolic solution of BLT blocks.
#include "middle/Causalize.h"

#include "middle/ExprOps.h"

#include <cmath>
#include <ostream>
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

} // namespace

CausalSystem causalize(FlatSystem &flat, const EquationSystem &sys, const Matching &m,
                       const std::vector<std::vector<int>> &blocks) {
  ExprContext &ctx = *flat.ctx;
  Differentiator d(ctx);
  CausalSystem out;
  for (const std::vector<int> &block : blocks) {
    if (block.size() == 1) {
      int row = block[0];
      int var = sys.unknowns[m.rowToCol[row]];
      const Expr *r = sys.residuals[row];
      if (auto [c, rest] = splitLinearTerm(ctx, r, var); rest) {
        out.steps.push_back({var, ctx.neg(ctx.div(rest, ctx.constant(c))), -1, row});
        continue;
      }
      const Expr *slope = d.diff(r, var);
      // A structural linearity test: a derivative free of var alone would also accept floor(var)
      // or var inside an if-condition.
      if (!slope->isConst(0) && isLinearIn(r, var)) {
        // r = slope*var + rest with rest = r|var=0, so var = -rest/slope.
        const Expr *rest = substitute(ctx, r, {{var, ctx.zero()}});
        out.steps.push_back({var, ctx.neg(ctx.div(rest, slope)), -1, row});
        continue;
      }
    }
    AlgebraicLoop loop;
    loop.equations = block;
    for (int row : block) {
      loop.vars.push_back(sys.unknowns[m.rowToCol[row]]);
      loop.residuals.push_back(sys.residuals[row]);
    }
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
    CausalStep step;
    step.loop = static_cast<int>(out.loops.size());
    out.loops.push_back(std::move(loop));
    out.steps.push_back(step);
  }
  return out;
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
    os << (loop.linear ? "} by LU (linear):\n" : "} by Newton:\n");
    for (size_t i = 0; i < loop.residuals.size(); ++i)
      os << "    0 = " << toString(loop.residuals[i], namer) << ";  // from " << sys.labels[loop.equations[i]]
         << "\n";
  }
}

} // namespace eqc
