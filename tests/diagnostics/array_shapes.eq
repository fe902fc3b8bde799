// RUN: check
model ArrayShapes "wrong array sizes: equations, subscripts, bindings, operators"
  parameter Integer n = 3;
  Real x[n](each start = 0, each fixed = true);
  Real y[2] = {1, 2, 3};
  Real z;
  Real w[n];
equation
  der(x) = {1, 2};
  z = x[4] + x[0];
  w = x + 1;
end ArrayShapes;
