// RUN: check
model Duplicate
  Real x(start = 1);
  parameter Real x = 3;
equation
  der(x) = -x;
end Duplicate;
