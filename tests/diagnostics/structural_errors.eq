// RUN: check
model StructuralErrors "sizes and ranges from parameters whose values are wrong (fuzzing found a crash)"
  parameter Integer n = "abc";
  parameter Integer k = j;
  parameter Integer j = k;
  Real x[k];
  Real y;
equation
  for i in 2:n - 1 loop
    x[i] = i;
  end for;
  y = 1;
end StructuralErrors;
