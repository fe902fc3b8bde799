// RUN: simulate -p kk=2 -o bad_parameter_override.csv
model Fine
  parameter Real k = 1;
  Real x(start = 1);
equation
  der(x) = -k*x;
end Fine;
