// RUN: simulate --t-end 1 -o empty_arrays.csv
model EmptyArrays "arrays of size 0 (n = 0) with attributes and bindings: no variables, no crash (fuzzing)"
  parameter Integer n = 0;
  Real x[n](each start = 0, each fixed = true);
  Real w[n] = x;
  Real y(start = 1, fixed = true);
  Real u[0];
  parameter Real k[n] = fill(1, n);
equation
  u = k;
  k = u;
  der(x) = -x;
  der(y) = -y + sum(x);
  y = x[1];
end EmptyArrays;
