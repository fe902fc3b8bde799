// RUN: simulate -p n=5 -o structural_parameter.csv
model StructuralParameter "n fixes the array size: it cannot be changed after compilation"
  parameter Integer n = 3;
  Real x[n](each start = 1, each fixed = true);
equation
  der(x) = -x;
end StructuralParameter;
