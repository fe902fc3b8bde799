// RUN: simulate --method rk5 -o bad_option.csv
model Fine
  Real x(start = 1);
equation
  der(x) = -x;
end Fine;
