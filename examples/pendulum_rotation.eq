// The Cartesian pendulum with enough energy to go over the top (v > sqrt(5 g L) at the bottom):
// it passes through all four quadrants, so the dummy-derivative state selection must switch
// between (x, vx) and (y, vy) several times per turn.
model PendulumRotation
  parameter Real L = 1, g = 9.81;
  Real x(start = 0, fixed = true), y(start = -1);
  Real vx(start = 8, fixed = true), vy;
  Real lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  annotation(experiment(StopTime = 5, Tolerance = 1e-10, Interval = 0.005));
end PendulumRotation;
