// Mattsson–Söderlind state selection by column pivoting on the numeric Jacobians, level by level.
#include "middle/DummyDerivatives.h"
#include "middle/Function.h"
#include "middle/ExprOps.h"

#include <algorithm>
#include <unordered_set>
#include <cmath>

namespace eqc {

std::vector<int> kinematicLevels(const FlatSystem &flat, std::vector<char> *integrated) {
  // A factor of a term: a constant or an expression of parameters (m in m*der(x) = p).
  auto known = [&flat](const Expr *e) {
    for (int v : collectVars(e))
      if (!flat.vars[v].isKnown())
        return false;
    return true;
  };
  std::vector<std::pair<int, int>> links; // (u, v) of c*der(u) = d*v
  for (const Equation &eq : flat.equations) {
    const Expr *r = flat.residual(eq);
    if (r->kind() != ExprKind::Add || r->numOps() != 2)
      continue;
    int vars[2] = {-1, -1};
    for (int k = 0; k < 2; ++k) {
      const Expr *term = r->op(k);
      if (term->kind() == ExprKind::Mul && term->numOps() == 2) {
        if (term->op(1)->kind() == ExprKind::Var && known(term->op(0)))
          term = term->op(1);
        else if (term->op(0)->kind() == ExprKind::Var && known(term->op(1)))
          term = term->op(0);
      }
      if (term->kind() == ExprKind::Var)
        vars[k] = term->var();
    }
    if (vars[0] < 0 || vars[1] < 0)
      continue;
    for (int k = 0; k < 2; ++k) {
      const Variable &d = flat.vars[vars[k]], &v = flat.vars[vars[1 - k]];
      if (d.role == VarRole::Derivative && v.role == VarRole::Unknown)
        links.emplace_back(d.derivativeOf, vars[1 - k]);
    }
  }
  std::vector<int> level(flat.vars.size(), 0);
  if (integrated) {
    integrated->assign(flat.vars.size(), 0);
    for (auto [u, v] : links)
      (*integrated)[u] = 1;
  }
  for (size_t pass = 0; pass <= links.size(); ++pass) { // longest chains, cycles cut off
    bool changed = false;
    for (auto [u, v] : links)
      if (level[v] < level[u] + 1 && level[u] + 1 <= static_cast<int>(links.size())) {
        level[v] = level[u] + 1;
        changed = true;
      }
    if (!changed)
      break;
  }
  // der(u) is a level above u (derivative variables come after the variables they differentiate).
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (flat.vars[v].role == VarRole::Derivative)
      level[v] = level[flat.vars[v].derivativeOf] + 1;
  return level;
}

namespace {

/// How much we would like to make `column` (a derivative) a dummy, i.e. its integral not a state:
/// from stateSelect of the variable that stops being a state, a preference for keeping declared
/// variables (vx) over the derivatives Pantelides introduced (der(x)), and for keeping positions
/// over velocities (a velocity-level constraint solved for a position determines the position
/// only while its velocity is away from zero: the index-2 form of a mechanism).
double dummyWeight(const FlatSystem &flat, const std::vector<int> &levels, int column) {
  int integral = flat.vars[column].derivativeOf;
  const Variable &v = flat.vars[integral];
  double w = std::pow(100.0, levels[integral]);
  switch (v.stateSelect) {
  case StateSelect::Always: w *= kAlwaysWeight; break;
  case StateSelect::Prefer: w *= 1e-2; break;
  case StateSelect::Default: break;
  case StateSelect::Avoid: w *= 1e2; break;
  case StateSelect::Never: w *= 1e4; break;
  }
  if (v.role == VarRole::Derivative)
    w *= 10;
  return w;
}

/// The levels of the MS algorithm: per level, the differentiated equations H and candidate columns Z.
struct Level {
  std::vector<int> equations; ///< augmented equation indices
  std::vector<int> columns;   ///< derivative variables
};

/// Runs the selection; with `fixed` given, evaluates that selection instead of choosing one.
StateSelection run(const FlatSystem &flat, const ReducedSystem &reduced, const std::vector<double> &values, double t,
                   Differentiator &diff, const StateSelection *fixed, const std::vector<double> *preference,
                   bool &ok, std::vector<const Expr *> *partials = nullptr) {
  const PantelidesResult &p = reduced.pantelides;
  const std::vector<int> levels = fixed ? std::vector<int>{} : kinematicLevels(flat); // choosing only
  std::vector<int> predecessor(p.equations.size(), -1);
  for (size_t e = 0; e < p.equations.size(); ++e)
    if (p.equations[e].derivative >= 0)
      predecessor[p.equations[e].derivative] = static_cast<int>(e);

  std::vector<int> g = p.highest;
  std::vector<int> z;
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (!flat.vars[v].isKnown() && flat.vars[v].derivative < 0)
      z.push_back(static_cast<int>(v));

  StateSelection out;
  out.quality = 1;
  ok = true;
  std::vector<char> isDummy(flat.vars.size(), 0);
  if (fixed)
    for (int d : fixed->dummies)
      isDummy[d] = 1;
  while (true) {
    Level level;
    for (int e : g)
      if (p.equations[e].order > 0)
        level.equations.push_back(e);
    for (int v : z)
      if (flat.vars[v].role == VarRole::Derivative)
        level.columns.push_back(v);
    if (level.equations.empty())
      break;
    // The level's Jacobian is sparse and usually block diagonal (each pendulum's constraint involves
    // only its own variables): only structural entries are differentiated, and the elimination runs
    // per connected block of rows and columns, so that the cost follows the blocks' sizes, not
    // rows x cols (a dense matrix of 200 coupled pendula took seconds; of 2,000, 22 GB).
    const size_t rows = level.equations.size(), cols = level.columns.size();
    std::vector<int> columnOf(flat.vars.size(), -1);
    for (size_t j = 0; j < cols; ++j)
      columnOf[level.columns[j]] = static_cast<int>(j);
    struct Entry {
      size_t row, col;
      double value;
    };
    std::vector<Entry> entries;
    double scale = 0;
    for (size_t i = 0; i < rows; ++i) {
      const Expr *residual = p.equations[level.equations[i]].residual;
      for (int v : collectVars(residual)) {
        if (v >= static_cast<int>(columnOf.size()) || columnOf[v] < 0)
          continue;
        const Expr *partial = diff.diff(residual, v);
        if (partials && !partial->isConst())
          partials->push_back(partial);
        double value = partial->isConst() ? partial->value() : evaluate(partial, values, t);
        entries.push_back({i, static_cast<size_t>(columnOf[v]), value});
        scale = std::max(scale, std::fabs(value));
      }
    }
    for (size_t j = 0; j < cols; ++j)
      columnOf[level.columns[j]] = -1;
    // Blocks: rows and columns joined by an entry (union-find over rows 0..rows-1, columns after).
    std::vector<size_t> parent(rows + cols);
    for (size_t k = 0; k < parent.size(); ++k)
      parent[k] = k;
    auto find = [&](size_t k) {
      while (parent[k] != k)
        k = parent[k] = parent[parent[k]];
      return k;
    };
    for (const Entry &e : entries)
      parent[find(e.row)] = find(rows + e.col);
    struct Block {
      std::vector<size_t> rows, cols; ///< ascending level indices
      std::vector<double> m;          ///< dense, rows x cols
      std::vector<char> rowDone, colDone;
    };
    std::vector<int> blockOf(rows + cols, -1);
    std::vector<Block> blocks;
    for (size_t k = 0; k < rows + cols; ++k) {
      size_t root = find(k);
      if (blockOf[root] < 0) {
        blockOf[root] = static_cast<int>(blocks.size());
        blocks.emplace_back();
      }
      Block &b = blocks[blockOf[root]];
      (k < rows ? b.rows : b.cols).push_back(k < rows ? k : k - rows);
    }
    std::vector<size_t> localRow(rows), localCol(cols);
    for (Block &b : blocks) {
      for (size_t i = 0; i < b.rows.size(); ++i)
        localRow[b.rows[i]] = i;
      for (size_t j = 0; j < b.cols.size(); ++j)
        localCol[b.cols[j]] = j;
      b.m.assign(b.rows.size() * b.cols.size(), 0.0);
      b.rowDone.assign(b.rows.size(), 0);
      b.colDone.assign(b.cols.size(), 0);
    }
    for (const Entry &e : entries) {
      Block &b = blocks[blockOf[find(e.row)]];
      b.m[localRow[e.row] * b.cols.size() + localCol[e.col]] = e.value;
    }
    // Gaussian elimination with complete pivoting, weighted by the preference of each column. A
    // block's best candidate is found as the dense loop over the whole matrix would (first maximum
    // in row-major order), and among the blocks the largest wins, ties to the smallest (row,
    // column): the same pivots in the same order as the dense elimination.
    struct Candidate {
      double score = 0, raw = 0;
      size_t i = 0, j = 0; ///< local indices
      bool any = false;
    };
    auto bestOf = [&](const Block &b) {
      Candidate c;
      for (size_t i = 0; i < b.rows.size(); ++i) {
        if (b.rowDone[i])
          continue;
        for (size_t j = 0; j < b.cols.size(); ++j) {
          if (b.colDone[j] || (fixed && !isDummy[level.columns[b.cols[j]]]))
            continue;
          double raw = std::fabs(b.m[i * b.cols.size() + j]);
          const int column = level.columns[b.cols[j]];
          double score = fixed ? raw : raw * dummyWeight(flat, levels, column);
          if (preference && !fixed)
            score *= (*preference)[column];
          if (score > c.score) {
            c.score = score;
            c.raw = raw;
            c.i = i;
            c.j = j;
            c.any = true;
          }
        }
      }
      return c;
    };
    std::vector<Candidate> best(blocks.size());
    for (size_t k = 0; k < blocks.size(); ++k)
      best[k] = bestOf(blocks[k]);
    std::vector<int> chosen;
    for (size_t step = 0; step < rows; ++step) {
      int pick = -1;
      for (size_t k = 0; k < blocks.size(); ++k) {
        if (!best[k].any)
          continue;
        if (pick < 0 || best[k].score > best[pick].score ||
            (best[k].score == best[pick].score &&
             std::make_pair(blocks[k].rows[best[k].i], blocks[k].cols[best[k].j]) <
                 std::make_pair(blocks[pick].rows[best[pick].i], blocks[pick].cols[best[pick].j])))
          pick = static_cast<int>(k);
      }
      double bestRaw = pick < 0 ? 0.0 : best[pick].raw;
      if (!(bestRaw > 1e-12 * std::max(scale, 1e-300))) {
        ok = false;
        out.quality = 0;
        return out;
      }
      out.quality = std::min(out.quality, scale > 0 ? bestRaw / scale : 0.0);
      Block &b = blocks[pick];
      const size_t bi = best[pick].i, bj = best[pick].j, bc = b.cols.size();
      b.rowDone[bi] = b.colDone[bj] = 1;
      chosen.push_back(level.columns[b.cols[bj]]);
      for (size_t i = 0; i < b.rows.size(); ++i) {
        if (b.rowDone[i])
          continue;
        double f = b.m[i * bc + bj] / b.m[bi * bc + bj];
        for (size_t j = 0; j < bc; ++j)
          b.m[i * bc + j] -= f * b.m[bi * bc + j];
      }
      best[pick] = bestOf(b);
    }
    for (int c : chosen) {
      isDummy[c] = 1;
      out.dummies.push_back(c);
    }
    // Next level: the undifferentiated versions of H, and the integrals of the dummies.
    g.clear();
    for (int e : level.equations)
      g.push_back(predecessor[e]);
    z.clear();
    for (int c : chosen)
      z.push_back(flat.vars[c].derivativeOf);
  }
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (!flat.vars[v].isKnown() && flat.vars[v].derivative >= 0 && !isDummy[flat.vars[v].derivative])
      out.states.push_back(static_cast<int>(v));
  std::sort(out.dummies.begin(), out.dummies.end());
  return out;
}

} // namespace

StateSelection selectStates(const FlatSystem &flat, const ReducedSystem &reduced, const std::vector<double> &values,
                            double t, Differentiator &diff, bool &ok, const std::vector<double> *preference) {
  return run(flat, reduced, values, t, diff, nullptr, preference, ok);
}

double selectionQuality(const FlatSystem &flat, const ReducedSystem &reduced, const StateSelection &selection,
                        const std::vector<double> &values, double t, Differentiator &diff) {
  bool ok;
  StateSelection s = run(flat, reduced, values, t, diff, &selection, nullptr, ok);
  return ok ? s.quality : 0.0;
}

SelectionInputs selectionInputs(const FlatSystem &flat, const ReducedSystem &reduced, const StateSelection &selection,
                                const std::vector<double> &values, double t, Differentiator &diff) {
  SelectionInputs in;
  bool ok;
  std::vector<const Expr *> partials;
  run(flat, reduced, values, t, diff, &selection, nullptr, ok, &partials);
  in.known = ok;
  // evaluate() reads values[v] for variables and pre(v), and t: any other leaf with a payload
  // (none today) makes the inputs unknown.
  // A user function's arguments its output does not read (Function::reads) are no inputs.
  std::unordered_set<const Expr *> seen;
  std::vector<const Expr *> stack(partials.begin(), partials.end());
  while (!stack.empty()) {
    const Expr *n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second)
      continue;
    if (n->kind() == ExprKind::Var || n->kind() == ExprKind::Pre)
      in.vars.push_back(n->var());
    else if (n->kind() == ExprKind::Time)
      in.time = true;
    else if (n->numOps() == 0 && !n->isConst() && n->kind() != ExprKind::Initial)
      in.known = false;
    for (size_t i = 0; i < n->numOps(); ++i)
      if (n->kind() != ExprKind::FnCall || n->callee().reads(n->fnOutput(), static_cast<int>(i)))
        stack.push_back(n->op(i));
  }
  std::sort(in.vars.begin(), in.vars.end());
  in.vars.erase(std::unique(in.vars.begin(), in.vars.end()), in.vars.end());
  return in;
}

std::string describeStates(const FlatSystem &flat, const StateSelection &s) {
  constexpr size_t kNamed = 50; // as --stats' consistent initial values: a large model's list is not printed whole
  std::string text;
  for (size_t k = 0; k < s.states.size() && k < kNamed; ++k)
    text += (text.empty() ? "" : ", ") + flat.vars[s.states[k]].name;
  if (s.states.size() > kNamed)
    text += ", ... (" + std::to_string(s.states.size()) + " states)";
  return text.empty() ? "(none)" : text;
}

} // namespace eqc
