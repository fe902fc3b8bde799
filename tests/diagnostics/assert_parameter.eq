// RUN: simulate -p q=-1 -o assert_parameter.csv
// MLS 3.5, 8.3.7: an assert of parameters fails at the consistent initial point, before any step.
model Tank
  parameter Real q = 2 "inflow";
  Real h(start = 1, fixed = true);
equation
  der(h) = q;
  assert(q > 0, "the inflow q = " + String(q) + " must be positive");
end Tank;
