// The index-3 pendulum in Cartesian coordinates with a when-clause that counts its swings: one
// each time the bob passes the bottom going left (x becomes negative).
model SwingCounter "pendulum counting its swings"
  parameter Real L = 1 "length", g = 9.81 "gravity", m = 1 "mass";
  Real x(start = 0.6, fixed = true), y(start = -0.8), vx(start = 0, fixed = true), vy, F "rod force";
  Integer swings(start = 0) "swings to the left so far";
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -F*x/L;
  m*der(vy) = -F*y/L - m*g;
  x^2 + y^2 = L^2;
  when x < 0 then
    swings = pre(swings) + 1;
  end when;
  annotation(experiment(StopTime = 5, Tolerance = 1e-10, Interval = 0.01));
end SwingCounter;
