// The Cartesian pendulum (index 3) released from rest at the angle theta0: its period, measured
// as twice the time at which vx turns positive again (half a swing); the run ends there.
// Exact: T = 4 sqrt(L/g) K(sin(theta0/2)^2), K the complete elliptic integral of the first kind.
//   eqc sweep examples/pendulum_period.eq -p 'L~normal(1,0.05)' -p 'g~normal(9.81,0.1)' \
//     --samples 10000 --vars T --final-only --summary
model PendulumPeriod "the period of a pendulum"
  parameter Real L = 1 "length", g = 9.81 "gravity", theta0 = 0.5 "release angle";
  Real x(start = L*sin(theta0), fixed = true), y(start = -L*cos(theta0));
  Real vx(start = 0, fixed = true), vy;
  Real lambda;
  discrete Real T(start = 0) "the period";
equation
  der(x) = vx;  der(y) = vy;
  der(vx) = -lambda*x;  der(vy) = -lambda*y - g;
  x^2 + y^2 = L^2;
  when vx > 0 then
    T = 2*time;
    terminate("half a swing");
  end when;
  annotation(experiment(StopTime = 10, Tolerance = 1e-10));
end PendulumPeriod;
