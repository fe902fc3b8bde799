// MLS 3.5, 8.6: a parameter with fixed = false given by an implicit initial equation of
// parameters (as MSL's SaturatingInductor computes Ipar): solved from its start value.
// EXPECT: simulate
model Implicit
  parameter Real k = 10;
  parameter Real a(fixed = false, start = 1);
  Real x(start = 0, fixed = true);
equation
  der(x) = a;
  assert(abs(a - 2) < 1e-12, "a^3 + a = k has the root 2");
initial equation
  a^3 + a = k;
end Implicit;
