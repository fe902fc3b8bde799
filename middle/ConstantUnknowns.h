// Unknowns that an equation fixes to a constant (a grounded pin's `v = 0`, a current `i = 0*der(v)`
// after a zero capacitance was folded): the constant replaces them in the other equations.
#pragma once

#include "middle/FlatSystem.h"

namespace eqc {

/// Requires: a flattened system (before index reduction). Ensures: for each Real unknown x
/// without der(x) that an equation a·x + b = 0 (a, b constants, a ≠ 0) defines, every other
/// continuous equation reads the value −b/a instead of x; x keeps its own equation (it is still
/// computed and written). Repeated until no equation fixes another unknown, so a constant passes
/// along a chain of connections. Structural analysis then sees what the equations really read: a
/// term c·der(y) whose coefficient c is such an unknown with value 0 is gone, and y need not be a
/// state. Returns the number of unknowns replaced.
size_t substituteConstantUnknowns(FlatSystem &flat);

/// Requires: a flattened system (before index reduction). Ensures: an unknown x whose der(x) no
/// expression reads any more (its coefficient became 0: `i = C*der(v)` with C = 0 folded) and
/// without a fixed start value is no longer a state: der(x) becomes a generated parameter that
/// nothing reads (it is not written), so that index reduction does not differentiate equations
/// to find a derivative that no equation asks for. Returns the number of such unknowns.
size_t unlinkUnreadDerivatives(FlatSystem &flat);

} // namespace eqc
