// ARGS: --stabilize baumgarte --eta 0.5 --omega 20
// The Cartesian pendulum: a point mass on a massless rod of length L, in x, y coordinates with the
// rod force lambda. Differential index 3: the constraint must be differentiated twice.
model Pendulum
  parameter Real L = 1, g = 9.81;
  Real x(start = 1, fixed = true), y(start = 0);
  Real vx(start = 0, fixed = true), vy;
  Real lambda;
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  annotation(experiment(StopTime = 10, Tolerance = 1e-10, Interval = 0.01));
end Pendulum;
