// RUN: simulate --t-end 3 -o newton_failure.csv
model NoRoot "y^2 + 1 = 1 - time has no real solution once time > 0"
  Real x(start = 0, fixed = true);
  Real y(start = 0.5);
equation
  der(x) = y;
  y^2 + time = 0.25 - x;
end NoRoot;
