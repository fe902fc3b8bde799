// The seeds' reduction by row operations on the table [E | G] (see RowReduction.h).
#include "middle/RowReduction.h"

#include "middle/TimeDerivative.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <ostream>
#include <random>
#include <unordered_map>

namespace eqc {

std::vector<double> startPoint(const FlatSystem &flat, double t0) {
  std::vector<double> values(flat.vars.size(), 0.0);
  std::vector<char> done(flat.vars.size(), 0);
  // Parameters in dependency order (cycles are rejected by the frontend).
  std::function<void(int)> parameter = [&](int v) {
    if (done[v])
      return;
    done[v] = 1;
    if (const Expr *b = flat.vars[v].binding) {
      for (int dep : collectVars(b))
        if (flat.vars[dep].role == VarRole::Parameter)
          parameter(dep);
      values[v] = evaluate(b, values, t0);
    }
  };
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (flat.vars[v].role == VarRole::Parameter)
      parameter(static_cast<int>(v));
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (flat.vars[v].role != VarRole::Parameter && flat.vars[v].binding) {
      double s = evaluate(flat.vars[v].binding, values, t0);
      values[v] = std::isfinite(s) ? s : 0.0;
    }
  return values;
}

const Expr *rowResidual(ExprContext &ctx, const RowReduction &r, const TableRow &row) {
  std::vector<const Expr *> terms{ctx.neg(row.rhs)};
  for (auto [col, e] : row.entries)
    terms.push_back(ctx.mul(e, ctx.var(r.derivative[col])));
  return ctx.add(std::move(terms));
}

const Expr *solvedRow(ExprContext &ctx, const RowReduction &r, const TableRow &row) {
  std::vector<const Expr *> terms{row.rhs};
  const Expr *pivot = ctx.one();
  for (auto [col, e] : row.entries) {
    if (col == row.pivot)
      pivot = e;
    else
      terms.push_back(ctx.neg(ctx.mul(e, ctx.var(r.derivative[col]))));
  }
  return ctx.div(ctx.add(std::move(terms)), pivot);
}

void printRowReduction(std::ostream &os, const FlatSystem &flat, const RowReduction &r) {
  VarNamer namer = [&flat](int v) { return flat.varName(v); };
  ExprContext &ctx = *flat.ctx;
  os << "// the seeds' reduction by rows: " << r.columns.size() << " states, " << r.constraints.size()
     << " invariants\n";
  for (const TableRow &row : r.rows)
    os << "  " << row.label << ": " << flat.varName(r.derivative[row.pivot]) << " = "
       << toString(solvedRow(ctx, r, row), namer) << "\n";
  for (auto &[v, value] : r.aliases)
    os << "  alias: " << flat.varName(v) << " = " << toString(value, namer) << "\n";
  for (size_t k = 0; k < r.outputs.size(); ++k)
    os << "  " << r.outputLabels[k] << ": 0 = " << toString(r.outputs[k].second, namer) << "  // computes "
       << flat.varName(r.outputs[k].first) << "\n";
  for (size_t k = 0; k < r.constraints.size(); ++k)
    os << "  [alg" << k + 1 << "] 0 = " << toString(r.constraints[k].expr, namer) << "  // from "
       << r.constraints[k].origin << "\n";
}

namespace {

/// `e` as ±variable: the sign and the variable, or 0 when it is something else.
double signedVar(const Expr *e, int &var) {
  if (e->kind() == ExprKind::Var) {
    var = e->var();
    return 1;
  }
  if (e->kind() == ExprKind::Mul && e->numOps() == 2 && e->op(0)->isConst() &&
      std::fabs(e->op(0)->value()) == 1 && e->op(1)->kind() == ExprKind::Var) {
    var = e->op(1)->var();
    return e->op(0)->value();
  }
  return 0;
}

class RowReducer {
public:
  RowReducer(FlatSystem &flat, const std::vector<double> &point, double t0, bool recordSteps,
             Diagnostics &diags, bool detectOnly = false)
      : flat_(flat), ctx_(*flat.ctx), diff_(*flat.ctx), point_(point), t0_(t0), recordSteps_(recordSteps),
        detectOnly_(detectOnly), diags_(diags) {}

  /// The rows with derivatives that elimination empties, each as a combination of equations: the
  /// structural-analysis conversion (nothing is differentiated, no variable is created).
  std::optional<std::vector<StructureConversion>> detect() {
    orders();
    eliminated_.assign(flat_.vars.size(), 0);
    makeColumns(/*create=*/false);
    for (const Equation &eq : flat_.equations) {
      std::optional<TableRow> row = decompose(flat_.residual(eq), flat_.equationLabel(eq), eq.loc);
      if (!row)
        return std::vector<StructureConversion>{}; // not linear in its derivatives: nothing to say
      table_.push_back(std::move(*row));
      level_.push_back(-1);
    }
    combinations_.assign(table_.size(), {});
    if (!reduce())
      return std::nullopt;
    return std::move(conversions_);
  }

  std::optional<RowReduction> run() {
    orders();
    std::vector<const Expr *> residuals;
    eliminateAliases(residuals);
    findOutputs(residuals);
    makeColumns();
    point_.resize(flat_.vars.size(), 0.0); // the derivatives of algebraic unknowns, created above
    for (size_t e = 0; e < residuals.size(); ++e) {
      if (!residuals[e])
        continue;
      const Equation &eq = flat_.equations[e];
      std::optional<TableRow> row = decompose(residuals[e], flat_.equationLabel(eq), eq.loc);
      if (!row) {
        r_.notApplicable =
            flat_.equationLabel(eq) + " is not linear in the highest derivatives of its unknowns";
        return r_;
      }
      table_.push_back(std::move(*row));
      level_.push_back(-1);
    }
    if (table_.size() != r_.columns.size()) {
      r_.notApplicable =
          "the table has " + plural(table_.size(), "row") + " for " + plural(r_.columns.size(), "column");
      return r_;
    }
    r_.initial = table_;
    if (!reduce())
      return std::nullopt;
    r_.rows = std::move(table_);
    conditions();
    return std::move(r_);
  }

private:
  /// Per base unknown: the highest derivative order in the model's equations.
  void orders() { order_ = flat_.sourceOrders(); }

  bool algebraic(int v) const {
    return flat_.vars[v].role == VarRole::Unknown && order_[v] == 0 && !eliminated_[v];
  }

  /// `a = ±b` and `a = ±der(b)` with `a` algebraic: `a` is replaced by ±b everywhere.
  void eliminateAliases(std::vector<const Expr *> &residuals) {
    eliminated_.assign(flat_.vars.size(), 0);
    std::unordered_map<int, const Expr *> map;
    for (const Equation &eq : flat_.equations) {
      const Expr *r = flat_.residual(eq);
      if (!map.empty())
        r = substitute(ctx_, r, map);
      int a = -1, b = -1;
      double sa = 0, sb = 0;
      if (r->kind() == ExprKind::Add && r->numOps() == 2) {
        sa = signedVar(r->op(0), a);
        sb = signedVar(r->op(1), b);
      }
      if (sa != 0 && sb != 0 && a != b && !flat_.vars[a].isKnown() && !flat_.vars[b].isKnown()) {
        if (!algebraic(a) || (algebraic(b) && flat_.vars[a].hasStart && !flat_.vars[b].hasStart)) {
          std::swap(a, b);
          std::swap(sa, sb);
        }
        if (algebraic(a)) {
          const Expr *value = sa == sb ? ctx_.neg(ctx_.var(b)) : ctx_.var(b);
          for (auto &[v, target] : r_.aliases)
            target = substitute(ctx_, target, {{a, value}});
          for (auto &[v, target] : map)
            target = substitute(ctx_, target, {{a, value}});
          map[a] = value;
          eliminated_[a] = 1;
          r_.aliases.emplace_back(a, value);
          residuals.push_back(nullptr);
          continue;
        }
      }
      residuals.push_back(r);
    }
    // Equations before an alias's own still name it.
    if (!map.empty())
      for (const Expr *&r : residuals)
        if (r)
          r = substitute(ctx_, r, map);
  }

  /// An algebraic unknown that occurs in one equation only, free of derivatives and linear in it
  /// with a coefficient of parameters, is computed from it after the ODE (repeated to a fixed point).
  void findOutputs(std::vector<const Expr *> &residuals) {
    std::vector<std::vector<int>> vars(residuals.size());
    std::vector<int> count(flat_.vars.size(), 0);
    for (size_t e = 0; e < residuals.size(); ++e)
      if (residuals[e]) {
        vars[e] = collectVars(residuals[e]);
        for (int v : vars[e])
          ++count[v];
      }
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t e = 0; e < residuals.size(); ++e) {
        if (!residuals[e] || std::any_of(vars[e].begin(), vars[e].end(),
                                         [&](int v) { return flat_.vars[v].role == VarRole::Derivative; }))
          continue;
        for (int v : vars[e]) {
          if (!algebraic(v) || count[v] != 1 || !isLinearIn(residuals[e], v))
            continue;
          const Expr *c = diff_.diff(residuals[e], v);
          std::vector<int> cv = collectVars(c);
          if (std::any_of(cv.begin(), cv.end(), [&](int u) { return !flat_.vars[u].isKnown(); }) ||
              evaluate(c, point_, t0_) == 0)
            continue;
          const Equation &eq = flat_.equations[e];
          r_.outputs.emplace_back(v, residuals[e]);
          r_.outputLabels.push_back(flat_.equationLabel(eq));
          r_.outputLocs.push_back(eq.loc);
          eliminated_[v] = 1;
          for (int u : vars[e])
            --count[u];
          residuals[e] = nullptr;
          changed = true;
          break;
        }
      }
    }
  }

  /// z: every unknown left, with the derivatives below the highest one of higher-order unknowns.
  void makeColumns(bool create = true) {
    size_t n = flat_.vars.size();
    for (size_t v = 0; v < n; ++v) {
      if (flat_.vars[v].role != VarRole::Unknown || eliminated_[v])
        continue;
      int member = static_cast<int>(v);
      for (int k = 0; k < std::max(order_[v], 1); ++k) {
        r_.columns.push_back(member);
        // der(x) of an algebraic x is created here (without `create`, such a column has none).
        member = create || order_[v] > 0 ? flat_.derivativeVar(member) : -1;
        r_.derivative.push_back(member);
      }
    }
    columnOf_.assign(flat_.vars.size(), -1);
    topColumn_.assign(flat_.vars.size(), -1);
    for (size_t j = 0; j < r_.columns.size(); ++j)
      columnOf_[r_.columns[j]] = static_cast<int>(j);
    for (size_t j = 0; j < r_.columns.size(); ++j)
      if (r_.derivative[j] >= 0 && columnOf_[r_.derivative[j]] < 0)
        topColumn_[r_.derivative[j]] = static_cast<int>(j);
    pivotRow_.assign(r_.columns.size(), -1);
    // A column whose derivative is a column itself (x of der(der(x))) is determined by x' = der(x).
    for (size_t j = 0; j < r_.columns.size(); ++j)
      if (r_.derivative[j] >= 0 && columnOf_[r_.derivative[j]] >= 0)
        pivotRow_[j] = kIdentity;
  }

  /// R = Σ E_j z'_j − G, linear in the highest derivatives z' with coefficients free of them.
  std::optional<TableRow> decompose(const Expr *residual, std::string label, SourceRange loc) {
    TableRow row;
    row.label = std::move(label);
    row.loc = loc;
    std::unordered_map<int, const Expr *> zero;
    for (int v : collectVars(residual)) {
      if (topColumn_[v] < 0)
        continue;
      if (!isLinearIn(residual, v))
        return std::nullopt;
      const Expr *e = diff_.diff(residual, v);
      for (int u : collectVars(e))
        if (topColumn_[u] >= 0)
          return std::nullopt;
      if (!e->isConst(0))
        row.entries.emplace_back(topColumn_[v], e);
      zero.emplace(v, ctx_.zero());
    }
    std::sort(row.entries.begin(), row.entries.end());
    row.rhs = ctx_.neg(zero.empty() ? residual : substitute(ctx_, residual, zero));
    return row;
  }

  const Expr *entry(const TableRow &row, int col) const {
    for (auto [c, e] : row.entries)
      if (c == col)
        return e;
    return nullptr;
  }

  /// a / b with b's constant coefficient divided out first, so that C1/(-C1) is -1.
  const Expr *quotient(const Expr *a, const Expr *b) {
    if (b->kind() == ExprKind::Mul && b->op(0)->isConst() && b->op(0)->value() != 0) {
      std::vector<const Expr *> rest(b->ops().begin() + 1, b->ops().end());
      return ctx_.mul(ctx_.constant(1 / b->op(0)->value()), ctx_.div(a, ctx_.mul(std::move(rest))));
    }
    return ctx_.div(a, b);
  }

  /// row i -= m · row p, where m cancels row i's entry in p's pivot column.
  void eliminate(int i, int p) {
    TableRow &row = table_[i];
    const TableRow &prow = table_[p];
    const Expr *m = quotient(entry(row, prow.pivot), entry(prow, prow.pivot));
    std::vector<std::pair<int, const Expr *>> merged;
    size_t a = 0, b = 0;
    while (a < row.entries.size() || b < prow.entries.size()) {
      int ca = a < row.entries.size() ? row.entries[a].first : INT32_MAX;
      int cb = b < prow.entries.size() ? prow.entries[b].first : INT32_MAX;
      const Expr *e;
      int c = std::min(ca, cb);
      if (c == prow.pivot) {
        e = ctx_.zero(); // exactly, whatever the simplifier makes of E_ij − (E_ij/E_pj)·E_pj
      } else if (ca == cb) {
        e = ctx_.sub(row.entries[a].second, ctx_.mul(m, prow.entries[b].second));
      } else if (ca < cb) {
        e = row.entries[a].second;
      } else {
        e = ctx_.neg(ctx_.mul(m, prow.entries[b].second));
      }
      a += ca == c;
      b += cb == c;
      if (!e->isConst(0))
        merged.emplace_back(c, e);
    }
    row.entries = std::move(merged);
    row.rhs = ctx_.sub(row.rhs, ctx_.mul(m, prow.rhs));
    if (detectOnly_) // the equations combined: row i − Σ m · (row p's combination)
      combine(i, p, m);
    step(RowStep::Kind::Eliminate, i, p, -1, -1, m);
  }

  void step(RowStep::Kind kind, int row, int other, int column, int constraint, const Expr *factor) {
    if (!recordSteps_)
      return;
    RowStep s{kind, row, other, column, constraint, factor, table_[row]};
    r_.steps.push_back(std::move(s));
  }

  double value(const Expr *e, const std::vector<double> &at) const { return evaluate(e, at, t0_); }

  /// The pivot column of row i among its entries (all in columns without a pivot): constant and
  /// parameter entries first, then the largest at the start point; -1 when every entry is zero at
  /// the start point and at two random points near it (an entry the simplifier left as a zero).
  int choosePivot(const TableRow &row) {
    auto known = [&](const Expr *e) {
      for (int v : collectVars(e))
        if (!flat_.vars[v].isKnown())
          return false;
      return true;
    };
    auto best = [&](const std::vector<double> &at) {
      int col = -1;
      std::pair<bool, double> score{false, 0.0}; // time-invariant entries first, then the largest
      for (auto [c, e] : row.entries) {
        double v = std::fabs(value(e, at));
        if (!std::isfinite(v) || v == 0)
          continue;
        std::pair<bool, double> s{known(e), v};
        if (col < 0 || s > score) {
          col = c;
          score = s;
        }
      }
      return col;
    };
    int col = best(point_);
    if (col >= 0)
      return col;
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int trial = 0; trial < 2 && col < 0; ++trial) {
      std::vector<double> at = point_;
      for (size_t v = 0; v < at.size(); ++v)
        if (!flat_.vars[v].isKnown())
          at[v] += 0.37 * u(rng) * (1 + std::fabs(at[v]));
      col = best(at);
    }
    return col;
  }

  bool reduce() {
    std::deque<int> work;
    for (size_t i = 0; i < table_.size(); ++i)
      if (!detectOnly_ || !table_[i].entries.empty())
        work.push_back(static_cast<int>(i));
    std::vector<int> rank(table_.size(), -1);
    int pivots = 0, differentiations = 0;
    size_t n = table_.size();
    const int limit = static_cast<int>(std::min<size_t>(n * (n + 1) + 16, 1u << 20));
    while (!work.empty()) {
      int i = work.front();
      work.pop_front();
      // Forward elimination against the pivot rows, earliest pivot first.
      for (;;) {
        int p = -1;
        for (auto [c, e] : table_[i].entries)
          if (pivotRow_[c] >= 0 && pivotRow_[c] != kIdentity && (p < 0 || rank[pivotRow_[c]] < rank[p]))
            p = pivotRow_[c];
        if (p < 0)
          break;
        eliminate(i, p);
      }
      if (!table_[i].entries.empty()) {
        int col = choosePivot(table_[i]);
        if (col >= 0) {
          table_[i].pivot = col;
          pivotRow_[col] = i;
          rank[i] = pivots++;
          step(RowStep::Kind::Pivot, i, -1, col, -1, entry(table_[i], col));
          continue;
        }
        table_[i].entries.clear(); // zero wherever evaluated: the simplifier missed a cancellation
      }
      if (detectOnly_) {
        if (!convert(i))
          return false;
        continue;
      }
      if (!constraint(i))
        return false;
      if (++differentiations > limit) {
        r_.notApplicable = "no ODE after " + std::to_string(limit) + " differentiations";
        return true;
      }
      work.push_front(i);
    }
    return true;
  }

  void combine(int i, int p, const Expr *m) {
    std::vector<std::pair<int, const Expr *>> &c = combinations_[i];
    if (c.empty())
      c.emplace_back(i, ctx_.one());
    std::vector<std::pair<int, const Expr *>> other = combinations_[p];
    if (other.empty())
      other.emplace_back(p, ctx_.one());
    for (auto [e, f] : other) {
      const Expr *term = ctx_.neg(ctx_.mul(m, f));
      auto it = std::find_if(c.begin(), c.end(), [e = e](auto &x) { return x.first == e; });
      if (it == c.end())
        c.emplace_back(e, term);
      else
        it->second = ctx_.add(it->second, term);
    }
  }

  /// Row i, which had derivatives, reads 0 = G after elimination: its equation is replaced by that
  /// combination of equations (the linear-combination method).
  bool convert(int i) {
    const TableRow &row = table_[i];
    bool unknowns = false;
    for (int v : collectVars(row.rhs))
      unknowns = unknowns || !flat_.vars[v].isKnown();
    VarNamer namer = [this](int v) { return flat_.varName(v); };
    std::string combination;
    for (auto [e, f] : combinations_[i]) {
      if (f->isConst(0))
        continue;
      combination += (combination.empty() ? "" : " + ") +
                     (f->isConst(1) ? "" : "(" + toString(f, namer) + ")*") +
                     flat_.equationLabel(flat_.equations[e]);
    }
    if (!unknowns) {
      diags_.error(row.loc, row.label + " is a combination of other equations that leaves no unknown: " +
                                combination + " gives 0 = " + toString(row.rhs, namer) +
                                " (the matrix of the highest derivatives is singular with this null vector)");
      return false;
    }
    conversions_.push_back({i, row.rhs, combination});
    return true;
  }

  /// Row i reads 0 = G: a hidden constraint, replaced by its time derivative.
  bool constraint(int i) {
    TableRow &row = table_[i];
    const Expr *g = row.rhs;
    bool unknowns = false;
    for (int v : collectVars(g))
      unknowns = unknowns || !flat_.vars[v].isKnown();
    if (!unknowns) {
      bool zero = g->isConst(0);
      diags_.error(row.loc,
                   row.label + (zero ? " depends on the other equations: row operations reduce it to 0 = 0"
                                     : " contradicts the other equations: row operations reduce it to 0 = " +
                                           toString(g, [this](int v) { return flat_.varName(v); })));
      return false;
    }
    FoundConstraint k{g, row.label, row.loc, 0, 0};
    if (level_[i] >= 0) {
      k.chain = row.chain;
      k.level = level_[i] + 1;
    } else {
      k.chain = r_.chains++;
    }
    int id = static_cast<int>(r_.constraints.size());
    r_.constraints.push_back(k);
    step(RowStep::Kind::Constraint, i, -1, -1, id, nullptr);
    std::string label = "d/dt [alg" + std::to_string(id + 1) + "]";
    std::optional<TableRow> d = decompose(ctx_.neg(timeDerivative(flat_, diff_, g)), label, row.loc);
    // The time derivative of an expression free of z' is linear in z' (chain rule). Written with
    // a positive leading coefficient, as the seeds do.
    const Expr *lead = d->entries.empty() ? nullptr : d->entries.front().second;
    if (lead && ((lead->isConst() && lead->value() < 0) ||
                 (lead->kind() == ExprKind::Mul && lead->op(0)->isConst() && lead->op(0)->value() < 0))) {
      for (auto &[col, e] : d->entries)
        e = ctx_.neg(e);
      d->rhs = ctx_.neg(d->rhs);
      d->sign = 1;
    }
    d->chain = k.chain;
    table_[i] = std::move(*d);
    level_[i] = k.level;
    step(RowStep::Kind::Differentiate, i, -1, -1, id, nullptr);
    return true;
  }

  /// The factors of a product; of a sum, the factors every term shares times the rest
  /// (y*alpha - y = y*(alpha - 1)).
  std::vector<const Expr *> factorize(const Expr *e) {
    auto factorsOf = [](const Expr *t) {
      std::vector<const Expr *> f = t->kind() == ExprKind::Mul ? t->ops() : std::vector<const Expr *>{t};
      f.erase(std::remove_if(f.begin(), f.end(), [](const Expr *x) { return x->isConst(); }), f.end());
      return f;
    };
    if (e->kind() != ExprKind::Add)
      return factorsOf(e);
    std::vector<const Expr *> common = factorsOf(e->op(0));
    for (const Expr *t : e->ops()) {
      std::vector<const Expr *> f = factorsOf(t);
      common.erase(std::remove_if(common.begin(), common.end(),
                                  [&](const Expr *x) { return std::find(f.begin(), f.end(), x) == f.end(); }),
                   common.end());
    }
    if (common.empty())
      return {e};
    const Expr *product = ctx_.mul(common);
    std::vector<const Expr *> rest;
    for (const Expr *t : e->ops())
      rest.push_back(ctx_.div(t, product));
    common.push_back(ctx_.add(std::move(rest)));
    return common;
  }

  /// Pivots that depend on the unknowns, time or parameters: where the ODE is singular.
  void conditions() {
    for (size_t i = 0; i < r_.rows.size(); ++i) {
      const Expr *p = entry(r_.rows[i], r_.rows[i].pivot);
      if (p->isConst())
        continue;
      PivotCondition c{static_cast<int>(i), p, {}, value(p, point_)};
      std::vector<const Expr *> factors = factorize(p);
      for (const Expr *f : factors) {
        if (f->isConst())
          continue;
        if (f->kind() == ExprKind::Pow && f->op(1)->isConst()) {
          if (f->op(1)->value() > 0)
            c.factors.push_back(f->op(0));
          continue; // a negative power is a pole, never zero
        }
        c.factors.push_back(f);
      }
      if (!c.factors.empty())
        r_.pivotConditions.push_back(std::move(c));
    }
  }

  static constexpr int kIdentity = INT32_MAX; ///< pivotRow_ of a column pivoted by x' = der(x)

  FlatSystem &flat_;
  ExprContext &ctx_;
  Differentiator diff_;
  std::vector<double> point_;
  double t0_;
  bool recordSteps_;
  bool detectOnly_;
  std::vector<std::vector<std::pair<int, const Expr *>>> combinations_; ///< detect: row → (equation, factor)
  std::vector<StructureConversion> conversions_;
  Diagnostics &diags_;
  RowReduction r_;
  std::vector<int> order_;
  std::vector<char> eliminated_;
  std::vector<int> columnOf_, topColumn_, pivotRow_;
  std::vector<TableRow> table_;
  std::vector<int>
      level_; ///< per table row: the level of the constraint it is the derivative of, -1 for none
};

} // namespace

std::optional<RowReduction> reduceByRows(FlatSystem &flat, const std::vector<double> &point, double t0,
                                         bool recordSteps, Diagnostics &diags) {
  return RowReducer(flat, point, t0, recordSteps, diags).run();
}

std::optional<std::vector<StructureConversion>> convertForStructure(FlatSystem &flat, double t0,
                                                                    Diagnostics &diags) {
  // Only a row with several derivatives, or two rows with the same one, can make the matrix of
  // the highest derivatives singular where structure says it is not.
  std::vector<char> seen(flat.vars.size(), 0);
  bool suspicious = false;
  for (const Equation &eq : flat.equations) {
    int count = 0;
    for (int v : collectVars(flat.residual(eq)))
      if (flat.vars[v].role == VarRole::Derivative) {
        suspicious = suspicious || seen[v] || ++count > 1;
        seen[v] = 1;
      }
    if (suspicious)
      break;
  }
  if (!suspicious)
    return std::vector<StructureConversion>{};
  std::optional<std::vector<StructureConversion>> found =
      RowReducer(flat, startPoint(flat, t0), t0, false, diags, true).detect();
  if (!found)
    return std::nullopt;
  for (const StructureConversion &c : *found) {
    Equation &eq = flat.equations[c.equation];
    eq.lhs = flat.ctx->zero();
    eq.rhs = c.residual;
  }
  return found;
}

} // namespace eqc
