// The double pendulum of double_pendulum.eq built from two pendulum-link components joined by a
// connector: a point with a position (potential) and a force (flow). Each link is a rod of length
// L from its pivot a to a point mass at b. Index 3; the dummy derivatives switch states.
model DoublePendulumComponents
  connector Point "a point in the plane"
    Real x, y;
    flow Real fx, fy;
  end Point;

  model Pivot "a fixed point"
    Point p;
  equation
    p.x = 0;
    p.y = 0;
  end Pivot;

  model Link "a massless rod from pivot a to a point mass at b"
    parameter Real L = 1, m = 1, g = 9.81;
    Point a, b;
    Real x, y, vx, vy, lambda;
  equation
    b.x = x;
    b.y = y;
    der(x) = vx;
    der(y) = vy;
    m*der(vx) = -lambda*(x - a.x) + b.fx;
    m*der(vy) = -lambda*(y - a.y) - m*g + b.fy;
    (x - a.x)^2 + (y - a.y)^2 = L^2;
    a.fx = -lambda*(x - a.x);
    a.fy = -lambda*(y - a.y);
  end Link;

  Pivot pivot;
  Link link1(x(start = 1, fixed = true), y(start = 0), vx(start = 0, fixed = true));
  Link link2(x(start = 2, fixed = true), y(start = 0), vx(start = 0, fixed = true));
equation
  connect(pivot.p, link1.a);
  connect(link1.b, link2.a);
  annotation(experiment(StopTime = 10, Tolerance = 1e-10, Interval = 0.01));
end DoublePendulumComponents;
