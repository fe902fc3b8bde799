// The middle end's product: an explicit ODE x' = f(t, x, p) with algebraic outputs, the hidden
// constraints (invariants) of an index-reduced model, and the evaluation sequence that computes
// consistent initial values.
#pragma once

#include "middle/Causalize.h"
#include "middle/DummyDerivatives.h"
#include "middle/FlatSystem.h"
#include "middle/IndexReduction.h"
#include "middle/RowReduction.h"

#include <iosfwd>
#include <optional>
#include <vector>

namespace eqc {

/// Where a variable lives at run time.
enum class Storage { Param, State, Derivative, Algebraic, Discrete };
struct Slot {
  Storage storage;
  int index;
};

/// How the drift off the hidden constraints of an ODE with invariants is controlled.
enum class Stabilization {
  None,       ///< integrate the highest-order equations as they are
  Projection, ///< project the state onto all invariants after every step (runtime)
  Baumgarte,  ///< replace C^(k) = 0 by p(d/dt) C = 0 with p(s) = (s² + 2ηωs + ω²)^(k/2) (s + ω)^(k mod 2)
};

struct ReductionOptions {
  Stabilization stabilization = Stabilization::Projection;
  double eta = 1.0, omega = 10.0; ///< Baumgarte damping ratio and frequency
};

struct OdeModel {
  std::vector<int> states;     ///< x[i] is variable states[i]
  std::vector<int> algebraics; ///< a[i] is variable algebraics[i]
  std::vector<int> params;     ///< p[i] is variable params[i]
  /// Discrete variables (and conditions), p[discreteOffset() + i]; their values before the
  /// current event at p[preOffset() + i]; pre() of continuous variables (in when-clauses) at
  /// p[preContinuousOffset() + k]; p[initialFlagOffset()] is 1 while initializing.
  std::vector<int> discretes;
  std::vector<int> preContinuous;
  std::vector<Slot> slots;     ///< per variable
  EquationSystem simulation;   ///< highest-order equations; unknowns: highest derivatives and algebraics
  CausalSystem ode;            ///< computes dx and a from (t, x, p)
  EquationSystem invariants;   ///< hidden constraints g(t, x) = 0 (residuals and labels only)
  /// Index-reduced models: the invariants followed by the initial equations (on states only),
  /// the constraints that the consistent initial point satisfies.
  EquationSystem initialConstraints;
  /// Some initial constraint reads a variable that an algebraic loop of the ODE computes: the
  /// generated constraint function runs the ODE (rhs) first, from the start values of the loops'
  /// unknowns, and its Jacobian is taken by finite differences (the rows that read the ODE are
  /// dense in constraintJacobianPattern).
  bool initialConstraintsReadOde = false;
  EquationSystem initialization; ///< every equation; unknowns: non-fixed states, derivatives, algebraics
  CausalSystem init;
  std::vector<int> freeStates; ///< states determined by the (initial) equations rather than start values
  /// dx[first] = x[second]: a state whose derivative is itself a state (x' = der(x) when der(der(x))
  /// occurs), the first-order lowering of higher derivatives.
  std::vector<std::pair<int, int>> chainCopies;
  Stabilization stabilization = Stabilization::None;

  size_t discreteOffset() const { return params.size(); }
  size_t preOffset() const { return params.size() + discretes.size(); }
  size_t preContinuousOffset() const { return params.size() + 2 * discretes.size(); }
  size_t initialFlagOffset() const { return preContinuousOffset() + preContinuous.size(); }
  /// The delay histories the model reads (delay(), MLS 3.5, 3.7.2.1): at run time
  /// p[delayContextOffset()] holds the eqc_delay_context that keeps them (0 bits: none; every
  /// delay is then its expression's current value, as at the start).
  int delays = 0;
  /// Discrete variables or pre() of continuous ones: p has the event part after the parameters.
  bool hasEventPart() const { return !discretes.empty() || !preContinuous.empty(); }
  size_t delayContextOffset() const { return hasEventPart() ? initialFlagOffset() + 1 : params.size(); }
  /// Length of the p array the generated functions read.
  size_t pSize() const { return delayContextOffset() + (delays > 0 ? 1 : 0); }
};

/// Assigns run-time storage to each variable and sets up the simulation, invariant and
/// initialization systems of the (index-reduced) model.
/// Requires: `reduced` from reduceIndex on `flat`. Ensures: `slots` covers every variable; the
/// simulation system is square; errors (and a non-square initialization) when the fixed start
/// values over-determine the initialization problem.
OdeModel setupOdeModel(const FlatSystem &flat, const ReducedSystem &reduced, const ReductionOptions &options,
                       Diagnostics &diags);

/// The seeds' ODE with invariants: every column of `rows` a state, its rows (Baumgarte-stabilized on
/// request: the last derivative of a chain C_0 … C_{k-1} becomes C^(k) + Σ a_l C_l = 0), the
/// aliases and outputs computed after them, the constraints [algK] as invariants, and the
/// consistent initial point by projection.
/// Requires: rows.applies(), from reduceByRows on `flat`. Ensures: a square simulation system.
OdeModel setupRowReducedModel(const FlatSystem &flat, const RowReduction &rows, const ReductionOptions &options,
                              Diagnostics &diags);

/// The index-1 system of a dummy-derivative state selection: all augmented equations solved for
/// every variable except the selected states (no invariants: the constraints hold exactly).
/// Requires: `selection` from selectStates on `reduced`.
OdeModel setupDummyDerivativeModel(const FlatSystem &flat, const ReducedSystem &reduced,
                                   const StateSelection &selection);

/// reduceIndex followed by setupOdeModel (for tools and tests); nullopt when the structure is singular.
std::optional<OdeModel> buildOdeModel(FlatSystem &flat, Diagnostics &diags, const ReductionOptions &options = {});

/// Requires: `model.simulation`/`model.initialization` set up. Ensures: both causalized, or errors.
bool causalizeOdeModel(FlatSystem &flat, OdeModel &model, Diagnostics &diags);

/// Coefficients a_0..a_k (a_k = 1) of the Baumgarte polynomial of order k.
std::vector<double> baumgarteCoefficients(int order, double eta, double omega);

} // namespace eqc
