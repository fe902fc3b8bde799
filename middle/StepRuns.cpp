// Runs of alike causal steps and of alike items of straight-line code (see StepRuns.h).
#include "middle/StepRuns.h"

#include "middle/Function.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace eqc {

namespace {
/// Tokens that open an item's parts, and one that stands for an argument a call does not read
/// (never a node's head: node kinds are below 0xfc).
constexpr uint64_t kLinearBlock = 0xff, kStoreToVariable = 0xfe, kStoreToPlace = 0xfd, kUnread = 0xfc;
/// The leaf space of a linear block's index (its failure code names it).
constexpr int kLoopIndexSpace = -2;
} // namespace

ItemShapes::ItemShapes(const OdeModel &model, std::size_t n) : model_(model) {
  tokenStart_.reserve(n + 1);
  leafStart_.reserve(n + 1);
}

void ItemShapes::beginItem() {
  if (open_)
    endItem();
  tokenStart_.push_back(tokens_.size());
  leafStart_.push_back(leaves_.size());
  open_ = true;
  rejected_ = false;
  budget_ = kMaxRunTemplateNodes;
}

void ItemShapes::endItem() {
  if (rejected_ || leaves_.size() == leafStart_.back()) { // not comparable: an empty shape
    tokens_.resize(tokenStart_.back());
    leaves_.resize(leafStart_.back());
  }
  open_ = false;
}

void ItemShapes::finish() {
  if (open_)
    endItem();
  tokenStart_.push_back(tokens_.size());
  leafStart_.push_back(leaves_.size());
}

void ItemShapes::variable(int var) {
  const Slot &slot = model_.slots[static_cast<std::size_t>(var)];
  leaves_.push_back(Leaf{var, static_cast<int>(slot.storage), slot.index});
}

void ItemShapes::storeToVariable(int var, const Expr *value) {
  tokens_.push_back(kStoreToVariable);
  variable(var);
  expression(value);
}

void ItemShapes::storeToPlace(long place, const Expr *value) {
  tokens_.push_back(kStoreToPlace);
  leaves_.push_back(Leaf{-1, kPlaceSpace, place});
  expression(value);
}

void ItemShapes::expression(const Expr *e) {
  if (rejected_)
    return;
  if (budget_ == 0) {
    rejected_ = true;
    return;
  }
  --budget_;
  const uint64_t head = static_cast<uint64_t>(e->kind()) | (e->isBool() ? 1u << 8 : 0u) |
                        (static_cast<uint64_t>(e->numOps()) << 16);
  tokens_.push_back(head);
  if (e->kind() == ExprKind::Var) {
    variable(e->var());
    return;
  }
  uint64_t bits;
  const double value = e->value();
  std::memcpy(&bits, &value, sizeof bits);
  tokens_.push_back(static_cast<uint64_t>(static_cast<uint32_t>(e->var()))); // the payload
  tokens_.push_back(bits);
  for (size_t i = 0; i < e->numOps(); ++i) {
    // An argument the call's output does not read is not evaluated (the generated code passes
    // 0): no leaf of the run (MultiBody's orientation of a frame in functions of positions only,
    // which the invariants g(t, x, p) cannot read).
    if (e->kind() == ExprKind::FnCall && !e->callee().reads(e->fnOutput(), static_cast<int>(i))) {
      tokens_.push_back(kUnread);
      continue;
    }
    expression(e->op(i));
  }
}

bool ItemShapes::alike(std::size_t a, std::size_t b) const {
  const std::size_t n = tokenStart_[a + 1] - tokenStart_[a];
  return comparable(a) && comparable(b) && n == tokenStart_[b + 1] - tokenStart_[b] &&
         numLeaves(a) == numLeaves(b) &&
         std::memcmp(&tokens_[tokenStart_[a]], &tokens_[tokenStart_[b]], n * sizeof(uint64_t)) == 0;
}

namespace {

/// The strides of every leaf of items [a, a + period) to the same leaf of the items `period`
/// later, or false when an item differs in shape or a leaf changes space.
bool blockStrides(const ItemShapes &shapes, std::size_t a, std::size_t period, std::vector<long> &out) {
  out.clear();
  for (std::size_t q = 0; q < period; ++q) {
    if (!shapes.alike(a + q, a + q + period))
      return false;
    for (std::size_t p = 0; p < shapes.numLeaves(a + q); ++p) {
      const ItemShapes::Leaf &la = shapes.leaf(a + q, p), &lb = shapes.leaf(a + q + period, p);
      if (la.space != lb.space)
        return false;
      out.push_back(lb.index - la.index);
    }
  }
  return true;
}

/// The blocks of `period` items from `first` on that repeat with the same strides (at least 1).
std::size_t repeatedBlocks(const ItemShapes &shapes, std::size_t first, std::size_t period,
                           std::vector<long> &strides, std::vector<long> &next) {
  const std::size_t n = shapes.size();
  if (first + 2 * period > n || !blockStrides(shapes, first, period, strides))
    return 1;
  std::size_t blocks = 2;
  while (first + (blocks + 1) * period <= n &&
         blockStrides(shapes, first + (blocks - 1) * period, period, next) && next == strides)
    ++blocks;
  return blocks;
}

/// The run's (variable, stride) and (place, stride) lists from its first block's leaves, or false
/// when one variable or place of the first block would need two strides (x[i]*x[j] with i = j in
/// the first block only).
bool perLeaf(const ItemShapes &shapes, std::size_t first, std::size_t period,
             const std::vector<long> &strides, StepRun &run) {
  std::unordered_map<int, long> vars;
  std::unordered_map<long, long> places;
  std::size_t k = 0;
  for (std::size_t q = 0; q < period; ++q)
    for (std::size_t p = 0; p < shapes.numLeaves(first + q); ++p, ++k) {
      const ItemShapes::Leaf &leaf = shapes.leaf(first + q, p);
      if (leaf.var >= 0) {
        auto [it, inserted] = vars.emplace(leaf.var, strides[k]);
        if (inserted)
          run.strides.emplace_back(leaf.var, strides[k]);
        else if (it->second != strides[k])
          return false;
      } else if (leaf.space == ItemShapes::kPlaceSpace) {
        auto [it, inserted] = places.emplace(leaf.index, strides[k]);
        if (inserted)
          run.places.emplace_back(leaf.index, strides[k]);
        else if (it->second != strides[k])
          return false;
      }
    }
  return true;
}

} // namespace

std::vector<StepRun> findRuns(const ItemShapes &shapes) {
  const std::size_t n = shapes.size();
  std::vector<StepRun> runs;
  std::vector<long> strides, next, best;
  std::size_t s = 0;
  while (s < n) {
    // The period whose run covers the most items (the shortest of equal ones).
    std::size_t bestPeriod = 0, bestBlocks = 0;
    for (std::size_t period = 1; period <= kMaxStepRunPeriod && s + 2 * period <= n; ++period) {
      // A multiple of a period that repeats covers no more items than it.
      if ((bestPeriod != 0 && period % bestPeriod == 0) || !shapes.alike(s, s + period))
        continue;
      const std::size_t blocks = repeatedBlocks(shapes, s, period, strides, next);
      if (blocks >= kMinStepRunBlocks && blocks * period >= kMinStepRun &&
          blocks * period > bestBlocks * bestPeriod) {
        bestPeriod = period;
        bestBlocks = blocks;
        best = strides;
      }
    }
    StepRun run{s, 1, 1, {}, {}};
    if (bestPeriod == 0 || !perLeaf(shapes, s, bestPeriod, best, run)) {
      runs.push_back(StepRun{s++, 1, 1, {}, {}}); // a run may still begin at the next item
      continue;
    }
    run.count = bestBlocks;
    run.period = bestPeriod;
    runs.push_back(std::move(run));
    s += bestBlocks * bestPeriod;
  }
  return runs;
}

std::vector<StepRun> singleSteps(std::size_t n) {
  std::vector<StepRun> runs(n);
  for (std::size_t s = 0; s < n; ++s)
    runs[s].begin = s;
  return runs;
}

std::vector<StepRun> findStepRuns(const OdeModel &model, const CausalSystem &cs) {
  ItemShapes shapes(model, cs.steps.size());
  for (const CausalStep &step : cs.steps) {
    shapes.beginItem();
    if (step.loop < 0 && step.value) {
      shapes.storeToVariable(step.var, step.value);
      continue;
    }
    const AlgebraicLoop &loop = cs.loops[static_cast<std::size_t>(step.loop)];
    if (!loop.linear) { // nonlinear blocks are never in a run
      shapes.reject();
      continue;
    }
    // A linear block: its index, its unknowns, then its matrix and offsets.
    shapes.token(kLinearBlock | (static_cast<uint64_t>(loop.vars.size()) << 16));
    shapes.leaf(ItemShapes::Leaf{-1, kLoopIndexSpace, step.loop});
    for (int v : loop.vars)
      shapes.variable(v);
    for (const auto *list : {&loop.jacobian, &loop.offset})
      for (const Expr *e : *list)
        shapes.expression(e);
  }
  shapes.finish();
  return findRuns(shapes);
}

} // namespace eqc
