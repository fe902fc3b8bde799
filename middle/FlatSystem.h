// The flat system: scalar variables and equations, the hand-over from the frontend to the middle end.
#pragma once

#include "middle/Expr.h"
#include "support/Diagnostics.h"

#include <cmath>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace eqc {

enum class VarRole {
  Parameter,  ///< fixed during a run, value from its binding (may depend on other parameters)
  Unknown,    ///< a declared time-varying variable
  Derivative, ///< der(v) of an Unknown v
  Discrete,   ///< changes only at events: assigned in when-clauses, Integer and Boolean variables,
              ///< and the relations that generate events (conditions)
  Input,      ///< a top-level `input Real u` of the simulated model: known at every time, given by
              ///< the caller (Modelica 3.5, 4.4.2.2); its binding is the default (start) value
};

/// A variable's type. A String variable (discrete, MLS 3.5, 3.8.3) holds the handle of its text
/// (eqc_string_handle in eqc_external.h): equal texts, equal numbers.
enum class ValueType { Real, Integer, Boolean, String };
/// The type's Modelica name.
inline const char *valueTypeName(ValueType t) {
  switch (t) {
  case ValueType::Integer:
    return "Integer";
  case ValueType::Boolean:
    return "Boolean";
  case ValueType::String:
    return "String";
  case ValueType::Real:
    break;
  }
  return "Real";
}
enum class StateSelect { Never, Avoid, Default, Prefer, Always };

/// One scalar variable. Expressions refer to it by its index in FlatSystem::vars.
struct Variable {
  std::string name;
  VarRole role = VarRole::Unknown;
  ValueType type = ValueType::Real;
  SourceRange loc;
  std::string description;
  std::string unit;
  /// Parameter: its binding; Unknown: its start value (both may reference parameters).
  const Expr *binding = nullptr;
  bool hasStart = false;
  bool fixed = false;
  const Expr *nominal = nullptr, *min = nullptr, *max = nullptr;
  StateSelect stateSelect = StateSelect::Default;
  int derivative = -1;   ///< Unknown: index of der(this), or -1
  int derivativeOf = -1; ///< Derivative: index of the differentiated variable
  /// Parameter: fixes array sizes, loop ranges or which equations exist, or its value was folded
  /// into the equations (annotation Evaluate = true, a final binding), so it cannot be changed
  /// after compilation.
  bool structural = false;
  /// Discrete: a condition of the Events pass, the value of `relation` frozen between events.
  const Expr *relation = nullptr;
  /// Made by eqc (conditions, when-conditions), not declared: not written to results by default.
  bool generated = false;
  /// Parameter: an unknown as declared, which an equation fixes from parameters alone (`A = a*b`
  /// of a flux tube's cross-section): computed by its binding, that equation solved for it
  /// (promoteParameterUnknowns); written to results as the variable it is, never set.
  bool computed = false;
  /// Discrete: holds an impure call's value for the rest of a step of the event iteration
  /// (ExprKind::Once, EQC_DISCRETE_ONCE); NaN at each step's start.
  bool heldCall = false;
  /// A top-level `output` of the simulated model (an FMU's outputs are these when there are any).
  bool output = false;
  /// Parameter: an external object (MLS 3.5, 12.9.7), made by its binding (a call of its
  /// constructor) when the model runs, its address held as a double's bits; freed by function
  /// `destructor` of the context.
  bool object = false;
  int destructor = -1;

  /// Parameters, discrete variables and inputs: not solved for (the first two are constant while
  /// the integrator runs; inputs are given functions of time).
  bool isKnown() const { return role == VarRole::Parameter || role == VarRole::Discrete || role == VarRole::Input; }
  /// Known, but changing while the integrator runs (an input).
  bool isTimeVaryingKnown() const { return role == VarRole::Input; }
};

/// Equation::number of the equations an algorithm section gives (MLS 3.5, 11.1: one per variable
/// it assigns).
constexpr int kAlgorithmSection = -1;

/// `lhs = rhs`, i.e. residual lhs - rhs = 0.
struct Equation {
  const Expr *lhs, *rhs;
  SourceRange loc;
  /// 1-based position in its section, for messages ("equation 3").
  int number = 0;
  /// Index into FlatSystem::origins (the component and loop indices it comes from), or -1.
  int origin = -1;
  /// 1-based position in the body of the for-equation it comes from when that body has several
  /// equations ("equation 3.2"), else 0.
  int part = 0;
  /// FlatSystem::residual's memo: the residual of (residualOf.first, residualOf.second). The
  /// passes ask for it several times; a rewritten lhs or rhs makes it stale by itself.
  mutable std::pair<const Expr *, const Expr *> residualOf{nullptr, nullptr};
  mutable const Expr *cachedResidual = nullptr;
};

/// One branch of a when-clause (`when` or `elsewhen`): fires when one of its conditions becomes
/// true and no earlier branch fires.
struct WhenBranch {
  /// Boolean expressions; after the Events pass, Boolean discrete variables.
  std::vector<const Expr *> conditions;
  /// Per condition: it contains initial(), so the branch fires during initialization when it
  /// holds (other conditions fire only when they become true after the start).
  std::vector<bool> initial;
  std::vector<std::pair<int, const Expr *>> assignments; ///< discrete variable := value
  std::vector<std::pair<int, const Expr *>> reinits;     ///< state := value (at the end of the event)
  std::string terminate;                                 ///< terminate("message"): ends the run
  bool terminates = false;
  /// Of a when-equation (MLS 3.5, 8.3.5): its equations hold together, so each assignment reads
  /// the values the branch's others give (they are made in dependency order). Otherwise (a
  /// when-statement of an algorithm, 11.2.7) the values are in terms of those before the branch.
  bool equations = false;
  SourceRange loc;
};

/// The order in which branch `br`'s assignments are made: with `br.equations` each after those
/// whose variables its value reads (a cycle keeps its members in their written order), else as
/// written.
std::vector<size_t> assignmentOrder(const WhenBranch &br);

/// `when c then ... elsewhen d then ... end when;`
struct WhenClause {
  std::vector<WhenBranch> branches;
  SourceRange loc;
  int origin = -1;
  /// A when-statement: the number of its algorithm section, -1 for a when-equation. The
  /// when-statements of one section may assign the same variables: at an event they run in
  /// their order (FlatSystem::whens keeps it), each reading what the earlier ones assigned
  /// (MLS 3.5, 11.1.2).
  int algorithm = -1;
};

/// A discrete variable defined outside when-clauses, e.g. `open = v < 0;`.
struct DiscreteEquation {
  int var;
  const Expr *value;
  SourceRange loc;
  int number = 0;
  int origin = -1;
};

/// One piece of an assertion's message: literal text, or a value formatted as Modelica's
/// String() formats it (MLS 3.5, 3.7.1: String(r, significantDigits = 6),
/// String(i, minimumLength, leftJustified), String(b), String(r, format = "...")).
struct MessagePart {
  std::string text;            ///< literal text (value null)
  const Expr *value = nullptr; ///< a Real, Integer or Boolean expression
  ValueType type = ValueType::Real;
  /// A printf conversion for the value without '%': ".6g", "-8d" (Integer values are printed as
  /// long long: the conversion is d, i, u, o, x or X), "5s" (Boolean: "true"/"false"; an
  /// enumeration value: the name of literal k).
  std::string format;
  std::vector<std::string> literals; ///< a value of an enumeration type: its literals' names
};

/// `assert(condition, message, level)` of an equation section (MLS 3.5, 8.3.7): it must hold at
/// the consistent initial point, after every accepted step and after every event; a failure stops
/// the run with the message (a warning is reported once and the run goes on).
struct Assertion {
  const Expr *condition;
  std::vector<MessagePart> message;
  bool warning = false;     ///< level = AssertionLevel.warning
  bool initialOnly = false; ///< in an initial equation section: checked at initialization only
  SourceRange loc;
  int origin = -1;
};

/// The flattened size of one component of the top-level model (`eqc check`).
struct ComponentSize {
  std::string name;      ///< `m` or `m[1000]` for an array of components
  std::string className;
  size_t unknowns = 0, equations = 0;
};

/// Defaults for `eqc simulate` from `annotation(experiment(...))`; < 0 means not given.
struct Experiment {
  double startTime = -1, stopTime = -1, tolerance = -1, interval = -1;
  bool hasStartTime = false, hasStopTime = false;
  /// From `annotation(__eqc(reduction = "invariants", stabilize = "baumgarte", eta = 1, omega = 10))`;
  /// empty or NaN when not given. Command-line options take precedence.
  std::string reduction, stabilize;
  double eta = NAN, omega = NAN;
};

/// The forward sensitivities of a model along one parameter p (eqc simulate --sensitivities,
/// middle/Sensitivities.h).
struct SensitivityParameter {
  int parameter = -1;
  /// A discrete Real that holds d(t_e)/d(p) while an event at t_e is handled (the run sets it
  /// from the indicator that crossed, 0 otherwise); -1 in a model without events.
  int eventTime = -1;
  /// Per variable of the model as flattened: the variable d(v)/d(p) (of unknowns and discrete
  /// Reals), or -1.
  std::vector<int> of;
  /// Per condition (a discrete variable with a relation): the derivative of its event indicator
  /// along p at fixed time, sum_v (d(z)/d(v)) d(v)/d(p) + d(z)/d(p).
  std::vector<std::pair<int, const Expr *>> indicators;
};

/// Everything the middle end needs: variables, equations, initial equations and the context.
struct FlatSystem {
  std::string modelName;
  std::string description;
  SourceRange loc;
  std::shared_ptr<ExprContext> ctx;
  std::vector<Variable> vars;
  std::vector<Equation> equations;
  std::vector<Equation> initialEquations;
  std::vector<WhenClause> whens;
  std::vector<DiscreteEquation> discreteEquations;
  std::vector<Assertion> assertions;
  /// The parameters of --sensitivities (addSensitivities), in their order.
  std::vector<SensitivityParameter> sensitivities;
  /// Discrete variables whose start an initial equation `pre(v) = e` gives where e reads unknowns
  /// that the simple and parameter equations may turn into parameters (MSL's AST_BatchPlant reads
  /// an input connected to a parameter): checked after those passes (checkPreStarts).
  std::vector<std::pair<int, SourceRange>> preStarts;
  /// Inputs whose time derivative timeDerivative() was asked for (index reduction of an equation
  /// that contains one): inputs have none, so the pipeline reports them.
  std::vector<int> differentiatedInputs;
  /// The discrete Boolean of terminal() (-1: not used): false until the terminal event, which the
  /// run sets it true for (EQC_DISCRETE_TERMINAL).
  int terminal = -1;
  /// Per delay history (ExprContext::numDelays): where its delay() is written.
  std::vector<SourceRange> delayLocs;
  /// Delays whose time derivative timeDerivative() was asked for: eqc has no derivative of a
  /// delay, so the pipeline reports them.
  std::vector<int> differentiatedDelays;
  std::vector<std::string> origins; ///< "m[3]", "i = 2", "m[3], i = 2", "connect(a.p, b.n)"
  std::vector<ComponentSize> componentSizes;
  Experiment experiment;

  /// A variable whose derivative occurs: x of der(x), and der(x) of der(der(x)).
  bool isState(int v) const { return !vars[v].isKnown() && vars[v].derivative >= 0; }
  /// "equation 3", "equation 3 of m[2]", "equation 3 (i = 5)": for messages.
  std::string equationLabel(const Equation &eq, const char *kind = "equation") const;
  /// Number of functions, discrete variables, when-clauses: whether the model has events.
  bool hasEvents() const { return !whens.empty() || !discreteEquations.empty(); }
  /// The residual lhs - rhs of an equation.
  const Expr *residual(const Equation &eq) const {
    if (!eq.cachedResidual || eq.residualOf.first != eq.lhs || eq.residualOf.second != eq.rhs) {
      eq.cachedResidual = ctx->sub(eq.lhs, eq.rhs);
      eq.residualOf = {eq.lhs, eq.rhs};
    }
    return eq.cachedResidual;
  }
  /// Printing name: `x`, `der(x)`, `der(der(x))`.
  std::string varName(int v) const;
  /// The variable der(v), created on first use. Requires: v is an Unknown or a Derivative.
  int derivativeVar(int v);
  /// Per variable: the highest derivative order that occurs in the equations (0 for none), at the
  /// variable itself, not at its derivatives.
  std::vector<int> sourceOrders() const;
  /// A copy with only the first `count` variables: the system as it was before a pass (Pantelides)
  /// added derivative variables. Requires: the equations name no variable from `count` on.
  FlatSystem prefixCopy(size_t count) const;
  /// Calls `f` on every expression of the system, as a reference it may replace: the variables'
  /// bindings, nominal, min, max and relations; the equations and initial equations; the
  /// when-clauses' conditions, assignments and reinits; the discrete equations; the assertions'
  /// conditions and message values; the sensitivities' indicators. Null ones are skipped.
  void forEachExpr(const std::function<void(const Expr *&)> &f);
  /// Prints the system in the form shown by `eqc check`.
  void print(std::ostream &os) const;
};

/// The positions in `params` (parameter variables, as OdeModel::params) of the parameters whose
/// binding reads other parameters of `params`, and of the external objects, each after the ones
/// it reads: what a parameter binding function recomputes when parameters change. Requires:
/// bindings without cycles (the frontend rejects cycles).
std::vector<int> dependentParameters(const FlatSystem &flat, const std::vector<int> &params);

/// Of dependentParameters(flat, params), in its order, the external objects (MLS 3.5, 12.9.7) and
/// the parameters that read them, directly or through others: what exists only while the model
/// runs (eqc_model.objects makes them); the rest is dependentParameters' remainder.
std::vector<int> objectParameters(const FlatSystem &flat, const std::vector<int> &params);

/// The positions in `states` (state variables, as OdeModel::states) whose start expression reads
/// a parameter of `params`.
std::vector<int> parameterDependentStarts(const FlatSystem &flat, const std::vector<int> &states,
                                          const std::vector<int> &params);

} // namespace eqc
