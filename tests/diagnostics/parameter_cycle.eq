// RUN: check
model Cycle
  parameter Real a = 2*b;
  parameter Real b = a + 1;
  Real x(start = 1);
equation
  der(x) = -a*x;
end Cycle;
