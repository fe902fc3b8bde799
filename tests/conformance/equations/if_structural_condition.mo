// MLS 3.5, 3.6.5 and 10.1: an if-expression whose condition reads only parameters that fix sizes
// has one branch; the other, whose size would not fit (linspace needs n >= 2), is not lowered (MSL's
// pipes: `if n > 1 then linspace(p_a, p_b, n) else {(p_a + p_b)/2}`).
// EXPECT: simulate
model IfStructuralCondition
  parameter Integer n = 1;
  parameter Real a[n] = if n > 1 then linspace(0, 1, n) else {0.5};
  Real x[n] = a*time;
equation
  assert(abs(x[1] - 0.5*time) < 1e-12, "one element, the mean");
end IfStructuralCondition;
