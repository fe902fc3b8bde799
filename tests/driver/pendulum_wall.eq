// The Cartesian pendulum rebounding from a wall at x = -d: a reinit of a velocity of an
// index-3 model, after which the other states move back onto the hidden constraints with the
// positions held (they are continuous across the impulse).
model PendulumWall "the Cartesian pendulum rebounding from a wall at x = -d"
  parameter Real L = 1, g = 9.81, d = 0.5, e = 0.8;
  Real x(start = 0.8, fixed = true), y(start = -0.6);
  Real vx(start = 0, fixed = true), vy;
  Real lambda;
  Integer hits(start = 0);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  when x < -d then
    reinit(vy, -e*pre(vy));
    hits = pre(hits) + 1;
  end when;
  annotation(experiment(StopTime = 3, Tolerance = 1e-10, Interval = 0.01));
end PendulumWall;
