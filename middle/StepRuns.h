// Runs of alike causal steps: the loops an array equation or an array of components was before
// flattening, found again in the evaluation sequence so that code generation writes each as a loop.
#pragma once

#include "middle/Causalize.h"
#include "middle/OdeModel.h"

#include <cstddef>
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

/// Steps [begin, begin + count·period) of a causal sequence: one step (count and period 1,
/// `strides` empty), or a run of `count` blocks of `period` steps in which step
/// begin + k·period + q computes step begin + q's values with every variable v replaced by the one
/// k·stride(v) slots further in v's storage, and assigns the variables k·stride slots after step
/// begin + q's. A step of a run is an assignment or a linear algebraic loop (its matrix and
/// offsets alike, its index advancing evenly); nonlinear loops are never in a run.
struct StepRun {
  std::size_t begin = 0, count = 1, period = 1;
  /// A run: each variable of its first block (the targets and every variable of the values, each
  /// once) with the stride of its slot index from one block to the next (0: the same variable in
  /// every block, e.g. a parameter).
  std::vector<std::pair<int, long>> strides;
  std::size_t steps() const { return count * period; }
};

/// Requires: `model.slots` covers every variable of `cs`. Ensures: cs.steps partitioned in order
/// into single steps and runs of at least kMinStepRun assignments in kMinStepRunBlocks blocks
/// (from each step on, the period whose run covers the most steps; a run extends as long as the
/// blocks repeat). Executing a run's steps in order is executing the loop over its blocks, since
/// each step reads only what earlier steps (or the caller) wrote. Alike means: the same node kinds, operands, constants, functions and Boolean types in
/// the same tree order, variables (Var leaves) excepted; every other payload (pre(v), delay
/// histories) equal. Cost: linear in the sequence's size (values compared as trees of at most
/// kMaxRunTemplateNodes nodes, each against at most kMaxStepRunPeriod others).
std::vector<StepRun> findStepRuns(const OdeModel &model, const CausalSystem &cs);

/// Every step a run of its own (what code generation writes without loops).
std::vector<StepRun> singleSteps(const CausalSystem &cs);

} // namespace eqc
