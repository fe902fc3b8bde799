// Forward sensitivities: the DAE extended by the derivatives of its unknowns with respect to
// parameters, generated symbolically (eqc simulate --sensitivities).
#pragma once

#include "middle/FlatSystem.h"
#include "support/Diagnostics.h"

#include <string>
#include <vector>

namespace eqc {

/// Requires: a flattened system (conditions extracted). `parameters` names real parameters that
/// fix no structure. Ensures: for each parameter p and each unknown v, an unknown `d(v)/d(p)`
/// (written to results like any unknown); for each equation and initial equation g = 0, the
/// equation dg/dp = sum_v (dg/dv) d(v)/d(p) + dg/dp|explicit = 0, where der(v) has the sensitivity
/// der(d(v)/d(p)) and a parameter bound to others has the derivative of its binding; start
/// values d(start)/dp, fixed where v's is. The extended system is a DAE of the same structure, so
/// index reduction, causalization and code generation treat it like any model. False, with an
/// error, for an unknown or unsuitable parameter, or for a model with events, delays or inputs
/// (sensitivities jump at events by rules eqc does not generate yet).
bool addSensitivities(FlatSystem &flat, const std::vector<std::string> &parameters, Diagnostics &diags);

} // namespace eqc
