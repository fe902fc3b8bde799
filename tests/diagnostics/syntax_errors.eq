// RUN: check
model Broken
  parameter Real k = 2 +;
  Real x(start = 1;
  Real y;
equation
  der(x) = -k*x
  y = 2 * x;
  y = 3 * * x;
end Broken;
