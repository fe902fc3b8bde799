// MLS 3.5, 8.6: a parameter with fixed = false is computed at initialization from its initial
// equation (as MSL's Filter computes its coefficients with `(cr, c0, c1) = f(order)`).
// EXPECT: simulate
model FixedFalse
  function coefficients
    input Real k;
    output Real a;
    output Real b;
  algorithm
    a := 2 * k;
    b := k^2;
  end coefficients;
  parameter Real k = 3;
  parameter Real a(fixed = false);
  parameter Real b(fixed = false);
  parameter Real c(fixed = false);
  Real x(start = 1, fixed = true);
initial equation
  (a, b) = coefficients(k);
  c = a + b;
equation
  der(x) = -a * x;
  assert(a == 6 and b == 9 and c == 15, "a, b and c from the initial equations");
  assert(abs(x - exp(-6 * time)) < 1e-5, "x decays with a");
end FixedFalse;
