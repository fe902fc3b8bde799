// Runs of alike causal steps: the loops an array equation or an array of components was before
// flattening, found again in the evaluation sequence so that code generation writes each as a loop.
#pragma once

#include "middle/Causalize.h"
#include "middle/OdeModel.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace eqc {

/// Fewer alike assignments than this stay straight-line code (a loop's branch and index
/// arithmetic do not pay, and -O2 would unroll them again); so do fewer than this many blocks.
constexpr std::size_t kMinStepRun = 8;
constexpr std::size_t kMinStepRunBlocks = 4;
/// The longest block of different steps that a run repeats (a for-equation's body of several
/// equations, or a component's equations in an array of components, interleaved by the BLT).
constexpr std::size_t kMaxStepRunPeriod = 16;
/// Nodes of one step's value, counted as a tree, above which the step is not compared (its code is
/// large anyway, so one more copy of it costs little next to the comparison).
constexpr std::size_t kMaxRunTemplateNodes = 512;

/// Items [begin, begin + count·period) of straight-line code (causal steps, or the items of
/// another generated function): one item (count and period 1, `strides` and `places` empty), or a
/// run of `count` blocks of `period` items in which item begin + k·period + q computes item
/// begin + q's values with every variable v replaced by the one k·stride(v) slots further in v's
/// storage, and stores them into the variables or places k·stride further than item begin + q's.
/// A causal step of a run is an assignment or a linear algebraic loop (its matrix and offsets
/// alike, its index advancing evenly); nonlinear loops are never in a run.
struct StepRun {
  std::size_t begin = 0, count = 1, period = 1;
  /// A run: each variable of its first block (the targets and every variable of the values, each
  /// once) with the stride of its slot index from one block to the next (0: the same variable in
  /// every block, e.g. a parameter).
  std::vector<std::pair<int, long>> strides;
  /// A run of items that store into places of an output array: each place of the first block with
  /// its stride.
  std::vector<std::pair<long, long>> places;
  std::size_t steps() const { return count * period; }
};

/// The flat description of a sequence of items that findRuns compares: per item its tokens (node
/// kinds, arities, payloads and constants in tree order, variables left out) and its leaves (the
/// variables, the places it stores into, and other indices that must advance evenly). Items are
/// described in order: beginItem(), then what it stores; finish() after the last.
class ItemShapes {
public:
  /// A leaf: a variable (var >= 0, space its Storage, index its slot), or var -1 and a space of
  /// the describer's (kPlaceSpace: a place of the function's output array).
  struct Leaf {
    int var;
    int space;
    long index;
  };
  static constexpr int kPlaceSpace = -1;

  ItemShapes(const OdeModel &model, std::size_t n);
  void beginItem();
  /// The item stores `value` into `var`'s slot, or into place `place` of the output array.
  void storeToVariable(int var, const Expr *value);
  void storeToPlace(long place, const Expr *value);
  /// Parts of an item of another kind: a token that must match, a variable leaf, another leaf,
  /// an expression (its nodes as tokens, its variables as leaves).
  void token(uint64_t t) { tokens_.push_back(t); }
  void variable(int var);
  void leaf(Leaf l) { leaves_.push_back(l); }
  void expression(const Expr *e);
  /// The current item is never in a run (too large, or of a kind the generator does not loop).
  void reject() { rejected_ = true; }
  void finish();

  std::size_t size() const { return tokenStart_.size() - 1; }
  bool comparable(std::size_t s) const { return leafStart_[s + 1] > leafStart_[s]; }
  std::size_t numLeaves(std::size_t s) const { return leafStart_[s + 1] - leafStart_[s]; }
  const Leaf &leaf(std::size_t s, std::size_t p) const { return leaves_[leafStart_[s] + p]; }
  /// Items a and b have the same tokens and as many leaves.
  bool alike(std::size_t a, std::size_t b) const;

private:
  void endItem();

  const OdeModel &model_;
  std::vector<uint64_t> tokens_;
  std::vector<Leaf> leaves_;
  std::vector<std::size_t> tokenStart_, leafStart_;
  bool open_ = false, rejected_ = false;
  std::size_t budget_ = 0;
};

/// Requires: `shapes` finished. Ensures: its items partitioned in order into single items and runs
/// of at least kMinStepRun items in kMinStepRunBlocks blocks (from each item on, the period whose
/// run covers the most items; a run extends as long as the blocks repeat with the same strides).
/// Executing a run's items in order is executing the loop over its blocks, since each item reads
/// only what earlier items (or the caller) wrote. Cost: linear in the items' size (each compared
/// with at most kMaxStepRunPeriod others; an item of more than kMaxRunTemplateNodes nodes is
/// never in a run).
std::vector<StepRun> findRuns(const ItemShapes &shapes);

/// Requires: `model.slots` covers every variable of `cs`. Ensures: findRuns over cs's steps
/// (assignments, and linear blocks whose index advances evenly).
std::vector<StepRun> findStepRuns(const OdeModel &model, const CausalSystem &cs);

/// Every item a run of its own (what code generation writes without loops).
std::vector<StepRun> singleSteps(std::size_t n);

} // namespace eqc
