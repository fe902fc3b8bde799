// Mattsson–Söderlind state selection by column pivoting on the numeric Jacobians, level by level.
#include "middle/DummyDerivatives.h"

#include <algorithm>
#include <cmath>

namespace eqc {
namespace {

/// How much we would like to make `column` (a derivative) a dummy, i.e. its integral not a state:
/// from stateSelect of the variable that stops being a state, and a preference for keeping
/// declared variables (vx) over the derivatives Pantelides introduced (der(x)).
double dummyWeight(const FlatSystem &flat, int column) {
  int integral = flat.vars[column].derivativeOf;
  const Variable &v = flat.vars[integral];
  double w = 1;
  switch (v.stateSelect) {
  case StateSelect::Always: w = 1e-6; break;
  case StateSelect::Prefer: w = 1e-2; break;
  case StateSelect::Default: w = 1; break;
  case StateSelect::Avoid: w = 1e2; break;
  case StateSelect::Never: w = 1e4; break;
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
                   Differentiator &diff, const StateSelection *fixed, bool &ok) {
  const PantelidesResult &p = reduced.pantelides;
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
    size_t rows = level.equations.size(), cols = level.columns.size();
    std::vector<double> m(rows * cols);
    double scale = 0;
    for (size_t i = 0; i < rows; ++i)
      for (size_t j = 0; j < cols; ++j) {
        const Expr *partial = diff.diff(p.equations[level.equations[i]].residual, level.columns[j]);
        double value = partial->isConst() ? partial->value() : evaluate(partial, values, t);
        m[i * cols + j] = value;
        scale = std::max(scale, std::fabs(value));
      }
    // Gaussian elimination with complete pivoting, weighted by the preference of each column.
    std::vector<char> rowDone(rows, 0), colDone(cols, 0);
    std::vector<int> chosen;
    for (size_t step = 0; step < rows; ++step) {
      double best = 0, bestRaw = 0;
      size_t bi = 0, bj = 0;
      for (size_t i = 0; i < rows; ++i) {
        if (rowDone[i])
          continue;
        for (size_t j = 0; j < cols; ++j) {
          if (colDone[j] || (fixed && !isDummy[level.columns[j]]))
            continue;
          double raw = std::fabs(m[i * cols + j]);
          double score = fixed ? raw : raw * dummyWeight(flat, level.columns[j]);
          if (score > best) {
            best = score;
            bestRaw = raw;
            bi = i;
            bj = j;
          }
        }
      }
      if (!(bestRaw > 1e-12 * std::max(scale, 1e-300))) {
        ok = false;
        out.quality = 0;
        return out;
      }
      out.quality = std::min(out.quality, scale > 0 ? bestRaw / scale : 0.0);
      rowDone[bi] = colDone[bj] = 1;
      chosen.push_back(level.columns[bj]);
      for (size_t i = 0; i < rows; ++i) {
        if (rowDone[i])
          continue;
        double f = m[i * cols + bj] / m[bi * cols + bj];
        for (size_t j = 0; j < cols; ++j)
          m[i * cols + j] -= f * m[bi * cols + j];
      }
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
                            double t, Differentiator &diff, bool &ok) {
  return run(flat, reduced, values, t, diff, nullptr, ok);
}

double selectionQuality(const FlatSystem &flat, const ReducedSystem &reduced, const StateSelection &selection,
                        const std::vector<double> &values, double t, Differentiator &diff) {
  bool ok;
  StateSelection s = run(flat, reduced, values, t, diff, &selection, ok);
  return ok ? s.quality : 0.0;
}

std::string describeStates(const FlatSystem &flat, const StateSelection &s) {
  std::string text;
  for (int v : s.states)
    text += (text.empty() ? "" : ", ") + flat.vars[v].name;
  return text.empty() ? "(none)" : text;
}

} // namespace eqc
