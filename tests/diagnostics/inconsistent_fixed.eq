// RUN: simulate -o inconsistent_fixed.csv
model InconsistentPendulum "x = 2 and y = 0 cannot lie on a circle of radius 1"
  parameter Real L = 1, g = 9.81;
  Real x(start = 2, fixed = true), y(start = 0, fixed = true);
  Real vx, vy, lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
end InconsistentPendulum;
