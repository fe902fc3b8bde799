// RUN: check
model Pendulum
  parameter Real L = 1, g = 9.81;
  Real x(start = 1), y(start = 0);
  Real vx(start = 0), vy(start = 0);
  Real lambda;
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
end Pendulum;
