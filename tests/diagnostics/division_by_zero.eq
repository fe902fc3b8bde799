// RUN: simulate --t-end 1 -o division_by_zero.csv
model DivisionByZero "the resistance reaches zero at time 0.5"
  Real q(start = 0, fixed = true);
  Real R, i;
equation
  R = 0.5 - time;
  i = 1/R;
  der(q) = i;
end DivisionByZero;
