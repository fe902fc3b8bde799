// Consistent initial values: parameters (with overrides), start values, the generated init or the
// projection onto the hidden constraints of an index-reduced model, then the algebraic variables.
#include "driver/Initialize.h"

#include "eqc/eqc_external.h"

#include "driver/Events.h"
#include "middle/Function.h"

#include "driver/RunState.h"
#include "middle/ExprOps.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace eqc {
namespace {

bool parseDouble(const std::string &text, double &out) {
  char *end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && std::isfinite(out);
}

/// Parameter values in dependency order; overridden parameters keep the given value and the
/// parameters bound to them are recomputed.
bool evaluateParameters(const FlatSystem &flat, const OdeModel &model,
                        const std::vector<std::pair<std::string, std::string>> &parameters, std::vector<double> &values,
                        std::vector<char> &overridden, Diagnostics &diags, std::ostream &err) {
  overridden.assign(flat.vars.size(), 0);
  // External objects and what reads them exist only when the model runs: made by the model's
  // `objects` (startPoint), 0 until then.
  std::vector<char> runtime(flat.vars.size(), 0);
  for (int k : objectParameters(flat, model.params))
    runtime[static_cast<size_t>(model.params[static_cast<size_t>(k)])] = 1;
  for (const auto &[name, text] : parameters) {
    int found = -1;
    for (size_t i = 0; i < flat.vars.size(); ++i)
      if (flat.vars[i].name == name && flat.vars[i].role == VarRole::Parameter)
        found = static_cast<int>(i);
    if (found < 0) {
      bool input = false;
      for (const Variable &v : flat.vars)
        input = input || (v.name == name && v.role == VarRole::Input);
      err << "eqc: error: -p " << name << "=" << text << ": '" << name << "' is "
          << (input ? "an input of model '" + flat.modelName + "': give its values with --input FILE.csv"
                    : "not a parameter of model '" + flat.modelName + "'")
          << "\n";
      return false;
    }
    if (flat.vars[found].object) {
      err << "eqc: error: -p " << name << "=" << text << ": '" << name
          << "' is an external object (MLS 3.5, 12.9.7), made by its constructor when the model runs\n";
      return false;
    }
    if (flat.vars[found].computed) {
      err << "eqc: error: -p " << name << "=" << text << ": '" << name
          << "' is a variable of the model, which its equation computes from parameters; change those\n";
      return false;
    }
    if (flat.vars[found].structural) {
      err << "eqc: error: -p " << name << "=" << text << ": '" << name
          << "' fixes the model's structure (array sizes, loop ranges, which equations exist, or a value "
             "folded when compiled: annotation Evaluate = true or a final binding); change it in the model\n";
      return false;
    }
    double v;
    if (!parseDouble(text, v)) {
      err << "eqc: error: -p " << name << "=" << text << ": '" << text << "' is not a finite number\n";
      return false;
    }
    values[found] = v;
    overridden[found] = 1;
  }
  std::vector<char> done(overridden);
  for (size_t v = 0; v < runtime.size(); ++v)
    if (runtime[v] && !done[v])
      values[v] = 0, done[v] = 1;
  std::function<double(int)> value = [&](int v) -> double {
    if (!done[v]) {
      if (flat.vars[v].binding)
        for (int dep : collectAllVars(flat.vars[v].binding))
          value(dep);
      values[v] = flat.vars[v].binding ? evaluate(flat.vars[v].binding, values) : 0.0; // an input without start: 0
      done[v] = 1;
    }
    return values[v];
  };
  for (int v : model.params) {
    double x = value(v);
    if (!std::isfinite(x) && !runtime[static_cast<size_t>(v)]) {
      diags.error(flat.vars[v].loc, "parameter '" + flat.vars[v].name + "' evaluates to " + formatNumber(x));
      return false;
    }
  }
  return true;
}

} // namespace

static std::string loopDescription(const FlatSystem &flat, const CausalSystem &cs, const EquationSystem &sys,
                            int loop) {
  const AlgebraicLoop &l = cs.loops[loop];
  std::string vars;
  for (size_t i = 0; i < l.vars.size(); ++i)
    vars += (i ? ", " : "") + flat.varName(l.vars[i]);
  std::string eqs;
  for (size_t i = 0; i < l.equations.size(); ++i)
    eqs += (i ? ", " : "") + sys.labels[l.equations[i]];
  for (size_t i = 0; i < l.tornEquations.size(); ++i)
    eqs += ", " + sys.labels[l.tornEquations[i]];
  if (l.linear)
    return "the linear equations " + eqs + " are singular in " + vars;
  std::string torn;
  for (size_t i = 0; i < l.tornVars.size(); ++i)
    torn += (i ? ", " : "") + flat.varName(l.tornVars[i]);
  return "Newton's method did not converge solving " + eqs + " for " + vars +
         (torn.empty() ? "" : " (with " + torn + " computed from them)");
}

std::string describeModelCode(const Compilation &c, const CausalSystem &cs, const EquationSystem &sys, int code) {
  int loop = code - EQC_MODEL_LOOP_FAILURE_BASE;
  if (rt::isProjectionFailure(code))
    return std::string("projection onto the hidden constraints failed: ") + eqc_status_message(code - kProjectionFailureBase);
  if (loop >= 0 && loop < static_cast<int>(cs.loops.size()))
    return loopDescription(*c.flat, cs, sys, loop);
  return "the model function failed with code " + std::to_string(code);
}

void reportAssertion(Compilation &c, int assertion, const std::string &message, double t, bool warning) {
  const FlatSystem &flat = *c.flat;
  if (assertion < 0 || assertion >= static_cast<int>(flat.assertions.size())) {
    c.diags->error(flat.loc, "at time " + brief(t, 12) + ": assertion failed: " + message);
    return;
  }
  const Assertion &a = flat.assertions[static_cast<size_t>(assertion)];
  std::string text = "at time " + brief(t, 12) + ": assertion failed: " + message;
  if (a.origin >= 0 && a.origin < static_cast<int>(flat.origins.size()))
    text += " (in " + flat.origins[static_cast<size_t>(a.origin)] + ")";
  if (warning)
    c.diags->warning(a.loc, text);
  else
    c.diags->error(a.loc, text);
}

void reportModelCode(Compilation &c, const CausalSystem &cs, const EquationSystem &sys, int code, double t) {
  int loop = code - EQC_MODEL_LOOP_FAILURE_BASE;
  std::string at = "at time " + brief(t) + ": ";
  if (rt::isProjectionFailure(code))
    c.diags->error(c.flat->loc, at + describeModelCode(c, cs, sys, code));
  else if (loop >= 0 && loop < static_cast<int>(cs.loops.size())) {
    c.diags->error(sys.locs[cs.loops[loop].equations.front()], at + loopDescription(*c.flat, cs, sys, loop));
    if (cs.loops[loop].linear && c.reduced && c.reduced->differentiated())
      c.diags->note(SourceRange{},
                    "after index reduction a singular block means that, at this point and for these "
                    "parameter values, the model needs more differentiations than its generic "
                    "structure (e.g. the coefficient of a highest derivative vanishes)");
  } else if (code >= EQC_MODEL_FUNCTION_FAILURE_BASE) {
    int fn = (code - EQC_MODEL_FUNCTION_FAILURE_BASE) / 1024, reason = (code - EQC_MODEL_FUNCTION_FAILURE_BASE) % 1024;
    if (fn < static_cast<int>(c.flat->ctx->numFunctions())) {
      const Function &f = c.flat->ctx->function(fn);
      // Assertion k: the k-th assert statement of the function, in statement order.
      const FnStatement *assertion = nullptr;
      int k = 0;
      std::function<void(const std::vector<FnStatement> &)> find = [&](const std::vector<FnStatement> &block) {
        for (const FnStatement &st : block) {
          if (st.kind == FnStatement::Assert && k++ == reason - kFunctionAssertionFailed)
            assertion = &st;
          for (const auto &b : st.blocks)
            find(b);
        }
      };
      find(f.body);
      if (assertion) // a message the function computed is the thread's error message
        c.diags->error(assertion->loc, at + "assertion failed in function '" + f.name +
                                           "': " + (assertion->text ? eqc_external_error() : assertion->message));
      else if (reason == kFunctionExternalError)
        c.diags->error(f.loc, at + "function '" + f.name + "' failed: " + eqc_external_error());
      else if (reason == kFunctionTooDeep)
        c.diags->error(f.loc, at + "function '" + f.name + "' calls itself more than 10000 deep (endless recursion?)");
      else
        c.diags->error(f.loc, at + "function '" + f.name + "' failed: an index is out of bounds");
    } else {
      c.diags->error(SourceRange{}, at + "a function of the model failed (code " + std::to_string(code) + ")");
    }
  } else
    c.diags->error(SourceRange{}, at + "the model function failed with code " + std::to_string(code));
}


ExitCode startPoint(Compilation &c, const std::vector<std::pair<std::string, std::string>> &parameters, double t0,
                    InitialPoint &ip, std::ostream &err, const InputSeries *inputs) {
  FlatSystem &flat = *c.flat;
  OdeModel &model = *c.model;
  std::vector<double> values(flat.vars.size(), 0.0);
  std::vector<char> overridden;
  if (!evaluateParameters(flat, model, parameters, values, overridden, *c.diags, err))
    return parameters.empty() ? ExitSimulation : ExitUsage;
  ip.p.clear();
  for (int v : model.params)
    ip.p.push_back(values[v]);
  if (inputs)
    inputs->apply(t0, ip.p.data());
  ip.p.resize(model.pSize(), 0.0);
  if (eqc_model_bind_fn objects = c.jit->objects) {
    // The external objects, made here (and freed with the last copy of ip), and what reads them.
    std::vector<unsigned char> given;
    for (int v : model.params)
      given.push_back(overridden[static_cast<size_t>(v)] ? 1 : 0);
    int code = objects(given.data(), ip.p.data());
    ip.objects = std::make_shared<ObjectRelease>(c.jit->release, ip.p);
    if (code != 0) {
      reportModelCode(c, model.ode, model.simulation, code, t0);
      return ExitSimulation;
    }
    for (size_t k = 0; k < model.params.size(); ++k)
      values[static_cast<size_t>(model.params[k])] = ip.p[k];
  }
  ip.x.assign(model.states.size(), 0.0);
  ip.dx.assign(model.states.size(), 0.0);
  ip.a.assign(model.algebraics.size(), 0.0);
  for (size_t i = 0; i < model.states.size(); ++i) {
    const Variable &v = flat.vars[model.states[i]];
    ip.x[i] = v.hasStart ? evaluate(v.binding, values) : 0.0;
  }
  for (size_t i = 0; i < model.algebraics.size(); ++i) {
    const Variable &v = flat.vars[model.algebraics[i]];
    ip.a[i] = v.hasStart ? evaluate(v.binding, values) : 0.0;
  }
  return ExitOk;
}

bool startConditions(Compilation &c, double t, InitialPoint &ip, bool fromAlgebraics) {
  const OdeModel &model = *c.model;
  const FlatSystem &flat = *c.flat;
  bool changed = false;
  std::vector<double> z;
  size_t k = 0;
  for (int v : model.discretes)
    if (const Expr *relation = flat.vars[v].relation) {
      if (z.empty()) {
        z.resize(model.discretes.size());
        // Where rhs fails at the start values (a loop singular with the conditions at their
        // start), the indicators read the point as far as it got (as eqc_sim does).
        if (!fromAlgebraics)
          (void)c.jit->rhs(t, ip.x.data(), ip.dx.data(), ip.a.data(), ip.p.data());
        if (c.jit->zc.load()(t, ip.x.data(), ip.dx.data(), ip.a.data(), ip.p.data(), z.data()) != 0)
          return false; // not evaluable at the start values: the conditions keep their start
      }
      const double zk = z[k++];
      const double holds = zk > 0 || (zk == 0 && relation->kind() == ExprKind::Le) ? 1.0 : 0.0;
      double &value = ip.p[model.discreteOffset() + static_cast<size_t>(model.slots[v].index)];
      changed = changed || value != holds;
      value = holds;
    }
  return changed;
}

/// After a failed projection onto the initial constraints: the error at the worst constraint
/// (with the fixed values held), and a note on why — too many fixed values, constraints that
/// are dependent for these parameter values, or start values where the constraints are singular
/// (a rank deficient at `x` but full at a perturbed point, the fixed states kept).
static void reportInconsistentStart(Compilation &c, InvariantProjector &initial, double t0, const std::vector<double> &x,
                                    const std::vector<int> &movable, double worst, int which) {
  const FlatSystem &flat = *c.flat;
  const OdeModel &model = *c.model;
  std::string fixed;
  for (int v : model.states)
    if (flat.vars[v].fixed)
      fixed += (fixed.empty() ? "" : ", ") + flat.vars[v].name + " = " + brief(x[model.slots[v].index]);
  std::string label = which >= 0 ? model.initialConstraints.labels[which] : std::string("the constraints");
  c.diags->error(which >= 0 ? model.initialConstraints.locs[which] : flat.loc,
                 "at time " + brief(t0) + ": no consistent initial values: " + label +
                     " cannot be satisfied (residual " + brief(worst, 3) + ")" +
                     (fixed.empty() ? "" : " with the fixed start values " + fixed));
  std::vector<int> all(model.states.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = static_cast<int>(i);
  size_t m = initial.size();
  std::vector<double> nearby = x;
  std::vector<bool> isMovable(x.size(), false);
  for (int i : movable)
    isMovable[i] = true;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < nearby.size(); ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    double r = static_cast<double>(seed >> 11) / 9007199254740992.0 * 2 - 1; // in [-1, 1)
    if (isMovable[i])
      nearby[i] += 0.1 * r * (1 + std::fabs(nearby[i]));
  }
  auto deficient = [&](const std::vector<int> &cols, const std::vector<double> &at) {
    int rank = initial.rank(t0, at.data(), cols);
    return rank >= 0 && static_cast<size_t>(rank) < std::min(m, cols.size());
  };
  const size_t invariants = model.invariants.residuals.size(); // the initial equations impose values
  size_t dof = model.states.size() > invariants ? model.states.size() - invariants : 0;
  if (movable.size() < m || deficient(movable, nearby)) {
    if (deficient(all, nearby))
      c.diags->note(SourceRange{},
                    "the " + std::to_string(m) +
                        " hidden constraints are dependent for these parameter values, so the structure "
                        "differs from the generic one that index reduction assumed (more differentiations "
                        "would be needed)");
    else
      c.diags->note(SourceRange{},
                    std::string(flat.initialEquations.empty() ? "the fixed start values"
                                                              : "the fixed start values and the initial equations") +
                        " over-determine the constraints: the model has " + std::to_string(dof) +
                        (dof == 1 ? " degree" : " degrees") +
                        " of freedom, so at most that many independent values can be imposed");
  } else if (deficient(movable, x)) {
    std::string names;
    for (size_t k = 0; k < movable.size() && k < 6; ++k)
      names += (k ? ", " : "") + flat.vars[model.states[movable[k]]].name;
    if (movable.size() > 6)
      names += ", ...";
    c.diags->note(SourceRange{},
                  "the constraints are singular at the start values: their Jacobian with respect to the "
                  "free variables (" + names + ") loses rank there, though not nearby; give these variables "
                  "start values nearer a solution");
  }
}

/// The discrete variables (and the when-clauses that initial() fires) from the conditions and the
/// point as they are, as eqc_sim's initialWhenClauses: only discrete values are kept, a failure
/// is none.
static void discretesAt(Compilation &c, double t0, InitialPoint &ip) {
  const size_t params = c.model->params.size();
  std::vector<double> xs(ip.x), dxs(ip.dx), as(ip.a), ps(ip.p);
  if (eqc_model_event_fn event = c.jit->event;
      event && event(t0, xs.data(), dxs.data(), as.data(), ps.data()) == 0)
    std::copy(ps.begin() + static_cast<long>(params), ps.end(), ip.p.begin() + static_cast<long>(params));
}

ExitCode consistentInitialPoint(Compilation &c, const std::vector<std::pair<std::string, std::string>> &parameters,
                                double t0, InitialPoint &ip, std::unique_ptr<InvariantProjector> &projector,
                                std::ostream &err, const InputSeries *inputs) {
  FlatSystem &flat = *c.flat;
  OdeModel &model = *c.model;
  if (ExitCode e = startPoint(c, parameters, t0, ip, err, inputs); e != ExitOk)
    return e;
  // The discrete variables' start values (the generated discrete_start, as every table's), and
  // the when-clauses that initial() fires done once on the start values (as eqc_sim does, before
  // anything reads what they give; only discrete values are kept, a failure is none).
  if (model.hasEventPart()) {
    if (int code = c.jit->discreteStart.load()(ip.p.data())) {
      reportModelCode(c, model.ode, model.simulation, code, t0);
      return ExitSimulation;
    }
    discretesAt(c, t0, ip);
  }
  std::vector<double> &x = ip.x, &dx = ip.dx;

  if (!model.invariants.residuals.empty()) {
    // Consistent initial values: the non-fixed states move (as little as possible) onto every
    // hidden constraint; then rhs gives the derivatives and algebraic variables.
    projector = std::make_unique<InvariantProjector>(*c.jit, model, ip.p.data());
    InvariantProjector initial(*c.jit, model, ip.p.data(), /*initial=*/true);
    std::vector<int> movable;
    for (int v : model.freeStates)
      movable.push_back(model.slots[v].index);
    double residual = 0;
    // The conditions (time < startTime, ...) hold what they hold at the start point, before and
    // after the projection moves it (again while that changes them).
    int status = EQC_OK;
    for (int round = 0; round < 4; ++round) {
      const bool changed = startConditions(c, t0, ip);
      if (changed && model.hasEventPart())
        discretesAt(c, t0, ip);
      if (round > 0 && !changed)
        break;
      // Constraints that run the ODE need a point where it can be evaluated (a rotation matrix
      // that is one, not its start value 0): first onto the invariants alone (as eqc_sim).
      if (int failure = 0; std::isnan(initial.maxResidual(t0, x.data(), nullptr, &failure)) && failure != 0) {
        const std::vector<double> start = x;
        if (projector->project(t0, x.data(), movable, kProjectionTol, &residual) != EQC_OK)
          x = start; // the whole projection below reports what fails
      }
      status = initial.project(t0, x.data(), movable, kProjectionTol, &residual);
      if (status != EQC_OK)
        break;
    }
    int which = -1, failure = 0;
    double worst = initial.maxResidual(t0, x.data(), &which, &failure);
    if (failure != 0) { // the constraints read the ODE (initialConstraintsReadOde), which failed there
      c.diags->error(flat.loc, "at time " + brief(t0) + ": no consistent initial values: evaluating the initial "
                               "constraints failed: " + describeModelCode(c, model.ode, model.simulation, failure));
      return ExitSimulation;
    }
    if (status != EQC_OK || !(worst <= 1e-8)) {
      reportInconsistentStart(c, initial, t0, x, movable, worst, which);
      return ExitSimulation;
    }
  }
  const std::vector<double> startX = x, startA = ip.a;
  int code = projector ? c.jit->rhs(t0, x.data(), dx.data(), ip.a.data(), ip.p.data())
                       : c.jit->init(t0, x.data(), dx.data(), ip.a.data(), ip.p.data());
  // An initialization that fails with the conditions at their start values may be solvable with
  // the values their relations take where it got to (MSL's vessels: `regularFlow = level >=
  // height` is false by default, and with it every port's flow zero, a singular loop): the
  // initial event iteration, from the same start point, before giving up.
  for (int round = 0; code && !projector && model.hasEventPart() && round < 4; ++round) {
    if (!startConditions(c, t0, ip, /*fromAlgebraics=*/true))
      break;
    discretesAt(c, t0, ip);
    x = startX;
    ip.a = startA;
    code = c.jit->init(t0, x.data(), dx.data(), ip.a.data(), ip.p.data());
  }
  if (code) {
    const CausalSystem &cs = projector ? model.ode : model.init;
    reportModelCode(c, cs, projector ? model.simulation : model.initialization, code, t0);
    int loop = code - EQC_MODEL_LOOP_FAILURE_BASE;
    if (loop >= 0 && loop < static_cast<int>(cs.loops.size()) && !cs.loops[loop].linear)
      c.diags->note(SourceRange{},
                    "initialization failed; give better start values to the variables of the loop");
    return ExitSimulation;
  }
  for (size_t i = 0; i < flat.vars.size(); ++i) {
    const Slot &slot = model.slots[i];
    double v = slot.storage == Storage::State        ? x[slot.index]
               : slot.storage == Storage::Derivative ? dx[slot.index]
               : slot.storage == Storage::Algebraic  ? ip.a[slot.index]
                                                     : 0.0;
    if (!std::isfinite(v)) {
      c.diags->error(flat.vars[i].loc, "at time " + brief(t0) + ": initialization gives " +
                                           flat.varName(static_cast<int>(i)) + " = " + formatNumber(v));
      return ExitSimulation;
    }
  }
  return ExitOk;
}

} // namespace eqc
