// MLS 3.5, 8.6: initial equations of fixed = false parameters that contradict each other (the
// sum cannot be both 3 and 4) have no solution: reported at the first of them.
// EXPECT: error the initial equations of the fixed = false parameters (2 equations) have no solution
model Contradiction
  parameter Real a(fixed = false), b(fixed = false);
  Real x(start = 0, fixed = true);
equation
  der(x) = a + b;
initial equation
  a + b = 3;
  a + b = 4;
end Contradiction;
