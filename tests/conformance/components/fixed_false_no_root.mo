// MLS 3.5, 8.6: an implicit initial equation of a fixed = false parameter without a root is
// reported at the equation.
// EXPECT: error has no solution that Newton's method finds from its start value
model NoRoot
  parameter Real a(fixed = false, start = 1);
  Real x(start = 0, fixed = true);
equation
  der(x) = a;
initial equation
  a^2 + 1 = 0;
end NoRoot;
