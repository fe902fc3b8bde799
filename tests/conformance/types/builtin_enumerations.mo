// MLS 3.5, 4.8.8: StateSelect and AssertionLevel are builtin enumerations: a parameter of type
// StateSelect gives a variable's stateSelect (as MSL's Inertia does); 3.7.4: homotopy(actual,
// simplified) is the actual expression when simulating.
// EXPECT: simulate
model BuiltinEnumerations
  parameter StateSelect choice = StateSelect.prefer;
  Real x(start = 1, fixed = true, stateSelect = choice);
  Real y;
equation
  der(x) = -x;
  y = homotopy(actual = 2 * x, simplified = x);
  assert(Integer(choice) == 4 and choice > StateSelect.default, "prefer is the fourth literal");
  assert(abs(y - 2 * exp(-time)) < 1e-5, "homotopy gives the actual expression");
end BuiltinEnumerations;
