// Simple equations, removed from structural analysis before matching: unknowns that an equation
// fixes to a constant (a grounded pin's `v = 0`, a current `i = 0*der(v)` after a zero capacitance
// was folded) and aliases (`a = b`, `a = -b`, which connections make by the thousand).
#pragma once

#include "middle/FlatSystem.h"

namespace eqc {

/// What substituteSimpleEquations replaced.
struct SimpleEquations {
  size_t constants = 0; ///< unknowns fixed to a constant
  size_t aliases = 0;   ///< unknowns equal to another one, or to its negation
  size_t promoted = 0;  ///< unknowns that equations fix from parameters (promoteParameterUnknowns)
};

/// Requires: a flattened system (before index reduction). Ensures: for each Real unknown x
/// without der(x) that an equation a·x + c = 0 (a, c constants, a ≠ 0) defines, every other
/// continuous equation reads the value −c/a instead of x; likewise x = ±y for an equation
/// a·x ± a·y = 0 (y another unknown; of two such, the one with a start value is kept). x keeps
/// its own equation, so it is still computed (after y) and written. Repeated until no equation
/// defines another unknown, so a constant passes along a chain of connections and a connection
/// set's potentials become one unknown. Structural analysis then sees what the equations really
/// read: a term c·der(y) whose coefficient c is such an unknown with value 0 is gone (y need not
/// be a state), and currents that cancel (`i_s - i_s` of a supply's two pins) decouple the blocks
/// they joined; the algebraic loops shrink.
SimpleEquations substituteSimpleEquations(FlatSystem &flat);

/// Requires: a flattened system (before index reduction). Ensures: an unknown x whose der(x) no
/// expression reads any more (its coefficient became 0: `i = C*der(v)` with C = 0 folded) and
/// without a fixed start value is no longer a state: der(x) becomes a generated parameter that
/// nothing reads (it is not written), so that index reduction does not differentiate equations
/// to find a derivative that no equation asks for. Returns the number of such unknowns.
size_t unlinkUnreadDerivatives(FlatSystem &flat);

/// Requires: a flattened system (before index reduction). Ensures: a Real unknown x without
/// der(x), not a top-level output, without a fixed start value and not read by an initial
/// equation, that an equation fixes from parameters alone (it reads no other unknown, no time,
/// pre(), delay(), initial(), discrete variable, input or impure call) and that can be solved
/// for it (x occurs linearly, or as 1/x) becomes a parameter computed by that equation solved
/// for it (Variable::computed); the equation is removed. Repeated until no equation is left
/// whose unknowns were all promoted but one, so `A = a*b; B = Phi/A` makes A a parameter: it
/// never changes, and index reduction no longer differentiates its equation into der(A) nor
/// makes it a state starting at 0. Returns the number of unknowns promoted.
size_t promoteParameterUnknowns(FlatSystem &flat);

} // namespace eqc
