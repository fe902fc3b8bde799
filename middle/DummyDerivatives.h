// Dummy derivatives (Mattsson–Söderlind): choose dof state variables of the Pantelides-augmented
// system so that every other variable, the dummy derivatives included, is locally a function of
// them; the choice is numeric, at a consistent point, and honours stateSelect.
#pragma once

#include "middle/ExprOps.h"
#include "middle/FlatSystem.h"
#include "middle/IndexReduction.h"

#include <string>
#include <vector>

namespace eqc {

/// One state selection (a "mode" of dynamic state selection).
struct StateSelection {
  std::vector<int> states;  ///< variables integrated, ascending
  std::vector<int> dummies; ///< derivatives made algebraic, ascending
  /// The smallest pivot of the selected columns relative to the largest entry of its level:
  /// a measure of how well the dummy blocks are conditioned at the point (1 is best).
  double quality = 0;
  bool operator==(const StateSelection &o) const { return states == o.states; }
};

/// Per variable: its kinematic level, 1 + the level of u for an equation c*der(u) = d*v of the
/// model (c, d constants or parameter expressions; v gets the level) and for der(u) itself, 0 for
/// the others: positions 0, velocities 1, the derivatives of velocities 2. With `integrated`:
/// per variable, whether it is such a u (a position or velocity whose rate is another variable).
std::vector<int> kinematicLevels(const FlatSystem &flat, std::vector<char> *integrated = nullptr);

/// The factor by which stateSelect = always scales how much a derivative is wanted as a dummy.
constexpr double kAlwaysWeight = 1e-6;

/// Requires: `reduced` from reduceIndex on `flat`; `values` (indexed by variable) hold a consistent
/// point at time t, including every derivative. Ensures: a selection with dof states whose dummy
/// blocks are numerically nonsingular at the point, or `ok == false` when some level has no
/// nonsingular choice (the point is singular for the model, e.g. alpha = 1 in seed 004).
/// `preference` (indexed by variable, may be null) multiplies how much each derivative is wanted
/// as a dummy: below 1 steers the choice away from a selection whose dummy blocks failed.
StateSelection selectStates(const FlatSystem &flat, const ReducedSystem &reduced, const std::vector<double> &values,
                            double t, Differentiator &diff, bool &ok,
                            const std::vector<double> *preference = nullptr);

/// Evaluates how well `selection` is conditioned at a point (same measure as `quality`).
double selectionQuality(const FlatSystem &flat, const ReducedSystem &reduced, const StateSelection &selection,
                        const std::vector<double> &values, double t, Differentiator &diff);

/// "x, vx" — for messages and --stats (the first 50, then "..., (N states)").
/// What selectionQuality of a selection reads at a point: the variables (ascending; pre(v) as v)
/// and whether time. `known` is false when it reads anything else, or the selection is singular
/// at the point where this was found (then the quality must be evaluated at every point). Same
/// inputs, same quality: a monitor need not evaluate it again while they hold their values (the
/// conductances of a switched network between its events).
struct SelectionInputs {
  std::vector<int> vars;
  bool time = false;
  bool known = true;
};
SelectionInputs selectionInputs(const FlatSystem &flat, const ReducedSystem &reduced, const StateSelection &selection,
                                const std::vector<double> &values, double t, Differentiator &diff);

std::string describeStates(const FlatSystem &flat, const StateSelection &s);

} // namespace eqc
