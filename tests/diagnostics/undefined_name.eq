// RUN: check
model Undefined
  parameter Real gain = 2;
  Real x(start = 1);
equation
  der(x) = -gian*x + offset;
end Undefined;
