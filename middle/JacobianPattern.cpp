// Structural dependencies of the evaluation sequence and the ODE Jacobian's sparsity pattern.
#include "middle/JacobianPattern.h"

#include "middle/ExprOps.h"

#include <algorithm>

namespace eqc {

StepDependencies::StepDependencies(const FlatSystem &flat, const CausalSystem &cs)
    : reads_(cs.steps.size()), targets_(cs.steps.size()), readers_(flat.vars.size()), mark_(cs.steps.size(), -1) {
  for (size_t s = 0; s < cs.steps.size(); ++s) {
    const CausalStep &step = cs.steps[s];
    std::vector<int> vars;
    if (step.loop < 0) {
      vars = collectVars(step.value);
      targets_[s] = {step.var};
    } else {
      for (const Expr *r : cs.loops[step.loop].residuals)
        for (int v : collectVars(r))
          vars.push_back(v);
      targets_[s] = cs.loops[step.loop].vars;
    }
    std::sort(vars.begin(), vars.end());
    vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
    vars.erase(std::remove_if(vars.begin(), vars.end(),
                              [&](int v) { return flat.vars[v].isKnown() && !flat.vars[v].isTimeVaryingKnown(); }),
               vars.end());
    for (int v : vars)
      readers_[v].push_back(static_cast<int>(s));
    reads_[s] = std::move(vars);
  }
}

void StepDependencies::reachableSteps(int var, std::vector<int> &out) {
  out.clear();
  ++epoch_;
  std::vector<int> work{var};
  while (!work.empty()) {
    int v = work.back();
    work.pop_back();
    for (int s : readers_[v])
      if (mark_[s] != epoch_) {
        mark_[s] = epoch_;
        out.push_back(s);
        for (int t : targets_[s])
          work.push_back(t);
      }
  }
  std::sort(out.begin(), out.end());
}

SparsityPattern odeJacobianPattern(const FlatSystem &flat, const OdeModel &model, StepDependencies &deps) {
  const size_t n = model.states.size();
  // rowsOf[v]: the states whose derivative is variable v.
  std::vector<std::vector<int>> rowsOf(flat.vars.size());
  for (size_t i = 0; i < n; ++i)
    rowsOf[flat.vars[model.states[i]].derivative].push_back(static_cast<int>(i));
  SparsityPattern pattern;
  pattern.colStart.reserve(n + 1);
  pattern.colStart.push_back(0);
  std::vector<int> steps, rows;
  for (size_t j = 0; j < n; ++j) {
    rows = rowsOf[model.states[j]];
    deps.reachableSteps(model.states[j], steps);
    for (int s : steps)
      for (int v : deps.targets(s))
        rows.insert(rows.end(), rowsOf[v].begin(), rowsOf[v].end());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    pattern.rowIndex.insert(pattern.rowIndex.end(), rows.begin(), rows.end());
    pattern.colStart.push_back(static_cast<int>(pattern.rowIndex.size()));
  }
  return pattern;
}

SparsityPattern constraintJacobianPattern(const OdeModel &model, const std::vector<const Expr *> &residuals) {
  const size_t n = model.states.size();
  std::vector<std::vector<int>> rowsOf(n);
  for (size_t i = 0; i < residuals.size(); ++i) {
    const std::vector<int> vars = collectVars(residuals[i]);
    const bool readsOde = std::any_of(vars.begin(), vars.end(), [&](int v) {
      return model.slots[v].storage == Storage::Algebraic || model.slots[v].storage == Storage::Derivative;
    });
    if (readsOde) { // through the ODE, on any state
      for (std::vector<int> &rows : rowsOf)
        rows.push_back(static_cast<int>(i));
      continue;
    }
    for (int v : vars)
      if (model.slots[v].storage == Storage::State)
        rowsOf[static_cast<size_t>(model.slots[v].index)].push_back(static_cast<int>(i));
  }
  SparsityPattern pattern;
  pattern.colStart.reserve(n + 1);
  pattern.colStart.push_back(0);
  for (std::vector<int> &rows : rowsOf) {
    // Rows were added in increasing order; a variable occurs once per residual (collectVars).
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    pattern.rowIndex.insert(pattern.rowIndex.end(), rows.begin(), rows.end());
    pattern.colStart.push_back(static_cast<int>(pattern.rowIndex.size()));
  }
  return pattern;
}

} // namespace eqc
