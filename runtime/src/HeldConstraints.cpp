// Projection onto a model table's constraints moving a subset of the states (see HeldConstraints.h).
#include "HeldConstraints.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace eqc::rt {

HeldConstraints::HeldConstraints(int n, int rows, eqc_model_inv_fn g, eqc_model_invjac_fn jacobian,
                                 const eqc_sparsity *pattern, const double *p, const double *x,
                                 std::vector<int> movable)
    : n_(n), rows_(rows), g_(g), jacobian_(jacobian), fullPattern_(pattern), p_(p), movable_(std::move(movable)),
      full_(x, x + n),
      fullJacobian_(pattern ? static_cast<size_t>(pattern->nnz) : static_cast<size_t>(rows) * static_cast<size_t>(n)) {}

template <typename F> void HeldConstraints::column(int j, F &&f) const {
  if (fullPattern_) {
    for (int k = fullPattern_->col_start[j]; k < fullPattern_->col_start[j + 1]; ++k)
      f(fullPattern_->row_index[k], static_cast<size_t>(k));
  } else {
    for (int i = 0; i < rows_; ++i)
      f(i, static_cast<size_t>(i) * static_cast<size_t>(n_) + static_cast<size_t>(j));
  }
}

int HeldConstraints::keepReached(double t, const double *x) {
  if (int code = jacobian_(t, x, p_, fullJacobian_.data()))
    return code;
  std::vector<char> reached(static_cast<size_t>(rows_), 0);
  for (int j : movable_)
    column(j, [&](int i, size_t k) { reached[static_cast<size_t>(i)] |= fullJacobian_[k] != 0; });
  subset_.clear();
  for (int i = 0; i < rows_; ++i)
    if (reached[static_cast<size_t>(i)])
      subset_.push_back(i);
  reachedNone_ = subset_.empty();
  if (static_cast<int>(subset_.size()) == rows_)
    subset_.clear();
  return 0;
}

void HeldConstraints::buildPattern() {
  std::vector<int> newRow(static_cast<size_t>(rows_), subset_.empty() ? 0 : -1);
  if (subset_.empty())
    for (int i = 0; i < rows_; ++i)
      newRow[static_cast<size_t>(i)] = i;
  for (size_t r = 0; r < subset_.size(); ++r)
    newRow[static_cast<size_t>(subset_[r])] = static_cast<int>(r);
  colStart_.assign(1, 0);
  rowIndex_.clear();
  source_.clear();
  for (int j : movable_) {
    column(j, [&](int i, size_t k) {
      if (newRow[static_cast<size_t>(i)] >= 0) {
        rowIndex_.push_back(newRow[static_cast<size_t>(i)]);
        source_.push_back(static_cast<int>(k));
      }
    });
    colStart_.push_back(static_cast<int>(rowIndex_.size()));
  }
  pattern_ = {static_cast<int>(rowIndex_.size()), colStart_.data(), rowIndex_.data()};
}

int HeldConstraints::evaluate(void *user, double t, const double *xs, double *g, double *G) {
  auto *h = static_cast<HeldConstraints *>(user);
  for (size_t c = 0; c < h->movable_.size(); ++c)
    h->full_[static_cast<size_t>(h->movable_[c])] = xs[c];
  const bool subset = !h->subset_.empty();
  if (subset)
    h->fullG_.resize(static_cast<size_t>(h->rows_));
  if (int code = h->g_(t, h->full_.data(), h->p_, subset ? h->fullG_.data() : g))
    return code;
  for (size_t r = 0; r < h->subset_.size(); ++r)
    g[r] = h->fullG_[static_cast<size_t>(h->subset_[r])];
  if (!G)
    return 0;
  if (int code = h->jacobian_(t, h->full_.data(), h->p_, h->fullJacobian_.data()))
    return code;
  for (size_t k = 0; k < h->source_.size(); ++k)
    G[k] = h->fullJacobian_[static_cast<size_t>(h->source_[k])];
  return 0;
}

namespace {

/// A constraint block: the rows and the movable columns matched to them, and where the solve
/// reads the model's values.
struct BlockSolve {
  HeldConstraints *self;
  double t;
  std::vector<double> *moving;
  const std::vector<int> *rows, *cols; ///< block rows (of the kept constraints), matched columns
  const std::vector<std::vector<std::pair<int, int>>> *entries; ///< per row: (column, place in G)
  std::vector<double> g, G;
  std::vector<int> colInBlock; ///< per movable column: its position in the block, or -1
  int (*evaluate)(void *, double, const double *, double *, double *);
};

void blockResidual(void *env, double *res, double *jac) {
  auto &b = *static_cast<BlockSolve *>(env);
  if (b.evaluate(b.self, b.t, b.moving->data(), b.g.data(), jac ? b.G.data() : nullptr) != 0) {
    for (size_t i = 0; i < b.rows->size(); ++i)
      res[i] = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const size_t n = b.rows->size();
  for (size_t i = 0; i < n; ++i)
    res[i] = b.g[static_cast<size_t>((*b.rows)[i])];
  if (!jac)
    return;
  std::fill(jac, jac + n * n, 0.0);
  for (size_t i = 0; i < n; ++i)
    for (auto [col, place] : (*b.entries)[static_cast<size_t>((*b.rows)[i])])
      if (int j = b.colInBlock[static_cast<size_t>(col)]; j >= 0)
        jac[i * n + static_cast<size_t>(j)] = b.G[static_cast<size_t>(place)];
}

/// Per constraint row, its (movable column, place in the projected Jacobian) entries.
using Entries = std::vector<std::vector<std::pair<int, int>>>;

/// Matches every row to a column (augmenting paths, iterative); false when some row cannot be.
bool matchEveryRow(const Entries &entries, int cols, std::vector<int> &rowToCol, std::vector<int> &colToRow) {
  const int rows = static_cast<int>(entries.size());
  rowToCol.assign(static_cast<size_t>(rows), -1);
  colToRow.assign(static_cast<size_t>(cols), -1);
  std::vector<int> seen(static_cast<size_t>(cols), -1);
  for (int r = 0; r < rows; ++r) {
    std::vector<std::pair<int, size_t>> stack{{r, 0}};
    bool found = false;
    while (!stack.empty() && !found) {
      auto &[row, next] = stack.back();
      const auto &adj = entries[static_cast<size_t>(row)];
      if (next == adj.size()) {
        stack.pop_back();
        continue;
      }
      const int c = adj[next++].first;
      if (seen[static_cast<size_t>(c)] == r)
        continue;
      seen[static_cast<size_t>(c)] = r;
      if (colToRow[static_cast<size_t>(c)] < 0) {
        for (int i = static_cast<int>(stack.size()) - 1, col = c; i >= 0; --i) { // flip the path
          const int rr = stack[static_cast<size_t>(i)].first, previous = rowToCol[static_cast<size_t>(rr)];
          rowToCol[static_cast<size_t>(rr)] = col;
          colToRow[static_cast<size_t>(col)] = rr;
          col = previous;
        }
        found = true;
      } else {
        stack.push_back({colToRow[static_cast<size_t>(c)], 0});
      }
    }
    if (!found)
      return false;
  }
  return true;
}

/// The strong components of "row r reads the column matched to row s", dependencies first
/// (Tarjan, iterative: a component is complete when its root finishes).
std::vector<std::vector<int>> orderedBlocks(const Entries &entries, const std::vector<int> &colToRow) {
  const int rows = static_cast<int>(entries.size());
  std::vector<int> index(static_cast<size_t>(rows), -1), low(static_cast<size_t>(rows), 0);
  std::vector<char> onStack(static_cast<size_t>(rows), 0);
  std::vector<int> tarjan;
  std::vector<std::vector<int>> blocks;
  int counter = 0;
  for (int root = 0; root < rows; ++root) {
    if (index[static_cast<size_t>(root)] >= 0)
      continue;
    std::vector<std::pair<int, size_t>> work{{root, 0}};
    index[static_cast<size_t>(root)] = low[static_cast<size_t>(root)] = counter++;
    tarjan.push_back(root);
    onStack[static_cast<size_t>(root)] = 1;
    while (!work.empty()) {
      auto &[v, next] = work.back();
      const auto &adj = entries[static_cast<size_t>(v)];
      if (next < adj.size()) {
        const int w = colToRow[static_cast<size_t>(adj[next++].first)];
        if (w < 0 || w == v)
          continue;
        if (index[static_cast<size_t>(w)] < 0) {
          index[static_cast<size_t>(w)] = low[static_cast<size_t>(w)] = counter++;
          tarjan.push_back(w);
          onStack[static_cast<size_t>(w)] = 1;
          work.push_back({w, 0});
        } else if (onStack[static_cast<size_t>(w)]) {
          low[static_cast<size_t>(v)] = std::min(low[static_cast<size_t>(v)], index[static_cast<size_t>(w)]);
        }
        continue;
      }
      const int finished = v;
      work.pop_back();
      if (!work.empty())
        low[static_cast<size_t>(work.back().first)] =
            std::min(low[static_cast<size_t>(work.back().first)], low[static_cast<size_t>(finished)]);
      if (low[static_cast<size_t>(finished)] == index[static_cast<size_t>(finished)]) {
        std::vector<int> block;
        int w;
        do {
          w = tarjan.back();
          tarjan.pop_back();
          onStack[static_cast<size_t>(w)] = 0;
          block.push_back(w);
        } while (w != finished);
        blocks.push_back(std::move(block));
      }
    }
  }
  return blocks;
}

} // namespace

int HeldConstraints::solveInOrder(double t, std::vector<double> &moving, double tol) {
  const int rows = subset_.empty() ? rows_ : static_cast<int>(subset_.size());
  const int cols = static_cast<int>(movable_.size());
  if (rows == 0 || rows > cols)
    return EQC_ERR_SINGULAR;
  Entries entries(static_cast<size_t>(rows));
  for (int c = 0; c < cols; ++c)
    for (int k = colStart_[static_cast<size_t>(c)]; k < colStart_[static_cast<size_t>(c) + 1]; ++k)
      entries[static_cast<size_t>(rowIndex_[static_cast<size_t>(k)])].emplace_back(c, k);
  std::vector<int> rowToCol, colToRow;
  if (!matchEveryRow(entries, cols, rowToCol, colToRow))
    return EQC_ERR_SINGULAR;
  const std::vector<std::vector<int>> blocks = orderedBlocks(entries, colToRow);
  BlockSolve b;
  b.self = this;
  b.t = t;
  b.moving = &moving;
  b.entries = &entries;
  b.g.resize(static_cast<size_t>(rows));
  b.G.resize(rowIndex_.size());
  b.colInBlock.assign(static_cast<size_t>(cols), -1);
  b.evaluate = evaluate;
  for (const std::vector<int> &block : blocks) {
    std::vector<int> blockCols;
    std::vector<double *> unknowns;
    for (int r : block) {
      const int c = rowToCol[static_cast<size_t>(r)];
      b.colInBlock[static_cast<size_t>(c)] = static_cast<int>(blockCols.size());
      blockCols.push_back(c);
      unknowns.push_back(&moving[static_cast<size_t>(c)]);
    }
    b.rows = &block;
    b.cols = &blockCols;
    const int status =
        eqc_solve_block(static_cast<int>(block.size()), unknowns.data(), blockResidual, &b, tol, 100);
    for (int c : blockCols)
      b.colInBlock[static_cast<size_t>(c)] = -1;
    if (status != EQC_OK)
      return status;
  }
  return EQC_OK;
}

int HeldConstraints::project(eqc_projector *projector, double t, double *xs, double tol, int maxIter,
                             double &residual, bool keepLastIterate) {
  buildPattern();
  std::vector<double> moving;
  moving.reserve(movable_.size());
  for (int i : movable_)
    moving.push_back(xs[i]);
  const int rows = subset_.empty() ? rows_ : static_cast<int>(subset_.size());
  const std::vector<double> start = moving;
  int status = eqc_projector_project_sparse(projector, static_cast<int>(moving.size()), rows, &pattern_, t,
                                            moving.data(), evaluate, this, tol, maxIter, &residual);
  if (status != EQC_OK) {
    // The constraints in the order of their dependencies, from the same start; then the
    // projection again, which converges from there (its test decides, as always).
    std::vector<double> ordered = start;
    double orderedResidual = residual;
    if (solveInOrder(t, ordered, tol) == EQC_OK &&
        eqc_projector_project_sparse(projector, static_cast<int>(ordered.size()), rows, &pattern_, t,
                                     ordered.data(), evaluate, this, tol, maxIter,
                                     &orderedResidual) == EQC_OK) {
      moving = ordered;
      residual = orderedResidual;
      status = EQC_OK;
    }
  }
  if (status == EQC_OK || keepLastIterate)
    for (size_t c = 0; c < movable_.size(); ++c)
      xs[movable_[c]] = moving[c];
  return status;
}

} // namespace eqc::rt
