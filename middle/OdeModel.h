// The middle end's product: an explicit ODE x' = f(t, x, p) with algebraic outputs, plus the
// evaluation sequence that computes consistent initial values.
#pragma once

#include "middle/Causalize.h"
#include "middle/FlatSystem.h"

#include <iosfwd>
#include <optional>
#include <vector>

namespace eqc {

/// Where a variable lives at run time.
enum class Storage { Param, State, Derivative, Algebraic };
struct Slot {
  Storage storage;
  int index;
};

struct OdeModel {
  std::vector<int> states;     ///< x[i] is variable states[i]
  std::vector<int> algebraics; ///< a[i] is variable algebraics[i]
  std::vector<int> params;     ///< p[i] is variable params[i]
  std::vector<Slot> slots;     ///< per variable
  EquationSystem simulation;   ///< unknowns: derivatives and algebraics
  CausalSystem ode;            ///< computes dx and a from (t, x, p)
  EquationSystem initialization; ///< unknowns: non-fixed states, derivatives and algebraics
  CausalSystem init;
  std::vector<int> freeStates; ///< states determined by initial equations rather than start values
  /// dx[first] = x[second]: a state whose derivative is itself a state (x' = der(x) when der(der(x))
  /// occurs), the first-order lowering of higher derivatives.
  std::vector<std::pair<int, int>> chainCopies;
};

/// Assigns run-time storage to each variable and sets up the simulation and initialization
/// equation systems (each a square system) of an index-1 (or ODE) flat system.
/// Requires: a balanced FlatSystem. Ensures: `slots` covers every variable.
OdeModel setupOdeModel(const FlatSystem &flat, Diagnostics &diags);

/// Requires: `model.simulation`/`model.initialization` set up. Ensures: both causalized, or errors.
bool causalizeOdeModel(FlatSystem &flat, OdeModel &model, Diagnostics &diags);

} // namespace eqc
