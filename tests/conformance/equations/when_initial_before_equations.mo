// MLS 3.5, 8.6: at initialization the equations hold together, the when-clauses that initial()
// fires among them: an equation that reads a value such a clause gives sees that value, never
// the variable's start (here 0, for which the function's assertion fails).
// EXPECT: simulate
model WhenInitialBeforeEquations
  function inverse
    input Real k;
    output Real y;
  algorithm
    assert(k > 0, "k = " + String(k) + " must be positive");
    y := 1 / k;
  end inverse;
  discrete Real k(start = 0, fixed = true);
  Real x(start = 1, fixed = true);
  Real y;
equation
  when initial() then
    k = 4;
  end when;
  y = inverse(k);
  der(x) = -y;
  assert(abs(y - 0.25) < 1e-12, "y reads the k that the initial when-clause gives");
  annotation(experiment(StopTime = 1));
end WhenInitialBeforeEquations;
