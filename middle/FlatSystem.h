// The flat system: scalar variables and equations, the hand-over from the frontend to the middle end.
#pragma once

#include "middle/Expr.h"
#include "support/Diagnostics.h"

#include <cmath>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace eqc {

enum class VarRole {
  Parameter,  ///< fixed during a run, value from its binding (may depend on other parameters)
  Unknown,    ///< a declared time-varying variable
  Derivative, ///< der(v) of an Unknown v
};

enum class ValueType { Real, Integer, Boolean };
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
};

/// `lhs = rhs`, i.e. residual lhs - rhs = 0.
struct Equation {
  const Expr *lhs, *rhs;
  SourceRange loc;
  /// 1-based position in its section, for messages ("equation 3").
  int number = 0;
};

/// Defaults for `eqc simulate` from `annotation(experiment(...))`; < 0 means not given.
struct Experiment {
  double startTime = -1, stopTime = -1, tolerance = -1, interval = -1;
  bool hasStartTime = false;
  /// From `annotation(__eqc(reduction = "invariants", stabilize = "baumgarte", eta = 1, omega = 10))`;
  /// empty or NaN when not given. Command-line options take precedence.
  std::string reduction, stabilize;
  double eta = NAN, omega = NAN;
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
  Experiment experiment;

  /// A variable whose derivative occurs: x of der(x), and der(x) of der(der(x)).
  bool isState(int v) const { return vars[v].role != VarRole::Parameter && vars[v].derivative >= 0; }
  /// The residual lhs - rhs of an equation.
  const Expr *residual(const Equation &eq) const { return ctx->sub(eq.lhs, eq.rhs); }
  /// Printing name: `x`, `der(x)`, `der(der(x))`.
  std::string varName(int v) const;
  /// The variable der(v), created on first use. Requires: v is an Unknown or a Derivative.
  int derivativeVar(int v);
  /// Prints the system in the form shown by `eqc check`.
  void print(std::ostream &os) const;
};

} // namespace eqc
