// A double pendulum in Cartesian coordinates (two rods, two rod forces l1, l2): index 3, dof 4.
// Chaotic: dummy derivatives switch among several of the possible state selections.
model DoublePendulum
  parameter Real L1 = 1, L2 = 1, m1 = 1, m2 = 1, g = 9.81;
  Real x1(start = 1, fixed = true), y1(start = 0);
  Real x2(start = 2, fixed = true), y2(start = 0);
  Real vx1(start = 0, fixed = true), vy1, vx2(start = 0, fixed = true), vy2;
  Real l1, l2;
equation
  der(x1) = vx1; der(y1) = vy1; der(x2) = vx2; der(y2) = vy2;
  m1*der(vx1) = -l1*x1 + l2*(x2 - x1);
  m1*der(vy1) = -l1*y1 + l2*(y2 - y1) - m1*g;
  m2*der(vx2) = -l2*(x2 - x1);
  m2*der(vy2) = -l2*(y2 - y1) - m2*g;
  x1^2 + y1^2 = L1^2;
  (x2 - x1)^2 + (y2 - y1)^2 = L2^2;
  annotation(experiment(StopTime = 10, Tolerance = 1e-10, Interval = 0.01));
end DoublePendulum;
