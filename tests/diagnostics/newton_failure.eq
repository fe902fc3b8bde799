// RUN: simulate --t-end 3 -o newton_failure.csv
// y exists until the fold at t = 1 - 2 ln 1.5 = 0.1890698 (u = 0.25 - x - time: u' = -sqrt(u) - 1).
model NoRoot "y^2 + 1 = 1 - time has no real solution once time > 0"
  Real x(start = 0, fixed = true);
  Real y(start = 0.5);
equation
  der(x) = y;
  y^2 + time = 0.25 - x;
end NoRoot;
