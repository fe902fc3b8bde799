// RUN: simulate -o nominal_zero.csv
model NominalZero
  parameter Real scale = 0;
  Real x(start = 1, fixed = true, nominal = scale);
equation
  der(x) = -x;
end NominalZero;
