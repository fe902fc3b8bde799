// A pendulum in Cartesian coordinates (index 3) that counts its swings: the event part of the
// report (conditions, discrete variables, discrete equations, when/elsewhen with reinit and
// terminate) next to an index reduction that treats them as parameters.
model CountingPendulum
  parameter Real L = 1, g = 9.81, m = 1;
  Real x(start = 0.6, fixed = true), y(start = -0.7), vx(start = 0, fixed = true), vy, F;
  Integer swings(start = 0);
  Boolean right(start = true);
  discrete Real tLast(start = 0);
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -F*x/L;
  m*der(vy) = -F*y/L - m*g;
  x^2 + y^2 = L^2;
  right = x > 0;
  when {x < 0, x > 0} then
    swings = pre(swings) + 1;
    tLast = time;
  elsewhen initial() then
    swings = 0;
    tLast = 0;
  end when;
  when swings >= 10 then
    terminate("ten swings");
  end when;
  when y > 0 then
    reinit(vx, 0);
  end when;
end CountingPendulum;
