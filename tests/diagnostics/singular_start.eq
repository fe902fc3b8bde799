// RUN: simulate -o singular_start.csv
model SingularStart "x = 0.6 is fixed; y starts at 0, where d(x^2 + y^2)/dy = 0: Newton cannot move y"
  parameter Real L = 1, g = 9.81;
  Real x(start = 0.6, fixed = true), y;
  Real vx, vy, lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
end SingularStart;
