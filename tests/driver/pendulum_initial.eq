// The Cartesian pendulum (index 3) started by an initial equation instead of a fixed start value:
// x is free and x = 0.6 at the start; y (guess -0.1) moves onto the circle, to -0.8.
model PendulumInitial
  parameter Real L = 1, g = 9.81;
  Real x(start = 1), y(start = -0.1);
  Real vx(start = 0, fixed = true), vy;
  Real lambda;
initial equation
  x = 0.6;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
end PendulumInitial;
