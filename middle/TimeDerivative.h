// The total time derivative d/dt of an expression: chain rule over every variable, time' = 1.
#pragma once

#include "middle/ExprOps.h"
#include "middle/FlatSystem.h"

namespace eqc {

/// d e / dt = Σ_v ∂e/∂v · der(v) + ∂e/∂time, with parameters constant. Inputs are taken as
/// constant too, and those that matter are listed in flat.differentiatedInputs (an error for the
/// caller to report: an input has no derivative).
/// Requires: `e` real-valued. Ensures: a canonical expression; der(v) variables are created in
/// `flat` on first use (so der(der(x)) appears when e contains der(x)).
const Expr *timeDerivative(FlatSystem &flat, Differentiator &diff, const Expr *e);

} // namespace eqc
