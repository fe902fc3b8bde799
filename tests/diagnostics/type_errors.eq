// RUN: check
model Types
  parameter Boolean on = true;
  Real x(start = 1, fixed = 2);
  Real y;
equation
  der(x) = if x then 1 else 0;
  y = (x > 1) + 2;
end Types;
