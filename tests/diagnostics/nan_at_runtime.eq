// RUN: simulate --t-end 3 -o nan_at_runtime.csv
model LogOfNegative "log(1 - time) is undefined from time = 1 on"
  Real x(start = 0, fixed = true);
equation
  der(x) = log(1 - time);
end LogOfNegative;
