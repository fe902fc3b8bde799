// The flattener's driver: picks the model, instantiates it, lowers the equations of every
// instance and the connection sets, classifies discrete variables and checks the balance.
#include "frontend/Flatten.h"

#include "frontend/FlattenImpl.h"
#include "middle/ExprOps.h"
#include "eqc/eqc_runtime.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace eqc {
namespace frontend {

size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string closest(const std::string &name, const std::vector<std::string> &candidates) {
  std::string best;
  size_t bestDist = std::max<size_t>(1, name.size() / 3) + 1;
  for (const std::string &n : candidates) {
    if (n == name || n.size() > name.size() + bestDist || name.size() > n.size() + bestDist)
      continue;
    size_t d = editDistance(n, name);
    if (d < bestDist) {
      bestDist = d;
      best = n;
    }
  }
  return best;
}

Flattener::Flattener(const std::vector<const ast::File *> &files, Diagnostics &diags, ClassSource *library)
    : diags_(diags), files_(files), library_(library) {
  sys_.ctx = std::make_shared<ExprContext>();
  differentiator_ = std::make_unique<Differentiator>(*sys_.ctx);
}

namespace {

void checkEndNames(const ast::ClassDef &def, Diagnostics &diags) {
  if (!def.isShort) {
    const std::string kind = ast::kindName(def.kind);
    if (def.endName.empty()) {
      diags.error(def.range, kind + " '" + def.name + "' must end with 'end " + def.name + ";'");
    } else if (def.endName != def.name) {
      diags.error(def.endRange, "'end " + def.endName + "' does not match " + kind + " name '" + def.name + "'");
      diags.note(def.range, kind + " '" + def.name + "' starts here");
    }
  }
  for (const auto &nested : def.classes)
    checkEndNames(*nested, diags);
}

} // namespace

std::optional<FlatSystem> Flattener::run(const std::string &modelName) {
  for (const ast::File *file : files_)
    for (const auto &def : file->classes)
      checkEndNames(*def, diags_);
  registerClasses();
  ClassInfo *model = nullptr;
  if (!modelName.empty()) {
    model = findClass(modelName, nullptr);
    if (!model && !files_.empty() && !files_[0]->within.empty()) // the name within the file's package
      model = findClass(files_[0]->within + "." + modelName, nullptr);
    if (!model) {
      const std::string top = modelName.substr(0, modelName.find('.'));
      if (!files_.empty())
        diags_.error(SourceRange{}, "no model named '" + modelName + "' in the file");
      else if (!library_ || !library_->topLevel(top))
        diags_.error(SourceRange{}, "'" + modelName + "' is neither a file nor a class of the library path: no '" + top +
                                        ".mo' or '" + top + "/package.mo' in the directories of --lib and MODELICAPATH");
      else
        diags_.error(SourceRange{}, "library '" + top + "' has no class '" + modelName + "'");
      return std::nullopt;
    }
  } else if (!files_.empty()) {
    for (auto &[def, info] : fileClasses_)
      if (def->kind == ast::ClassKind::Model || def->kind == ast::ClassKind::Block || def->kind == ast::ClassKind::Class)
        for (const auto &own : files_[0]->classes)
          if (own.get() == def)
            model = info;
    if (!model) {
      diags_.error(SourceRange{}, "no model in the file (declare one with 'model Name ... end Name;', or a block or class)");
      return std::nullopt;
    }
  }
  if (model->def->isShort || model->kind() == ast::ClassKind::Function || model->kind() == ast::ClassKind::Package ||
      model->kind() == ast::ClassKind::Type || model->kind() == ast::ClassKind::Operator) {
    diags_.error(model->def->range, "'" + model->name + "' is a " + ast::kindName(model->kind()) +
                                        ", not a model that can be simulated");
    return std::nullopt;
  }
  if (model->def->partial)
    diags_.error(model->def->range, "'" + model->name + "' is partial and cannot be simulated; extend it");
  sys_.modelName = model->def->name;
  sys_.description = model->def->description;
  sys_.loc = model->def->range;

  rootOwner_ = std::make_unique<Instance>();
  root_ = rootOwner_.get();
  root_->cls = model;
  root_->declared = model->def->range;
  instantiateElements(*root_);
  // Connectors of the model itself meet the outside world: an unconnected flow there is zero too.
  if (resolveClass(*model))
    for (Symbol &s : root_->symbols)
      if (s.kind == Symbol::Component && s.cls && s.cls->kind() == ast::ClassKind::Connector)
        for (auto &u : s.instances)
          if (!u->expandable && std::find(connectors_.begin(), connectors_.end(), u.get()) == connectors_.end())
            connectors_.push_back(u.get());
  // Equations are checked even after errors above: every mistake in one run.
  lowerInstanceEquations(*root_);
  for (size_t i = 0; i < instances_.size(); ++i)
    if (!instances_[i]->expandable)
      lowerInstanceEquations(*instances_[i]);
  // Expandable connectors get their elements from every connect first (MLS 3.5, 9.1.3); then
  // their variables' attributes, and those of the components connections added, are lowered.
  const size_t lowered = instances_.size();
  completeExpandableConnectors();
  for (size_t i = 0; i < instances_.size(); ++i)
    if (instances_[i]->expandable || i >= lowered)
      lowerInstanceEquations(*instances_[i]);
  buildConnectionGraph();
  if (!diags_.hasErrors()) {
    generateConnectionEquations();
    generateGraphEquations();
  }
  readAnnotation(*model->def);
  growPerVariable();
  initialParameters();
  if (!diags_.hasErrors())
    classifyDiscrete();
  // Evaluate = true parameters fold first: a condition they fix picks one branch of an
  // if-expression, so the other branch's parameters are no dependence (MSL's vessels:
  // `T_start = if use_T_start then system.T_start else f(h_start)` and h_start the other way).
  if (!diags_.hasErrors())
    foldEvaluatedParameters();
  if (!diags_.hasErrors())
    checkParameterCycles();
  if (!diags_.hasErrors())
    checkBalance(*root_);
  componentSizes(*root_);
  if (diags_.hasErrors())
    return std::nullopt;
  return std::move(sys_);
}

void Flattener::initialParameters() {
  // MLS 3.5, 8.6: a parameter with fixed = false is computed at initialization; eqc takes an
  // initial equation `p = e` of parameters and constants (an if-equation with parameter
  // conditions picks it, a function call may give several: (a, b) = f(...)) as p's value.
  if (initialParameters_.empty())
    return;
  std::set<int> open(initialParameters_.begin(), initialParameters_.end());
  // At the start, a state whose start value is fixed is that value, and time the start time
  // (`t0 = time`, `T_final = (m1.T*m1.C + m2.T*m2.C)/(m1.C + m2.C)` in MSL).
  std::unordered_map<int, const Expr *> atStart;
  for (size_t v = 0; v < sys_.vars.size(); ++v)
    if (sys_.isState(static_cast<int>(v)) && sys_.vars[v].fixed && sys_.vars[v].hasStart && sys_.vars[v].binding &&
        parameterExpression(sys_.vars[v].binding))
      atStart.emplace(static_cast<int>(v), sys_.vars[v].binding);
  const Expr *startTime = ctx().constant(sys_.experiment.hasStartTime ? sys_.experiment.startTime : 0.0);
  auto startValue = [&](const Expr *e) {
    return substitute(ctx(), e, atStart, startTime);
  };
  // So is an unknown that an equation fixes from parameters alone (MSL's pipe flow models:
  // `dp_fric_nominal = sum(WallFriction.pressureLoss_m_flow(m_flow_nominal, ...))`, read by the
  // initial equation of the fixed = false parameter dp_nominal), through chains of them.
  for (int pass = 0, grew = 1; grew && pass < 8; ++pass) {
    grew = 0;
    for (const Equation &eq : sys_.equations)
      for (auto [x, other] : {std::pair{eq.lhs, eq.rhs}, std::pair{eq.rhs, eq.lhs}})
        if (x->kind() == ExprKind::Var && sys_.vars[x->var()].role == VarRole::Unknown &&
            !atStart.count(x->var()))
          if (const Expr *value = startValue(other);
              parameterExpression(value) && !collectAllVars(value).empty()) {
            atStart.emplace(x->var(), value);
            grew = 1;
            break;
          }
  }
  std::vector<Equation> kept;
  for (const Equation &eq : sys_.initialEquations) {
    const Expr *target = nullptr, *value = nullptr;
    for (auto [x, other] : {std::pair{eq.lhs, eq.rhs}, std::pair{eq.rhs, eq.lhs}})
      if (!target && x->kind() == ExprKind::Var && open.count(x->var()) && parameterExpression(startValue(other))) {
        target = x;
        value = startValue(other);
      }
    if (!target) {
      kept.push_back(eq);
      continue;
    }
    sys_.vars[target->var()].binding = value;
    open.erase(target->var());
  }
  // An implicit initial equation f(p) = 0 of one such parameter and others known (MSL's
  // SaturatingInductor: (Lnom - Linf)/(Lzer - Linf) = Ipar/Inom*(pi/2 - atan(Ipar/Inom))):
  // Newton's method from p's start value when the model is compiled; the parameters it reads
  // become structural (their values are in p's).
  sys_.initialEquations.clear();
  for (const Equation &eq : kept) {
    const Expr *r = startValue(sys_.residual(eq));
    int p = -1;
    bool single = true;
    for (int v : collectAllVars(r)) {
      if (open.count(v)) {
        single = single && p < 0;
        p = v;
      } else if (sys_.vars[v].role != VarRole::Parameter) {
        single = false;
      }
    }
    if (single && p >= 0 && solveInitialParameter(p, r, eq.loc))
      open.erase(p);
    else
      sys_.initialEquations.push_back(eq);
  }
  if (!open.empty())
    solveInitialParameterSystem(open, startValue);
  for (int v : open) {
    diags_.error(sys_.vars[v].loc, "parameter '" + sys_.vars[v].name +
                                       "' has fixed = false, but no initial equation gives it a value of parameters, "
                                       "constants, fixed start values and time ('" + sys_.vars[v].name + " = ...')");
    sys_.vars[v].binding = ctx().zero();
  }
}

bool Flattener::solveInitialParameter(int p, const Expr *residual, SourceRange loc) {
  const std::string what = "the initial equation of parameter '" + sys_.vars[p].name + "'";
  double x = 1.0;
  if (const Expr *start = sys_.vars[p].binding; start && parameterExpression(start) && !dependsOn(start, p))
    if (std::optional<double> guess = evaluateStructural(start, loc, what); guess && std::isfinite(*guess))
      x = *guess;
  const Expr *slope = differentiator_->diff(residual, p);
  for (int iteration = 0; iteration < 100; ++iteration) {
    const std::unordered_map<int, const Expr *> at{{p, ctx().constant(x)}};
    std::optional<double> f = evaluateStructural(substitute(ctx(), residual, at), loc, what);
    std::optional<double> d = evaluateStructural(substitute(ctx(), slope, at), loc, what);
    if (!f || !d || !std::isfinite(*f) || !std::isfinite(*d) || *d == 0)
      break;
    const double step = *f / *d;
    x -= step;
    if (std::fabs(step) <= 1e-14 * (1 + std::fabs(x)) || *f == 0) {
      sys_.vars[p].binding = ctx().constant(x);
      return true;
    }
  }
  diags_.error(loc, what + " has no solution that Newton's method finds from its start value " +
                        formatNumber(x) + "; give '" + sys_.vars[p].name + "' a start value nearer the solution");
  sys_.vars[p].binding = ctx().zero();
  return true; // reported
}

void Flattener::solveInitialParameterSystem(std::set<int> &open,
                                            const std::function<const Expr *(const Expr *)> &atStart) {
  std::vector<size_t> rows;
  std::vector<const Expr *> residuals;
  std::set<int> unknowns;
  for (size_t i = 0; i < sys_.initialEquations.size(); ++i) {
    const Expr *r = atStart(sys_.residual(sys_.initialEquations[i]));
    bool parameters = true, reads = false;
    for (int v : collectAllVars(r)) {
      parameters = parameters && sys_.vars[v].role == VarRole::Parameter;
      reads = reads || open.count(v) > 0;
    }
    if (!parameters || !reads)
      continue;
    rows.push_back(i);
    residuals.push_back(r);
    for (int v : collectAllVars(r))
      if (open.count(v))
        unknowns.insert(v);
  }
  if (rows.empty() || rows.size() != unknowns.size())
    return; // the parameters left are reported as not determined
  const std::vector<int> ps(unknowns.begin(), unknowns.end());
  const size_t n = ps.size();
  const SourceRange loc = sys_.initialEquations[rows.front()].loc;
  const std::string what = "the initial equations of the fixed = false parameters";
  std::vector<double> x(n, 0.0);
  for (size_t k = 0; k < n; ++k)
    if (const Expr *start = sys_.vars[ps[k]].binding; start && parameterExpression(start) && !dependsOn(start, ps[k]))
      if (std::optional<double> guess = evaluateStructural(start, loc, what); guess && std::isfinite(*guess))
        x[k] = *guess;
  std::vector<const Expr *> slopes(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < n; ++k)
      slopes[i * n + k] = differentiator_->diff(residuals[i], ps[k]);
  bool converged = false, singular = false;
  for (int iteration = 0; iteration < 50 && !converged && !singular; ++iteration) {
    std::unordered_map<int, const Expr *> at;
    for (size_t k = 0; k < n; ++k)
      at.emplace(ps[k], ctx().constant(x[k]));
    std::vector<double> f(n), jacobian(n * n);
    bool finite = true;
    auto value = [&](const Expr *e, double &out) {
      std::optional<double> v = evaluateStructural(substitute(ctx(), e, at), loc, what);
      finite = finite && v && std::isfinite(*v);
      out = finite ? *v : 0.0;
    };
    for (size_t i = 0; i < n; ++i)
      value(residuals[i], f[i]);
    for (size_t k = 0; k < n * n; ++k)
      value(slopes[k], jacobian[k]);
    if (!finite)
      break;
    singular = eqc_linsolve(static_cast<int>(n), jacobian.data(), f.data(), 1) != EQC_OK;
    if (singular)
      break;
    double step = 0, size = 0;
    for (size_t k = 0; k < n; ++k) {
      x[k] -= f[k];
      step = std::max(step, std::fabs(f[k]));
      size = std::max(size, std::fabs(x[k]));
    }
    converged = step <= 1e-13 * (1 + size);
  }
  if (!converged) {
    diags_.error(loc, what + " (" + std::to_string(n) + " equations) have no solution that Newton's method finds " +
                          (singular ? std::string("(their Jacobian is singular: they are dependent or contradict each "
                                                  "other, or the start values are at a critical point)")
                                    : std::string("from their start values; give the parameters start values nearer "
                                                  "the solution")));
    for (int p : ps)
      sys_.vars[p].binding = ctx().zero();
  } else {
    for (size_t k = 0; k < n; ++k)
      sys_.vars[ps[k]].binding = ctx().constant(x[k]);
  }
  for (int p : ps)
    open.erase(p);
  for (auto i = rows.rbegin(); i != rows.rend(); ++i)
    sys_.initialEquations.erase(sys_.initialEquations.begin() + static_cast<std::ptrdiff_t>(*i));
}

bool Flattener::parameterExpression(const Expr *e) {
  std::vector<const Expr *> stack{e};
  while (!stack.empty()) {
    const Expr *x = stack.back();
    stack.pop_back();
    if (x->kind() == ExprKind::Time || x->kind() == ExprKind::Pre || x->kind() == ExprKind::Initial ||
        (x->kind() == ExprKind::Var && sys_.vars[x->var()].role != VarRole::Parameter))
      return false;
    for (const Expr *op : x->ops())
      stack.push_back(op);
  }
  return true;
}

void Flattener::classifyDiscrete() {
  // Real variables assigned in when-clauses are discrete.
  for (auto &[v, range] : whenAssigned_)
    if (sys_.vars[v].role == VarRole::Unknown) {
      if (sys_.vars[v].derivative >= 0) {
        diags_.error(range, "'" + sys_.vars[v].name + "' is assigned in a when-clause but der(" + sys_.vars[v].name +
                                ") occurs: a state changes at events through reinit()");
        continue;
      }
      sys_.vars[v].role = VarRole::Discrete;
    }
  // Equations `x = ...` with a now-discrete x are discrete equations.
  std::vector<Equation> continuous;
  for (const Equation &eq : sys_.equations) {
    auto discreteVar = [&](const Expr *e) { return e->kind() == ExprKind::Var && sys_.vars[e->var()].role == VarRole::Discrete; };
    if (discreteVar(eq.lhs) && whenAssigned_.count(eq.lhs->var()) == 0 && !collectAllVars(eq.rhs).empty()) {
      sys_.discreteEquations.push_back(DiscreteEquation{eq.lhs->var(), eq.rhs, eq.loc, eq.number, eq.origin});
      continue;
    }
    continuous.push_back(eq);
  }
  sys_.equations = std::move(continuous);
  orientDiscreteAliases();
  initialDiscreteValues();
  // Each discrete variable is defined once: by one when-equation or one discrete equation.
  std::vector<int> definitions(sys_.vars.size(), 0);
  std::vector<SourceRange> where(sys_.vars.size());
  std::vector<int> definingAlgorithm(sys_.vars.size(), -1); // the when-statements of one section are one definition
  for (const DiscreteEquation &eq : sys_.discreteEquations) {
    if (definitions[eq.var]++ && where[eq.var].valid()) {
      diags_.error(eq.loc, "discrete variable '" + sys_.vars[eq.var].name + "' is defined twice");
      diags_.note(where[eq.var], "the other definition is here");
    }
    where[eq.var] = eq.loc;
  }
  for (const WhenClause &w : sys_.whens) {
    std::vector<int> assigned;
    for (auto &[v, e] : w.branches[0].assignments)
      if (std::find(assigned.begin(), assigned.end(), v) == assigned.end())
        assigned.push_back(v);
    for (int v : assigned) {
      if (w.algorithm >= 0 && definingAlgorithm[v] == w.algorithm)
        continue;
      definingAlgorithm[v] = w.algorithm;
      if (definitions[v]++) {
        diags_.error(w.loc, "discrete variable '" + sys_.vars[v].name + "' is defined twice");
        if (where[v].valid())
          diags_.note(where[v], "the other definition is here");
      }
      where[v] = w.loc;
    }
  }
  for (size_t v = 0; v < sys_.vars.size(); ++v)
    if (sys_.vars[v].role == VarRole::Discrete && !sys_.vars[v].relation && definitions[v] == 0 &&
        static_cast<int>(v) != sys_.terminal) // terminal(): the run sets it
      diags_.error(sys_.vars[v].loc, "discrete variable '" + sys_.vars[v].name +
                                         "' has no equation: assign it in a when-equation or give it an equation");
  for (auto &[v, range] : pendingPre_)
    if (sys_.vars[v].role != VarRole::Discrete)
      diags_.error(range, "pre() of the continuous variable '" + sys_.vars[v].name +
                              "' is only allowed in when-clauses (between events pre(x) is x)");
  for (auto &[v, range] : reinitTargets_)
    if (sys_.vars[v].role != VarRole::Unknown || sys_.vars[v].derivative < 0)
      diags_.error(range, "reinit(" + sys_.vars[v].name + ", ...): '" + sys_.vars[v].name +
                              "' is not a state (der(" + sys_.vars[v].name + ") does not occur in the equations)");
  // Discrete equations must not be circular through pre-free references... they are evaluated
  // in order at events and iterated until nothing changes, so any order works.
}

void Flattener::orientDiscreteAliases() {
  // `a = b` of two discrete variables (connections of Boolean and Integer signals) form trees;
  // each tree with one variable defined elsewhere (its source) is turned so that every alias
  // defines the variable farther from the source (breadth first from it).
  auto isAlias = [&](const DiscreteEquation &eq) {
    return eq.value->kind() == ExprKind::Var && sys_.vars[eq.value->var()].role == VarRole::Discrete &&
           !sys_.vars[eq.value->var()].relation;
  };
  std::vector<int> defined(sys_.vars.size(), 0);
  std::unordered_map<int, std::vector<size_t>> edges;
  for (size_t i = 0; i < sys_.discreteEquations.size(); ++i) {
    const DiscreteEquation &eq = sys_.discreteEquations[i];
    if (isAlias(eq)) {
      edges[eq.var].push_back(i);
      edges[eq.value->var()].push_back(i);
    } else {
      ++defined[eq.var];
    }
  }
  if (edges.empty())
    return;
  for (const WhenClause &w : sys_.whens)
    for (auto &[v, e] : w.branches[0].assignments)
      ++defined[v];
  std::vector<char> reached(sys_.vars.size(), 0);
  for (auto &[source, _] : edges) {
    if (!defined[source] || reached[source])
      continue;
    reached[source] = 1;
    std::vector<int> queue{source};
    for (size_t q = 0; q < queue.size(); ++q) {
      const int u = queue[q];
      for (size_t i : edges[u]) {
        DiscreteEquation &eq = sys_.discreteEquations[i];
        const int w = eq.var == u ? eq.value->var() : eq.var;
        if (reached[w])
          continue;
        reached[w] = 1;
        eq.var = w;
        eq.value = ctx().var(u, sys_.vars[u].type == ValueType::Boolean);
        queue.push_back(w);
      }
    }
  }
}

void Flattener::initialDiscreteValues() {
  // MLS 3.5, 8.6: an initial equation `v = e` of a discrete variable v that a when-clause assigns
  // (e changing only at events) gives v's value at initialization: a first branch of that
  // when-clause, `initial()`, assigns it (and keeps the clause's other variables at their start).
  std::unordered_map<int, const Expr *> values;
  std::vector<Equation> kept;
  for (const Equation &eq : sys_.initialEquations) {
    auto defines = [&](const Expr *x, const Expr *other) {
      return x->kind() == ExprKind::Var && sys_.vars[x->var()].role == VarRole::Discrete &&
             whenAssigned_.count(x->var()) && !continuouslyDependent(other) && !values.count(x->var());
    };
    if (defines(eq.lhs, eq.rhs))
      values[eq.lhs->var()] = eq.rhs;
    else if (defines(eq.rhs, eq.lhs))
      values[eq.rhs->var()] = eq.lhs;
    else
      kept.push_back(eq);
  }
  for (const Equation &eq : kept)
    for (const Expr *x : {eq.lhs, eq.rhs})
      if (x->kind() == ExprKind::Var && sys_.vars[x->var()].role == VarRole::Discrete &&
          !whenAssigned_.count(x->var()) && !continuouslyDependent(x == eq.lhs ? eq.rhs : eq.lhs)) {
        diags_.error(eq.loc, "an initial equation of the discrete variable '" + sys_.vars[x->var()].name +
                                 "' gives it a value of parameters and constants, or its value at initialization when "
                                 "a when-clause assigns it (MLS 3.5, 8.6)");
        break;
      }
  if (values.empty())
    return;
  sys_.initialEquations = std::move(kept);
  for (WhenClause &w : sys_.whens) {
    bool mine = false;
    for (auto &[v, e] : w.branches[0].assignments)
      mine = mine || values.count(v);
    if (!mine)
      continue;
    WhenBranch first;
    first.loc = w.branches[0].loc;
    first.equations = w.branches[0].equations;
    first.conditions = {ctx().initial()};
    for (auto &[v, e] : w.branches[0].assignments) {
      auto it = values.find(v);
      first.assignments.emplace_back(v, it != values.end() ? it->second
                                                           : ctx().pre(v, sys_.vars[v].type == ValueType::Boolean));
    }
    w.branches.insert(w.branches.begin(), std::move(first));
  }
}

void Flattener::checkParameterCycles() {
  // Depth-first search over parameter → parameters its binding uses (iterative).
  std::vector<int> state(sys_.vars.size(), 0); // 0 new, 1 on stack, 2 done
  for (size_t root = 0; root < sys_.vars.size(); ++root) {
    if (sys_.vars[root].role != VarRole::Parameter || state[root] || !sys_.vars[root].binding)
      continue;
    std::vector<std::pair<int, std::vector<int>>> stack;
    stack.push_back({static_cast<int>(root), collectVars(sys_.vars[root].binding)});
    state[root] = 1;
    while (!stack.empty()) {
      auto &[v, pending] = stack.back();
      if (pending.empty()) {
        state[v] = 2;
        stack.pop_back();
        continue;
      }
      int w = pending.back();
      pending.pop_back();
      if (state[w] == 1) {
        diags_.error(sys_.vars[v].loc, "parameter '" + sys_.vars[v].name + "' depends on itself through '" +
                                           sys_.vars[w].name + "'");
        return;
      }
      if (state[w] == 0 && sys_.vars[w].binding) {
        state[w] = 1;
        stack.push_back({w, collectVars(sys_.vars[w].binding)});
      }
    }
  }
}

void Flattener::foldEvaluatedParameters() {
  const size_t n = sys_.vars.size();
  enum : char { No, Final, Annotated };
  std::vector<char> candidate(n, No);
  std::vector<int> roots;
  for (size_t v = 0; v < n; ++v) {
    const Variable &var = sys_.vars[v];
    if (var.role != VarRole::Parameter || var.object || !var.binding)
      continue;
    candidate[v] = evaluateAnnotated_[v]                         ? Annotated
                   : bindings_[v].mod && bindings_[v].mod->final ? Final
                                                                 : No;
    if (candidate[v])
      roots.push_back(static_cast<int>(v));
  }
  for (int p : initialParameters_) // fixed = false: computed at initialization
    candidate[p] = No;
  if (roots.empty())
    return;
  // The candidates in dependency order (depth first over the candidates their bindings read).
  std::vector<int> order;
  std::vector<char> seen(n, 0);
  for (int root : roots) {
    if (seen[root] || !candidate[root])
      continue;
    seen[root] = 1;
    std::vector<std::pair<int, std::vector<int>>> stack{{root, collectVars(sys_.vars[root].binding)}};
    while (!stack.empty()) {
      auto &[v, pending] = stack.back();
      if (pending.empty()) {
        order.push_back(v);
        stack.pop_back();
        continue;
      }
      int w = pending.back();
      pending.pop_back();
      if (!seen[w] && candidate[w]) {
        seen[w] = 1;
        stack.push_back({w, collectVars(sys_.vars[w].binding)});
      }
    }
  }
  std::unordered_map<int, const Expr *> folded;
  for (int v : order) {
    Variable &var = sys_.vars[v];
    const Expr *b = substitute(ctx(), var.binding, folded);
    std::optional<double> value;
    if (b->kind() == ExprKind::Const || b->kind() == ExprKind::BoolConst)
      value = b->kind() == ExprKind::Const ? b->value() : b->boolValue();
    else if (candidate[v] == Annotated && parameterExpression(b))
      value = evaluateStructural(b, var.loc,
                                 "the value of parameter '" + var.name + "' (annotation Evaluate = true)");
    if (!value)
      continue;
    Variable &folding = sys_.vars[v]; // evaluateStructural may have added variables
    folding.binding =
        folding.type == ValueType::Boolean ? ctx().boolean(*value != 0) : ctx().constant(*value);
    folding.structural = true;
    folded.emplace(v, folding.binding);
  }
  if (folded.empty())
    return;
  sys_.forEachExpr([&](const Expr *&e) { e = substitute(ctx(), e, folded); });
}

void Flattener::checkBalance(const Instance &root) {
  (void)root;
  std::vector<std::string> unknowns;
  for (const Variable &v : sys_.vars)
    if (v.role == VarRole::Unknown)
      unknowns.push_back(v.name);
  size_t neq = sys_.equations.size();
  if (neq == unknowns.size())
    return;
  diags_.error(sys_.loc, "model '" + sys_.modelName + "' has " + plural(neq, "equation") + " but " +
                             plural(unknowns.size(), "unknown") + " (" +
                             (neq > unknowns.size() ? "too many equations" : "too few equations") + ")");
  std::string list;
  for (size_t i = 0; i < unknowns.size() && i < 20; ++i)
    list += (i ? ", " : "") + unknowns[i];
  if (unknowns.size() > 20)
    list += ", ...";
  if (!unknowns.empty())
    diags_.note(SourceRange{}, "the unknowns are: " + list);
  // Where the mismatch is: components whose own unknowns and equations differ (connectors' flows
  // are completed by the connections around them, so only components without connectors count).
  int shown = 0;
  for (Instance *inst : instances_) {
    if (inst->cls->kind() == ast::ClassKind::Connector || inst->unknowns == inst->equations)
      continue;
    bool hasConnectors = false;
    for (const Symbol &s : inst->symbols)
      hasConnectors = hasConnectors || s.connector;
    if (hasConnectors)
      continue;
    if (shown++ < 5)
      diags_.note(inst->declared, "component '" + inst->path + "' has " + plural(inst->unknowns, "unknown") + " and " +
                                      plural(inst->equations, "equation"));
  }
}

void Flattener::componentSizes(Instance &root) {
  std::function<void(Instance &, size_t &, size_t &)> total = [&](Instance &inst, size_t &u, size_t &e) {
    u += inst.unknowns;
    e += inst.equations;
    for (Symbol &s : inst.symbols)
      for (auto &child : s.instances)
        total(*child, u, e);
  };
  if (root.symbols.size() != root.cls->elements.size())
    return;
  for (size_t i = 0; i < root.symbols.size(); ++i) {
    Symbol &s = root.symbols[i];
    if (s.kind != Symbol::Component)
      continue;
    ComponentSize size;
    size.name = root.cls->elements[i].comp->name + (s.dims.empty() ? "" : shapeText(s.dims));
    size.className = s.cls->name;
    for (auto &child : s.instances)
      total(*child, size.unknowns, size.equations);
    sys_.componentSizes.push_back(size);
  }
  if (!sys_.componentSizes.empty()) {
    ComponentSize own;
    own.name = sys_.modelName;
    own.className = "its own variables, equations and connections";
    own.unknowns = root.unknowns;
    own.equations = root.equations;
    sys_.componentSizes.push_back(own);
  }
}

void Flattener::readEqcAnnotation(const ast::Modifier &m) {
  Experiment &ex = sys_.experiment;
  Scope scope;
  scope.context = Context::Start;
  scope.inst = root_;
  for (const ast::Modifier &a : m.args) {
    if (a.name == "reduction" || a.name == "stabilize") {
      static const char *reductions[] = {"dummy", "invariants"};
      static const char *stabilizations[] = {"none", "projection", "baumgarte"};
      bool isReduction = a.name == "reduction";
      bool ok = a.value && a.value->kind == ast::ExprKind::String;
      if (ok) {
        ok = false;
        for (const char *k : isReduction ? std::vector<const char *>(reductions, reductions + 2)
                                         : std::vector<const char *>(stabilizations, stabilizations + 3))
          ok = ok || a.value->text == k;
      }
      if (!ok) {
        diags_.error(a.value ? a.value->range : a.range,
                     isReduction ? "reduction must be \"dummy\" or \"invariants\""
                                 : "stabilize must be \"none\", \"projection\" or \"baumgarte\"");
        continue;
      }
      (isReduction ? ex.reduction : ex.stabilize) = a.value->text;
    } else if (a.name == "eta" || a.name == "omega") {
      Value t = a.value ? lower(*a.value, scope) : Value{};
      if (!t.ok || !t.isScalar() || !t.elems[0]->isConst() || !(t.elems[0]->value() > 0)) {
        diags_.error(a.value ? a.value->range : a.range, a.name + " must be a positive number");
        continue;
      }
      (a.name == "eta" ? ex.eta : ex.omega) = t.elems[0]->value();
    } else {
      diags_.warning(a.range, "unknown eqc setting '" + a.name + "' ignored (known: reduction, stabilize, eta, omega)");
    }
  }
}

void Flattener::readAnnotation(const ast::ClassDef &model) {
  Scope scope;
  scope.context = Context::Start;
  scope.inst = root_;
  for (const ast::Modifier &m : model.annotation) {
    if (m.name == "__eqc") {
      readEqcAnnotation(m);
      continue;
    }
    if (m.name != "experiment")
      continue; // Unknown annotations are ignored, as in Modelica.
    const ast::Modifier *stop = nullptr;
    for (const ast::Modifier &a : m.args) {
      double *slot = a.name == "StartTime"   ? &sys_.experiment.startTime
                     : a.name == "StopTime"  ? &sys_.experiment.stopTime
                     : a.name == "Tolerance" ? &sys_.experiment.tolerance
                     : a.name == "Interval"  ? &sys_.experiment.interval
                                             : nullptr;
      if (!slot) {
        diags_.warning(a.range, "unknown experiment setting '" + a.name +
                                    "' ignored (known: StartTime, StopTime, Tolerance, Interval)");
        continue;
      }
      Value t = a.value ? lower(*a.value, scope) : Value{};
      if (!t.ok || !t.isScalar() || !t.elems[0]->isConst()) {
        diags_.error(a.value ? a.value->range : a.range, "experiment setting '" + a.name + "' must be a number");
        continue;
      }
      *slot = t.elems[0]->value();
      if (slot == &sys_.experiment.startTime || slot == &sys_.experiment.stopTime) {
        // (StopTime = StartTime: an initialization-only run)
        (slot == &sys_.experiment.startTime ? sys_.experiment.hasStartTime : sys_.experiment.hasStopTime) =
            true;
        if (!std::isfinite(*slot))
          diags_.error(a.value->range, "experiment setting '" + a.name + "' must be finite");
        else if (slot == &sys_.experiment.stopTime)
          stop = &a;
      } else if (*slot <= 0 || !std::isfinite(*slot)) {
        diags_.error(a.value->range, "experiment setting '" + a.name + "' must be positive");
      }
    }
    const double start = sys_.experiment.hasStartTime ? sys_.experiment.startTime : 0.0;
    if (stop && sys_.experiment.stopTime < start)
      diags_.error(stop->value->range, "experiment setting 'StopTime' (" +
                                           formatNumber(sys_.experiment.stopTime) +
                                           ") is before the start time (" + formatNumber(start) + ")");
  }
}

} // namespace frontend

std::optional<FlatSystem> flattenModel(const std::vector<const ast::File *> &files, const std::string &modelName,
                                       Diagnostics &diags, ClassSource *library, ExternalCode *external) {
  frontend::Flattener flattener(files, diags, library);
  flattener.external_ = external;
  return flattener.run(modelName);
}

} // namespace eqc
