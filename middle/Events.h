// Events: the relations that switch a model's behaviour become conditions, frozen between events.
#pragma once

#include "middle/FlatSystem.h"

namespace eqc {

/// Replaces every relation a < b, a <= b (a > b and a >= b are stored swapped) that depends on
/// time or on a continuous unknown, outside noEvent(), in the equations, the discrete equations
/// and the when-conditions by a condition: a Boolean discrete variable whose `relation` is the
/// relation. Its event indicator is b - a (the condition holds when it is positive); the
/// integrator locates where an indicator changes sign, and the condition changes only there.
/// floor(), ceil() and sign() of continuous arguments (and so integer(), div(), rem(), and mod()
/// through expandJumps: every builtin whose events are not Smooth in middle/Builtins.def)
/// jump at events too: each becomes a discrete variable or an if-expression of conditions whose
/// indicators cross where the function jumps.
/// Every when-condition becomes a Boolean discrete variable (defined by a discrete equation), so
/// that a branch fires where such a variable changes from false (pre) to true. Discrete equations
/// are sorted so that each follows the ones it reads (where there is no cycle).
/// Requires: a flattened system. Ensures: equations read conditions instead of live relations;
/// when-clause bodies keep their relations (they are evaluated only at events).
void extractConditions(FlatSystem &flat);

/// The event indicator of condition variable `v`: relation b - a, positive when it holds.
const Expr *eventIndicator(FlatSystem &flat, int v);

} // namespace eqc
