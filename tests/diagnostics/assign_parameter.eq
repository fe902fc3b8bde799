// RUN: check
model AssignParameter
  parameter Real k = 1;
  Real x(start = 1);
equation
  der(x) = -k*x;
  k = 5;
end AssignParameter;
