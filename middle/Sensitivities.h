// Forward sensitivities: the DAE extended by the derivatives of its unknowns with respect to
// parameters, generated symbolically, with their jumps at events (eqc simulate --sensitivities).
#pragma once

#include "middle/FlatSystem.h"
#include "support/Diagnostics.h"

#include <string>
#include <vector>

namespace eqc {

/// Requires: a flattened system (conditions extracted). `parameters` names real parameters that
/// fix no structure. Ensures: flat.sensitivities has one entry per parameter p; for each unknown
/// and each discrete Real v, a variable `d(v)/d(p)` of the same role (written to results like
/// v); for each equation and initial equation g = 0, the equation dg/dp = sum_v (dg/dv) d(v)/d(p)
/// + dg/dp|explicit = 0, where der(v) has the sensitivity der(d(v)/d(p)), pre(v) has
/// pre(d(v)/d(p)) and a parameter bound to others has the derivative of its binding; start
/// values d(start)/dp, fixed where v's is. The extended system is a DAE of the same structure, so
/// index reduction, causalization and code generation treat it like any model.
/// At events (a model with events): a discrete d(t_e)/d(p) that the run sets while it handles an
/// event at t_e (-(d(z)/d(p)) / (dz/dt) of the indicator z that crossed; 0 at other events); a
/// state's sensitivity jumps by (f- - f+) d(t_e)/d(p) (the runtime adds f- d(t_e)/d(p) before
/// the event iteration and subtracts f+ d(t_e)/d(p) after it, f the derivatives), and the
/// event's own changes have theirs: a when-branch that assigns v := h or reinit(v, h) also
/// assigns or reinitializes d(v)/d(p) := dh/dp + (dh/dtime) d(t_e)/d(p), a discrete equation
/// likewise. Inputs (given functions of time) have none. False, with an error, for an unknown or
/// unsuitable parameter, or for a model with delays.
bool addSensitivities(FlatSystem &flat, const std::vector<std::string> &parameters, Diagnostics &diags);

/// The variable d(v)/d(p) of sensitivity `s` for an unknown or a discrete Real v, der of that of
/// a derivative v, or -1.
int sensitivityOf(const FlatSystem &flat, const SensitivityParameter &s, int v);

/// Requires: a causalized model with events and sensitivities, `states` and `discretes` its
/// (OdeModel's). Ensures: true where every state's sensitivity is a state and every d(t_e)/d(p) a
/// discrete variable (the jumps at events are made on them); else false with an error naming the
/// state.
bool checkSensitivityStates(const FlatSystem &flat, const std::vector<int> &states,
                            const std::vector<int> &discretes, Diagnostics &diags);

} // namespace eqc
