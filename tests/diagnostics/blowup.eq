// RUN: simulate --t-end 2 -o blowup.csv
model Blowup "x' = x^2 has the solution 1/(1 - t), which is infinite at t = 1"
  Real x(start = 1, fixed = true);
equation
  der(x) = x^2;
end Blowup;
