// Σ-method structural analysis: signature matrix, highest-value transversal by sparse shortest
// augmenting paths, and canonical offsets by Pryce's fixed-point iteration.
#include "middle/SigmaMethod.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>

namespace eqc {
namespace {

using SparseRow = std::vector<std::pair<int, int>>;

/// Σ per equation. A Derivative variable counts for the Unknown at the bottom of its derivativeOf
/// chain, with the chain length as its order.
std::vector<SparseRow> signatureMatrix(const FlatSystem &flat, const std::vector<int> &variables) {
  // column[v], order[v]: the base column and derivative order of variable v (column -1: a parameter).
  std::vector<int> column(flat.vars.size(), -1), order(flat.vars.size(), 0);
  for (size_t j = 0; j < variables.size(); ++j)
    column[variables[j]] = static_cast<int>(j);
  for (size_t v = 0; v < flat.vars.size(); ++v) {
    if (flat.vars[v].role != VarRole::Derivative)
      continue;
    int base = static_cast<int>(v), steps = 0;
    while (base >= 0 && flat.vars[base].role == VarRole::Derivative) {
      base = flat.vars[base].derivativeOf;
      ++steps;
    }
    assert(base >= 0 && flat.vars[base].role == VarRole::Unknown && "a derivative chain ends in an Unknown");
    if (base >= 0 && flat.vars[base].role == VarRole::Unknown) {
      column[v] = column[base];
      order[v] = steps;
    }
  }

  std::vector<SparseRow> sigma(flat.equations.size());
  // One traversal buffer for all equations: a fresh collectVars(e) would allocate one slot per node
  // of the whole context per equation, which is quadratic on large models.
  std::vector<uint32_t> seen;
  std::vector<int> vars;
  for (size_t i = 0; i < flat.equations.size(); ++i) {
    vars.clear();
    collectVars(flat.residual(flat.equations[i]), vars, seen, static_cast<uint32_t>(i + 1));
    SparseRow &row = sigma[i];
    for (int v : vars)
      if (column[v] >= 0)
        row.push_back({column[v], order[v]});
    // x and der(x) in one equation are one column with the higher order.
    std::sort(row.begin(), row.end(),
              [](auto a, auto b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
    row.erase(std::unique(row.begin(), row.end(), [](auto a, auto b) { return a.first == b.first; }),
              row.end());
  }
  return sigma;
}

/// An HVT with the dual that proves it optimal: −σ_ij − u_i − v_j ≥ 0, with equality on the
/// transversal. So c_i = u_i − min u, d_j = −v_j − min u are valid (not yet smallest) offsets.
struct Assignment {
  std::vector<int> colOfRow;
  std::vector<int64_t> rowPotential; ///< u
};

/// A transversal maximizing Σσ, as a min-cost assignment with cost −σ: successive shortest
/// augmenting paths, each a Dijkstra over reduced costs −σ_ij − u_i − v_j ≥ 0 (Jonker–Volgenant
/// potentials u, v) that visits only the rows and columns it reaches, so the work per augmentation is
/// local rather than O(n). nullopt when some equation cannot be matched (no finite transversal).
std::optional<Assignment> highestValueTransversal(const std::vector<SparseRow> &sigma) {
  const int n = static_cast<int>(sigma.size());
  constexpr int64_t kInf = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> rowPot(n, 0), colPot(n, 0);
  std::vector<int> colOfRow(n, -1), rowOfCol(n, -1);
  auto reduced = [&](int i, int j, int s) { return -s - rowPot[i] - colPot[j]; };

  // Row reduction makes each row's highest entry tight; matching tight entries greedily settles
  // most equations of simulation models (der(x) = f(...)) without any search.
  for (int i = 0; i < n; ++i) {
    if (sigma[i].empty())
      return std::nullopt;
    int best = sigma[i][0].second;
    for (auto [j, s] : sigma[i])
      best = std::max(best, s);
    rowPot[i] = -best;
    for (auto [j, s] : sigma[i])
      if (reduced(i, j, s) == 0 && rowOfCol[j] < 0) {
        colOfRow[i] = j;
        rowOfCol[j] = i;
        break;
      }
  }

  // Scratch state of one Dijkstra, reset only where it was touched.
  std::vector<int64_t> dist(n, kInf);
  std::vector<int> predRow(n, -1), touched, finalized;
  std::vector<char> done(n, 0);
  using HeapEntry = std::pair<int64_t, int>;
  std::vector<HeapEntry> heap;
  auto relax = [&](int i, int64_t base) {
    for (auto [j, s] : sigma[i]) {
      if (done[j])
        continue;
      int64_t r = reduced(i, j, s);
      assert(r >= 0 && "reduced costs stay non-negative (dual feasibility)");
      if (base + r < dist[j]) {
        if (dist[j] == kInf)
          touched.push_back(j);
        dist[j] = base + r;
        predRow[j] = i;
        heap.push_back({dist[j], j});
        std::push_heap(heap.begin(), heap.end(), std::greater<HeapEntry>());
      }
    }
  };

  for (int start = 0; start < n; ++start) {
    if (colOfRow[start] >= 0)
      continue;
    relax(start, 0);
    int sink = -1;
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<HeapEntry>());
      auto [dj, j] = heap.back();
      heap.pop_back();
      if (done[j] || dj != dist[j])
        continue;
      done[j] = 1;
      if (rowOfCol[j] < 0) {
        sink = j;
        break;
      }
      finalized.push_back(j);
      relax(rowOfCol[j], dj);
    }
    if (sink < 0)
      return std::nullopt; // no augmenting path: no perfect matching covers `start`
    // Shift potentials so the path becomes tight and every reduced cost stays non-negative.
    const int64_t length = dist[sink];
    rowPot[start] += length;
    for (int j : finalized) {
      colPot[j] -= length - dist[j];
      rowPot[rowOfCol[j]] += length - dist[j];
    }
    for (int j = sink;;) {
      int i = predRow[j], previous = colOfRow[i];
      colOfRow[i] = j;
      rowOfCol[j] = i;
      if (i == start)
        break;
      j = previous;
    }
    for (int j : touched) {
      dist[j] = kInf;
      predRow[j] = -1;
      done[j] = 0;
    }
    touched.clear();
    finalized.clear();
    heap.clear();
  }
  return Assignment{std::move(colOfRow), std::move(rowPot)};
}

/// Pryce's fixed-point iteration d_j = max_i(σ_ij + c_i), c_i = d_T(i) − σ_iT(i) from c = 0, run
/// as a worklist of single updates: when c_k grows, each column j of row k may raise d_j and with it
/// c_r of the row r that the transversal gives j. Any fair order of these monotone updates reaches
/// the same least fixed point as the sweep-by-sweep form, but the order decides the cost: a chain of
/// n equations takes n sweeps of the whole matrix, or O(n^2) updates from a stack.
///
/// The order used is by gap ĉ_r − c_r, smallest first, where ĉ = u − min u are the valid offsets
/// that the assignment's dual provides. With respect to ĉ every update has a non-negative slack
/// (d̂_j − ĉ_k − σ_kj), so the gaps are shortest distances and the worklist is Dijkstra's algorithm:
/// each equation is taken once and the whole iteration costs O(E log n).
void canonicalOffsets(const std::vector<SparseRow> &sigma, const Assignment &hvt, std::vector<int> &c,
                      std::vector<int> &d) {
  const int n = static_cast<int>(sigma.size());
  const std::vector<int> &transversal = hvt.colOfRow;
  std::vector<int> rowOfCol(n), sigmaOnT(n);
  int maxSigma = 0;
  for (int i = 0; i < n; ++i) {
    rowOfCol[transversal[i]] = i;
    for (auto [j, s] : sigma[i]) {
      maxSigma = std::max(maxSigma, s);
      if (j == transversal[i])
        sigmaOnT[i] = s;
    }
  }
  const int64_t minPotential = n ? *std::min_element(hvt.rowPotential.begin(), hvt.rowPotential.end()) : 0;
  auto gap = [&](int i) { return hvt.rowPotential[i] - minPotential - c[i]; };

  c.assign(n, 0);
  d.assign(n, 0);
  using HeapEntry = std::pair<int64_t, int>;
  std::vector<HeapEntry> heap;
  for (int i = 0; i < n; ++i)
    heap.push_back({gap(i), i});
  std::make_heap(heap.begin(), heap.end(), std::greater<HeapEntry>());
  std::vector<char> taken(n, 0);

  // Guards: c_i is a longest path over at most n equations, each step adding at most max σ (σ ≥ 0),
  // so a larger value means a positive cycle, i.e. a transversal not of highest value; and with a
  // correct dual no equation is taken twice. Past either bound the iteration stops.
  const int64_t valueBound = static_cast<int64_t>(n) * maxSigma;
  const int64_t takeBound = static_cast<int64_t>(n) * (valueBound + 1);
  int64_t takes = 0;
  bool bounded = true;
  while (!heap.empty() && bounded) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<HeapEntry>());
    auto [key, k] = heap.back();
    heap.pop_back();
    if (key != gap(k))
      continue; // stale: c_k grew after this entry was pushed
    assert(!taken[k] && "an equation's offset grew after it was taken: the assignment dual is wrong");
    taken[k] = 1;
    bounded = ++takes <= takeBound;
    for (auto [j, s] : sigma[k]) {
      if (s + c[k] <= d[j])
        continue;
      d[j] = s + c[k];
      int r = rowOfCol[j];
      if (d[j] - sigmaOnT[r] <= c[r])
        continue;
      c[r] = d[j] - sigmaOnT[r];
      bounded &= c[r] <= valueBound;
      heap.push_back({gap(r), r});
      std::push_heap(heap.begin(), heap.end(), std::greater<HeapEntry>());
    }
  }
  assert(bounded && "offset iteration diverged: the transversal is not of highest value");
}

} // namespace

std::optional<SigmaResult> runSigmaMethod(const FlatSystem &flat) {
  SigmaResult r;
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (flat.vars[v].role == VarRole::Unknown)
      r.variables.push_back(static_cast<int>(v));
  assert(r.variables.size() == flat.equations.size() && "the Σ-method needs a balanced system");
  if (r.variables.size() != flat.equations.size())
    return std::nullopt;
  r.sigma = signatureMatrix(flat, r.variables);
  std::optional<Assignment> hvt = highestValueTransversal(r.sigma);
  if (!hvt)
    return std::nullopt;
  r.transversal = hvt->colOfRow;
  for (size_t i = 0; i < r.sigma.size(); ++i)
    for (auto [j, s] : r.sigma[i])
      if (j == r.transversal[i])
        r.transversalValue += s;
  canonicalOffsets(r.sigma, *hvt, r.c, r.d);
  int sumC = 0, sumD = 0;
  bool algebraic = false;
  for (int ci : r.c) {
    r.index = std::max(r.index, ci);
    sumC += ci;
  }
  for (int dj : r.d) {
    sumD += dj;
    algebraic |= dj == 0;
  }
  r.index += algebraic ? 1 : 0;
  r.dof = sumD - sumC;
  assert(r.dof == r.transversalValue && "on an HVT, Σd − Σc is the transversal's value");
  return r;
}

std::string formatSignatureMatrix(const FlatSystem &flat, const SigmaResult &r) {
  const size_t n = r.variables.size();
  // Cells are right-aligned; a transversal entry carries a trailing `*`, the others a blank.
  std::vector<std::string> header{"Σ"}, rowLabel;
  std::vector<std::vector<std::string>> cells(r.sigma.size(), std::vector<std::string>(n, "- "));
  for (int v : r.variables)
    header.push_back(flat.varName(v));
  for (size_t i = 0; i < r.sigma.size(); ++i) {
    rowLabel.push_back("eq " + std::to_string(i + 1));
    for (auto [j, s] : r.sigma[i])
      cells[i][j] = std::to_string(s) + (r.transversal[i] == j ? "*" : " ");
  }
  // Widths in code points, so the Σ of the corner counts as one column.
  auto width = [](const std::string &s) {
    return static_cast<size_t>(
        std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
  };
  size_t labelWidth = 1;
  for (const std::string &l : rowLabel)
    labelWidth = std::max(labelWidth, width(l));
  std::vector<size_t> colWidth(n);
  for (size_t j = 0; j < n; ++j) {
    colWidth[j] = std::max<size_t>(width(header[j + 1]) + 1, 2);
    for (size_t i = 0; i < r.sigma.size(); ++i)
      colWidth[j] = std::max(colWidth[j], cells[i][j].size());
    colWidth[j] = std::max(colWidth[j], std::to_string(r.d[j]).size() + 1);
  }
  std::ostringstream os;
  std::string line;
  auto pad = [&](const std::string &s, size_t w, bool right) {
    std::string fill(w > width(s) ? w - width(s) : 0, ' ');
    line += right ? fill + s : s + fill;
  };
  auto endLine = [&] {
    line.erase(line.find_last_not_of(' ') + 1);
    os << line << "\n";
    line.clear();
  };
  pad(header[0], labelWidth, false);
  for (size_t j = 0; j < n; ++j) {
    line += "  ";
    pad(header[j + 1] + " ", colWidth[j], true);
  }
  line += "  c";
  endLine();
  for (size_t i = 0; i < r.sigma.size(); ++i) {
    pad(rowLabel[i], labelWidth, false);
    for (size_t j = 0; j < n; ++j) {
      line += "  ";
      pad(cells[i][j], colWidth[j], true);
    }
    line += "  " + std::to_string(r.c[i]);
    endLine();
  }
  pad("d", labelWidth, false);
  for (size_t j = 0; j < n; ++j) {
    line += "  ";
    pad(std::to_string(r.d[j]) + " ", colWidth[j], true);
  }
  endLine();
  os << "value " << r.transversalValue << ", structural index " << r.index << ", " << r.dof
     << " degrees of freedom\n";
  return os.str();
}
} // namespace eqc
