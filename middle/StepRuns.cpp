// Runs of alike causal steps (see StepRuns.h).
#include "middle/StepRuns.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace eqc {
namespace {

/// Each assignment as a flat description: its tree's tokens (kinds, arities, payloads and
/// constants, variables left out) and its variables in tree order (the target first).
class StepShapes {
public:
  explicit StepShapes(const CausalSystem &cs) : tokenStart_(cs.steps.size() + 1), leafStart_(cs.steps.size() + 1) {
    for (size_t s = 0; s < cs.steps.size(); ++s) {
      tokenStart_[s] = tokens_.size();
      leafStart_[s] = leaves_.size();
      const CausalStep &step = cs.steps[s];
      size_t budget = kMaxRunTemplateNodes;
      bool ok = false;
      if (step.loop < 0 && step.value) {
        leaves_.push_back(step.var);
        ok = walk(step.value, budget);
      } else if (step.loop >= 0 && cs.loops[static_cast<size_t>(step.loop)].linear) {
        // A linear block: its unknowns, then its matrix and offsets.
        const AlgebraicLoop &loop = cs.loops[static_cast<size_t>(step.loop)];
        tokens_.push_back(kLinearBlock | (static_cast<uint64_t>(loop.vars.size()) << 16));
        leaves_.insert(leaves_.end(), loop.vars.begin(), loop.vars.end());
        ok = !loop.vars.empty();
        for (const auto *list : {&loop.jacobian, &loop.offset})
          for (const Expr *e : *list)
            ok = ok && walk(e, budget);
      }
      if (!ok) { // not comparable: an empty shape that no other step matches
        tokens_.resize(tokenStart_[s]);
        leaves_.resize(leafStart_[s]);
      }
    }
    tokenStart_.back() = tokens_.size();
    leafStart_.back() = leaves_.size();
  }

  bool comparable(size_t s) const { return leafStart_[s + 1] > leafStart_[s]; }
  size_t numLeaves(size_t s) const { return leafStart_[s + 1] - leafStart_[s]; }
  int leaf(size_t s, size_t p) const { return leaves_[leafStart_[s] + p]; }

  /// Steps a and b have the same tree, variables aside.
  bool alike(size_t a, size_t b) const {
    const size_t n = tokenStart_[a + 1] - tokenStart_[a];
    return comparable(a) && comparable(b) && n == tokenStart_[b + 1] - tokenStart_[b] &&
           numLeaves(a) == numLeaves(b) &&
           std::memcmp(&tokens_[tokenStart_[a]], &tokens_[tokenStart_[b]], n * sizeof(uint64_t)) == 0;
  }

private:
  static constexpr uint64_t kLinearBlock = 0xff;

  bool walk(const Expr *e, size_t &budget) {
    if (budget == 0)
      return false;
    --budget;
    const uint64_t head = static_cast<uint64_t>(e->kind()) | (e->isBool() ? 1u << 8 : 0u) |
                          (static_cast<uint64_t>(e->numOps()) << 16);
    tokens_.push_back(head);
    if (e->kind() == ExprKind::Var) {
      leaves_.push_back(e->var());
      return true;
    }
    uint64_t bits;
    const double value = e->value();
    std::memcpy(&bits, &value, sizeof bits);
    tokens_.push_back(static_cast<uint64_t>(static_cast<uint32_t>(e->var()))); // the payload
    tokens_.push_back(bits);
    for (const Expr *op : e->ops())
      if (!walk(op, budget))
        return false;
    return true;
  }

  std::vector<uint64_t> tokens_;
  std::vector<int> leaves_;
  std::vector<size_t> tokenStart_, leafStart_;
};

/// The slot strides of every leaf of steps [a, a + period) to the same leaf of the steps `period`
/// later, or false when a step differs in shape or a leaf changes storage.
bool blockStrides(const OdeModel &model, const CausalSystem &cs, const StepShapes &shapes, size_t a, size_t period,
                  std::vector<long> &out) {
  out.clear();
  for (size_t q = 0; q < period; ++q) {
    if (!shapes.alike(a + q, a + q + period))
      return false;
    for (size_t p = 0; p < shapes.numLeaves(a + q); ++p) {
      const Slot &sa = model.slots[static_cast<size_t>(shapes.leaf(a + q, p))];
      const Slot &sb = model.slots[static_cast<size_t>(shapes.leaf(a + q + period, p))];
      if (sa.storage != sb.storage)
        return false;
      out.push_back(static_cast<long>(sb.index) - sa.index);
    }
  }
  // A linear block's index (its failure code names it) must advance evenly too.
  for (size_t q = 0; q < period; ++q)
    out.push_back(static_cast<long>(cs.steps[a + q + period].loop) - cs.steps[a + q].loop);
  return true;
}

/// The blocks of `period` steps from `first` on that repeat with the same strides (at least 1).
size_t repeatedBlocks(const OdeModel &model, const CausalSystem &cs, const StepShapes &shapes, size_t first,
                      size_t period, std::vector<long> &strides, std::vector<long> &next) {
  const size_t n = cs.steps.size();
  if (first + 2 * period > n || !blockStrides(model, cs, shapes, first, period, strides))
    return 1;
  size_t blocks = 2;
  while (first + (blocks + 1) * period <= n &&
         blockStrides(model, cs, shapes, first + (blocks - 1) * period, period, next) && next == strides)
    ++blocks;
  return blocks;
}

/// The run's (variable, stride) list from its first block's leaves, or false when one variable of
/// the first block would need two strides (x[i]*x[j] with i = j in the first block only) or a
/// step would assign the same variable in every block.
bool perVariable(const StepShapes &shapes, size_t first, size_t period, const std::vector<long> &strides,
                 std::vector<std::pair<int, long>> &out) {
  std::unordered_map<int, long> seen;
  size_t k = 0;
  for (size_t q = 0; q < period; ++q)
    for (size_t p = 0; p < shapes.numLeaves(first + q); ++p, ++k) {
      if (p == 0 && strides[k] == 0) // each block assigns variables of its own
        return false;
      const int var = shapes.leaf(first + q, p);
      auto [it, inserted] = seen.emplace(var, strides[k]);
      if (inserted)
        out.emplace_back(var, strides[k]);
      else if (it->second != strides[k])
        return false;
    }
  return true;
}

} // namespace

std::vector<StepRun> singleSteps(const CausalSystem &cs) {
  std::vector<StepRun> runs(cs.steps.size());
  for (size_t s = 0; s < runs.size(); ++s)
    runs[s].begin = s;
  return runs;
}

std::vector<StepRun> findStepRuns(const OdeModel &model, const CausalSystem &cs) {
  const size_t n = cs.steps.size();
  StepShapes shapes(cs);
  std::vector<StepRun> runs;
  std::vector<long> strides, next, best;
  size_t s = 0;
  while (s < n) {
    // The period whose run covers the most steps (the shortest of equal ones).
    size_t bestPeriod = 0, bestBlocks = 0;
    for (size_t period = 1; period <= kMaxStepRunPeriod && s + 2 * period <= n; ++period) {
      // A multiple of a period that repeats covers no more steps than it.
      if ((bestPeriod != 0 && period % bestPeriod == 0) || !shapes.alike(s, s + period))
        continue;
      const size_t blocks = repeatedBlocks(model, cs, shapes, s, period, strides, next);
      if (blocks >= kMinStepRunBlocks && blocks * period >= kMinStepRun && blocks * period > bestBlocks * bestPeriod) {
        bestPeriod = period;
        bestBlocks = blocks;
        best = strides;
      }
    }
    StepRun run{s, 1, 1, {}};
    if (bestPeriod == 0 || !perVariable(shapes, s, bestPeriod, best, run.strides)) {
      runs.push_back(StepRun{s++, 1, 1, {}}); // a run may still begin at the next step
      continue;
    }
    run.count = bestBlocks;
    run.period = bestPeriod;
    runs.push_back(std::move(run));
    s += bestBlocks * bestPeriod;
  }
  return runs;
}

} // namespace eqc
