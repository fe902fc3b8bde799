// Storage assignment and the equation systems (simulation, invariants, initialization) of a model.
#include "middle/OdeModel.h"

#include "middle/ExprOps.h"

#include <algorithm>
#include <unordered_set>

namespace eqc {

std::vector<double> baumgarteCoefficients(int order, double eta, double omega) {
  std::vector<double> p{1.0};
  auto multiply = [&p](const std::vector<double> &q) {
    std::vector<double> r(p.size() + q.size() - 1, 0.0);
    for (size_t i = 0; i < p.size(); ++i)
      for (size_t j = 0; j < q.size(); ++j)
        r[i + j] += p[i] * q[j];
    p = r;
  };
  for (int i = 0; i < order / 2; ++i)
    multiply({omega * omega, 2 * eta * omega, 1.0});
  if (order % 2)
    multiply({omega, 1.0});
  return p;
}

namespace {

/// `isState[v]`: v is integrated. The derivative of a state lives in dx at the state's slot, or
/// feeds dx by a copy when it is a state itself; every other unknown is algebraic.
void assignSlots(const FlatSystem &flat, OdeModel &m, const std::vector<char> &isState) {
  m.slots.assign(flat.vars.size(), Slot{Storage::Algebraic, -1});
  for (size_t i = 0; i < flat.vars.size(); ++i) {
    const Variable &v = flat.vars[i];
    int vi = static_cast<int>(i);
    if (v.role == VarRole::Parameter || v.role == VarRole::Input) { // inputs are set in p by the caller
      m.slots[i] = {Storage::Param, static_cast<int>(m.params.size())};
      m.params.push_back(vi);
    } else if (v.role == VarRole::Discrete) {
      m.slots[i] = {Storage::Discrete, static_cast<int>(m.discretes.size())};
      m.discretes.push_back(vi);
    } else if (isState[i]) {
      m.slots[i] = {Storage::State, static_cast<int>(m.states.size())};
      m.states.push_back(vi);
    }
  }
  for (int s : m.states) {
    int d = flat.vars[s].derivative;
    if (isState[d])
      m.chainCopies.emplace_back(m.slots[s].index, m.slots[d].index);
    else
      m.slots[d] = {Storage::Derivative, m.slots[s].index};
  }
  for (size_t i = 0; i < flat.vars.size(); ++i)
    if (!flat.vars[i].isKnown() && m.slots[i].index < 0) {
      m.slots[i] = {Storage::Algebraic, static_cast<int>(m.algebraics.size())};
      m.algebraics.push_back(static_cast<int>(i));
    }
  // pre() of continuous variables: the left limits that when-clauses read at an event.
  std::vector<char> marked(flat.vars.size(), 0);
  std::unordered_set<const Expr *> visited;
  auto scan = [&](const Expr *root) {
    std::vector<const Expr *> stack{root};
    while (!stack.empty()) {
      const Expr *e = stack.back();
      stack.pop_back();
      if (!visited.insert(e).second)
        continue;
      if (e->kind() == ExprKind::Pre && !flat.vars[e->var()].isKnown() && !marked[e->var()]) {
        marked[e->var()] = 1;
        m.preContinuous.push_back(e->var());
      }
      for (const Expr *op : e->ops())
        stack.push_back(op);
    }
  };
  for (const WhenClause &w : flat.whens)
    for (const WhenBranch &b : w.branches) {
      for (const Expr *c : b.conditions)
        scan(c);
      for (auto &[v, e] : b.assignments)
        scan(e);
      for (auto &[v, e] : b.reinits)
        scan(e);
    }
  for (const DiscreteEquation &eq : flat.discreteEquations)
    scan(eq.value);
}

std::vector<char> pantelidesStates(const FlatSystem &flat) {
  std::vector<char> isState(flat.vars.size(), 0);
  for (size_t i = 0; i < flat.vars.size(); ++i)
    isState[i] = !flat.vars[i].isKnown() && flat.vars[i].derivative >= 0;
  return isState;
}

/// MLS 3.5, 8.6: `fixed = true` on a continuous variable that is no state is the initial
/// equation v = v.start (a state's fixed start value the initialization keeps as such). Appends
/// them to `into`; returns how many.
size_t addFixedStartEquations(const FlatSystem &flat, const OdeModel &m, EquationSystem &into) {
  std::vector<char> state(flat.vars.size(), 0);
  for (int s : m.states)
    state[static_cast<size_t>(s)] = 1;
  size_t added = 0;
  for (size_t v = 0; v < flat.vars.size(); ++v) {
    const Variable &var = flat.vars[v];
    if (var.role != VarRole::Unknown || !var.fixed || !var.hasStart || !var.binding || state[v] ||
        var.type != ValueType::Real)
      continue;
    into.residuals.push_back(flat.ctx->sub(flat.ctx->var(static_cast<int>(v)), var.binding));
    into.locs.push_back(var.loc);
    into.labels.push_back("the fixed start value of " + var.name);
    ++added;
  }
  return added;
}

/// Chooses which non-fixed states the initialization solves for when the equations leave freedom:
/// states without a start value first; the others keep their start values.
void chooseFreeStates(const FlatSystem &flat, OdeModel &m, Diagnostics &diags) {
  EquationSystem &init = m.initialization;
  std::vector<int> candidates;
  for (int s : m.states)
    if (!flat.vars[s].fixed)
      candidates.push_back(s);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](int a, int b) { return !flat.vars[a].hasStart && flat.vars[b].hasStart; });
  size_t room = init.residuals.size() > init.unknowns.size() ? init.residuals.size() - init.unknowns.size() : 0;
  if (candidates.size() <= room) {
    m.freeStates = candidates;
  } else {
    // Match with every candidate available; the matched ones are solved for, the rest keep start.
    EquationSystem trial = init;
    trial.unknowns.insert(trial.unknowns.end(), candidates.begin(), candidates.end());
    Matching mm = maximumMatching(incidenceGraph(flat, trial));
    std::vector<int> kept;
    for (size_t j = init.unknowns.size(); j < trial.unknowns.size(); ++j) {
      if (mm.colToRow[j] >= 0)
        m.freeStates.push_back(trial.unknowns[j]);
      else
        kept.push_back(trial.unknowns[j]);
    }
    std::string list;
    for (int s : kept)
      if (flat.vars[s].hasStart) // (those without one: startsOfPreferredVariables)
        list += (list.empty() ? "" : ", ") + flat.vars[s].name;
    if (!list.empty())
      diags.note(flat.loc, "initialization keeps the start values of " + list +
                               " (the equations and fixed values leave them free)");
  }
  init.unknowns.insert(init.unknowns.end(), m.freeStates.begin(), m.freeStates.end());
}

/// From row `row`, an augmenting path of `g` to a free column (iterative depth-first search);
/// flips it into `mm`. Returns whether one was found.
bool augment(const BipartiteGraph &g, Matching &mm, int row) {
  std::vector<char> seen(static_cast<size_t>(g.cols), 0);
  // (row, next position in its adjacency); each row above the first is matched to the column
  // it was reached by, so flipping goes down the stack.
  std::vector<std::pair<int, size_t>> stack{{row, 0}};
  while (!stack.empty()) {
    auto &[r, k] = stack.back();
    if (k == g.adj[r].size()) {
      stack.pop_back();
      continue;
    }
    const int c = g.adj[r][k++];
    if (seen[c])
      continue;
    seen[c] = 1;
    if (mm.colToRow[c] < 0) { // free: flip the path
      for (int i = static_cast<int>(stack.size()) - 1, col = c; i >= 0; --i) {
        const int rr = stack[i].first, previous = mm.rowToCol[rr];
        mm.rowToCol[rr] = col;
        mm.colToRow[col] = rr;
        col = previous;
      }
      ++mm.size;
      return true;
    }
    stack.push_back({mm.colToRow[c], 0});
  }
  return false;
}

/// States without a start value that nothing else determines: the start values of variables
/// declared stateSelect = always or prefer take their place (`v = v.start`), as where a tool makes
/// v the state (MLS 3.5, 4.8.8.1 and 8.6: a fluid volume's U and m have none, its medium's T and
/// level do). Chosen in that order, each only if it determines one more of those states (an
/// augmenting path of the initialization's matching reaches one). The rest start at 0, with a
/// warning.
void startsOfPreferredVariables(const FlatSystem &flat, OdeModel &m, Diagnostics &diags) {
  EquationSystem &init = m.initialization;
  std::vector<char> solved(flat.vars.size(), 0), state(flat.vars.size(), 0);
  for (int u : init.unknowns)
    solved[static_cast<size_t>(u)] = 1;
  for (int s : m.states)
    state[static_cast<size_t>(s)] = 1;
  std::vector<int> startless, candidates;
  for (int s : m.states)
    if (!solved[static_cast<size_t>(s)] && !flat.vars[s].hasStart && !flat.vars[s].fixed)
      startless.push_back(s);
  if (!startless.empty() && init.residuals.size() == init.unknowns.size())
    for (StateSelect want : {StateSelect::Always, StateSelect::Prefer})
      for (size_t v = 0; v < flat.vars.size(); ++v) {
        const Variable &var = flat.vars[v];
        if (var.stateSelect == want && var.role == VarRole::Unknown && var.type == ValueType::Real &&
            !state[v] && solved[v] && var.hasStart && var.binding)
          candidates.push_back(static_cast<int>(v));
      }
  std::vector<int> taken;
  if (!candidates.empty()) {
    EquationSystem trial = init;
    trial.unknowns.insert(trial.unknowns.end(), startless.begin(), startless.end());
    const size_t rows = trial.residuals.size();
    for (int v : candidates) {
      trial.residuals.push_back(flat.ctx->sub(flat.ctx->var(v), flat.vars[v].binding));
      trial.locs.push_back(flat.vars[v].loc);
      trial.labels.push_back("the start value of " + flat.vars[v].name + " (stateSelect)");
    }
    BipartiteGraph g = incidenceGraph(flat, trial);
    BipartiteGraph original = g; // the initialization's own rows first: all of them stay matched
    for (size_t r = rows; r < original.adj.size(); ++r)
      original.adj[r].clear();
    Matching mm = maximumMatching(original);
    if (mm.size == static_cast<int>(rows)) {
      std::vector<char> chosen(candidates.size(), 0);
      for (size_t k = 0; k < candidates.size() && mm.size < static_cast<int>(trial.unknowns.size()); ++k)
        chosen[k] = augment(g, mm, static_cast<int>(rows + k));
      for (size_t k = 0; k < candidates.size(); ++k)
        if (chosen[k]) {
          init.residuals.push_back(trial.residuals[rows + k]);
          init.locs.push_back(trial.locs[rows + k]);
          init.labels.push_back(trial.labels[rows + k]);
          taken.push_back(candidates[k]);
        }
      for (size_t j = init.unknowns.size(); j < trial.unknowns.size(); ++j)
        if (mm.colToRow[j] >= 0) {
          init.unknowns.push_back(trial.unknowns[j]);
          m.freeStates.push_back(trial.unknowns[j]);
        }
    }
  }
  std::vector<char> nowSolved(flat.vars.size(), 0);
  for (int u : init.unknowns)
    nowSolved[static_cast<size_t>(u)] = 1;
  for (int s : startless)
    if (!nowSolved[static_cast<size_t>(s)])
      diags.warning(
          flat.vars[s].loc,
          "state '" + flat.vars[s].name + "' has no start value; it starts at 0" +
              (flat.vars[s].role == VarRole::Derivative ? " (set it with an initial equation)" : ""));
}

/// Index-reduced models: consistent values come from projecting the non-fixed states onto every
/// hidden constraint and initial equation (minimum-norm change from their start values), so any
/// number of fixed values is allowed as long as they are consistent; conflicts are found numerically.
void projectedInitialization(const FlatSystem &flat, OdeModel &m, Diagnostics &diags) {
  for (int s : m.states)
    if (!flat.vars[s].fixed)
      m.freeStates.push_back(s);
  m.initialConstraints = m.invariants;
  m.initialConstraints.purpose = "initialization";
  // Initial equations of other variables (der(y) = 0 of a steady state) are rewritten in the
  // states once the ODE is causalized (statesOnlyInitialConstraints).
  (void)diags;
  for (const Equation &eq : flat.initialEquations) {
    const Expr *r = flat.residual(eq);
    m.initialConstraints.residuals.push_back(r);
    m.initialConstraints.locs.push_back(eq.loc);
    m.initialConstraints.labels.push_back(flat.equationLabel(eq, "initial equation"));
  }
  addFixedStartEquations(flat, m, m.initialConstraints);
}

} // namespace

OdeModel setupOdeModel(const FlatSystem &flat, const ReducedSystem &reduced, const ReductionOptions &options,
                       Diagnostics &diags) {
  OdeModel m;
  m.delays = flat.ctx->numDelays();
  m.stabilization = reduced.differentiated() ? options.stabilization : Stabilization::None;
  assignSlots(flat, m, pantelidesStates(flat));
  const PantelidesResult &p = reduced.pantelides;
  ExprContext &ctx = *flat.ctx;

  m.simulation.purpose = "simulation";
  for (size_t i = 0; i < p.highest.size(); ++i) {
    int top = p.highest[i];
    const Expr *residual = p.equations[top].residual;
    std::string label = reduced.labels[top];
    if (m.stabilization == Stabilization::Baumgarte && p.differentiations[i] > 0) {
      // Σ a_l C^(l) over the chain C = equation i, C', ..., C^(k).
      std::vector<double> a = baumgarteCoefficients(p.differentiations[i], options.eta, options.omega);
      std::vector<const Expr *> terms;
      for (int e = static_cast<int>(i), l = 0; e >= 0; e = p.equations[e].derivative, ++l)
        terms.push_back(ctx.mul(ctx.constant(a[l]), p.equations[e].residual));
      residual = ctx.add(std::move(terms));
      label += " (Baumgarte)";
    }
    m.simulation.residuals.push_back(residual);
    m.simulation.locs.push_back(reduced.locs[top]);
    m.simulation.labels.push_back(label);
  }
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (!flat.vars[v].isKnown() && flat.vars[v].derivative < 0)
      m.simulation.unknowns.push_back(static_cast<int>(v));

  m.invariants.purpose = "invariants";
  for (int e : reduced.invariants) {
    m.invariants.residuals.push_back(p.equations[e].residual);
    m.invariants.locs.push_back(reduced.locs[e]);
    m.invariants.labels.push_back(reduced.labels[e]);
  }

  // Initialization: every equation (with its derivatives) and every initial equation. Without
  // index reduction or initial equations, every state starts at its start value (as in Modelica
  // tools); otherwise states with fixed = true do, and the equations determine the others.
  EquationSystem &init = m.initialization;
  init.purpose = "initialization";
  for (size_t e = 0; e < p.equations.size(); ++e) {
    init.residuals.push_back(p.equations[e].residual);
    init.locs.push_back(reduced.locs[e]);
    init.labels.push_back(reduced.labels[e]);
  }
  for (const Equation &eq : flat.initialEquations) {
    init.residuals.push_back(flat.residual(eq));
    init.locs.push_back(eq.loc);
    init.labels.push_back(flat.equationLabel(eq, "initial equation"));
  }
  const size_t fixedStarts = reduced.differentiated() ? 0 : addFixedStartEquations(flat, m, init);
  init.unknowns = m.simulation.unknowns;
  if (reduced.differentiated()) {
    projectedInitialization(flat, m, diags);
    return m;
  }
  if (!flat.initialEquations.empty() || fixedStarts > 0)
    chooseFreeStates(flat, m, diags);
  startsOfPreferredVariables(flat, m, diags);
  if (init.residuals.size() != init.unknowns.size()) {
    std::string fixed; // of states and (8.6: initial equations too) of algebraic variables
    std::vector<char> state(flat.vars.size(), 0);
    for (int s : m.states)
      state[static_cast<size_t>(s)] = 1;
    for (size_t v = 0; v < flat.vars.size(); ++v)
      if (flat.vars[v].fixed && (state[v] || (fixedStarts > 0 && flat.vars[v].role == VarRole::Unknown &&
                                              flat.vars[v].hasStart && flat.vars[v].type == ValueType::Real)))
        fixed += (fixed.empty() ? "" : ", ") + flat.vars[v].name;
    SourceRange at = flat.initialEquations.empty() ? flat.loc : flat.initialEquations.front().loc;
    diags.error(at, "the initialization problem has " + plural(init.residuals.size(), "equation") + " for " +
                        plural(init.unknowns.size(), "unknown") + ": the fixed start values (" +
                        (fixed.empty() ? std::string("none") : fixed) + ") and " +
                        plural(flat.initialEquations.size(), "initial equation") + " " +
                        (init.residuals.size() > init.unknowns.size() ? "over-determine" : "under-determine") +
                        " the " + plural(m.states.size(), "state"));
    if (reduced.differentiated())
      diags.note(SourceRange{}, "after index reduction the model has " +
                                    std::to_string(m.states.size() - m.invariants.residuals.size()) +
                                    " degrees of freedom: that many states can have fixed = true");
  }
  return m;
}

OdeModel setupRowReducedModel(const FlatSystem &flat, const RowReduction &rows, const ReductionOptions &options,
                               Diagnostics &diags) {
  OdeModel m;
  m.delays = flat.ctx->numDelays();
  m.stabilization = options.stabilization;
  std::vector<char> isState(flat.vars.size(), 0);
  for (int z : rows.columns)
    isState[z] = 1;
  assignSlots(flat, m, isState);
  ExprContext &ctx = *flat.ctx;

  // Σ a_l C_l over a chain's constraints C_0 … C_{k-1}: along solutions the chain's last row
  // reads sign · C^(k) = 0, and Baumgarte makes it C^(k) + Σ a_l C^(l) = 0.
  std::vector<std::vector<const Expr *>> chains(static_cast<size_t>(rows.chains));
  for (const FoundConstraint &k : rows.constraints)
    chains[k.chain].push_back(k.expr);
  m.simulation.purpose = "simulation";
  for (const TableRow &row : rows.rows) {
    const Expr *residual = rowResidual(ctx, rows, row);
    std::string label = row.label;
    if (m.stabilization == Stabilization::Baumgarte && row.chain >= 0) {
      const std::vector<const Expr *> &chain = chains[row.chain];
      std::vector<double> a = baumgarteCoefficients(static_cast<int>(chain.size()), options.eta, options.omega);
      std::vector<const Expr *> terms{residual};
      for (size_t l = 0; l < chain.size(); ++l)
        terms.push_back(ctx.mul(ctx.constant(row.sign * a[l]), chain[l]));
      residual = ctx.add(std::move(terms));
      label += " (Baumgarte)";
    }
    m.simulation.residuals.push_back(residual);
    m.simulation.locs.push_back(row.loc);
    m.simulation.labels.push_back(label);
  }
  for (size_t j = 0; j < rows.columns.size(); ++j)
    if (!isState[rows.derivative[j]])
      m.simulation.unknowns.push_back(rows.derivative[j]);
  for (auto &[v, value] : rows.aliases) {
    m.simulation.residuals.push_back(ctx.sub(ctx.var(v), value));
    m.simulation.locs.push_back(flat.vars[v].loc);
    m.simulation.labels.push_back("alias " + flat.varName(v));
    m.simulation.unknowns.push_back(v);
  }
  for (size_t k = 0; k < rows.outputs.size(); ++k) {
    m.simulation.residuals.push_back(rows.outputs[k].second);
    m.simulation.locs.push_back(rows.outputLocs[k]);
    m.simulation.labels.push_back(rows.outputLabels[k]);
    m.simulation.unknowns.push_back(rows.outputs[k].first);
  }

  m.invariants.purpose = "invariants";
  for (size_t k = 0; k < rows.constraints.size(); ++k) {
    m.invariants.residuals.push_back(rows.constraints[k].expr);
    m.invariants.locs.push_back(rows.constraints[k].loc);
    m.invariants.labels.push_back("[alg" + std::to_string(k + 1) + "] from " + rows.constraints[k].origin);
  }
  m.initialization = m.simulation;
  m.initialization.purpose = "initialization";
  projectedInitialization(flat, m, diags);
  return m;
}

OdeModel setupDummyDerivativeModel(const FlatSystem &flat, const ReducedSystem &reduced,
                                   const StateSelection &selection) {
  OdeModel m;
  m.delays = flat.ctx->numDelays();
  std::vector<char> isState(flat.vars.size(), 0);
  for (int s : selection.states)
    isState[s] = 1;
  assignSlots(flat, m, isState);
  // Index 1: every augmented equation, solved for everything but the selected states.
  const PantelidesResult &p = reduced.pantelides;
  m.simulation.purpose = "simulation";
  for (size_t e = 0; e < p.equations.size(); ++e) {
    m.simulation.residuals.push_back(p.equations[e].residual);
    m.simulation.locs.push_back(reduced.locs[e]);
    m.simulation.labels.push_back(reduced.labels[e]);
  }
  for (size_t v = 0; v < flat.vars.size(); ++v)
    if (!flat.vars[v].isKnown() && !isState[v] && !(m.slots[v].storage == Storage::State))
      m.simulation.unknowns.push_back(static_cast<int>(v));
  m.initialization = m.simulation;
  m.initialization.purpose = "initialization";
  return m;
}

std::optional<OdeModel> buildOdeModel(FlatSystem &flat, Diagnostics &diags, const ReductionOptions &options) {
  std::optional<ReducedSystem> reduced = reduceIndex(flat, diags);
  if (!reduced)
    return std::nullopt;
  return setupOdeModel(flat, *reduced, options, diags);
}

static bool causalizeSystem(FlatSystem &flat, const EquationSystem &sys, CausalSystem &out, Diagnostics &diags) {
  BipartiteGraph g = incidenceGraph(flat, sys);
  std::optional<Matching> m = matchEquations(flat, sys, g, diags);
  if (!m)
    return false;
  out = causalize(flat, sys, *m, sortBlt(g, *m));
  return true;
}

namespace {

/// Index-reduced models: the initial equations among the initial constraints that involve
/// variables the ODE computes (der(y) = 0 of a steady state, an output) are rewritten in the
/// states, parameters and time by the ODE's explicit assignments; where a variable that an
/// algebraic loop computes remains, the constraints read the ODE (initialConstraintsReadOde).
void statesOnlyInitialConstraints(const FlatSystem &flat, OdeModel &m) {
  std::unordered_map<int, const Expr *> assigned;
  for (const CausalStep &step : m.ode.steps)
    if (step.loop < 0 && step.var >= 0)
      assigned.emplace(step.var, step.value);
  ExprContext &ctx = *flat.ctx;
  auto foreign = [&](const Expr *r) {
    for (int v : collectVars(r))
      if (m.slots[v].storage != Storage::State && m.slots[v].storage != Storage::Param &&
          m.slots[v].storage != Storage::Discrete) // discrete values (conditions) are in p too
        return v;
    return -1;
  };
  for (size_t i = m.invariants.residuals.size(); i < m.initialConstraints.residuals.size(); ++i) {
    const Expr *&r = m.initialConstraints.residuals[i];
    // Each pass replaces the variables by their assignments (which read earlier ones); the
    // sequence is finite, so the passes end.
    for (size_t pass = 0; pass <= m.ode.steps.size() && foreign(r) >= 0; ++pass) {
      const Expr *next = substitute(ctx, r, assigned);
      if (next == r)
        break;
      r = next;
    }
    if (foreign(r) >= 0)
      m.initialConstraintsReadOde = true;
  }
}

} // namespace

bool causalizeOdeModel(FlatSystem &flat, OdeModel &model, Diagnostics &diags) {
  if (!causalizeSystem(flat, model.simulation, model.ode, diags))
    return false;
  if (!model.invariants.residuals.empty()) { // initialized by projection onto the invariants
    statesOnlyInitialConstraints(flat, model);
    return true;
  }
  return causalizeSystem(flat, model.initialization, model.init, diags);
}

} // namespace eqc
