// MLS 3.5, 8.6: initialization solves the equations with the relations as they hold at the
// solution. Here `open` (w >= 1, w = 2 h) is false at the start guesses (w = 0); with it false the loop
// has no solution (x + y^3 = -1 and x + y^3 = 0), while at the start h = 1 opens it: the loop is then
// x + y^3 = w/2 = h, x - y = 0.2 (y^3 + y = 0.8). (w is computed before the loop, which reads it,
// as a vessel's level is before the loop of its ports' pressures.)
// EXPECT: simulate
model InitialConditionsFollowTheStart
  Real h(start = 1, fixed = true);
  Real x(start = 0.1), y(start = 0.1);
  Real w = 2*h;
  Boolean open = w >= 1;
equation
  der(h) = -0.5;
  0 = if open then x + y^3 - w/2 else x + y^3 + 1;
  0 = if open then x - y - 0.2 else x + y^3;
  assert(open, "the loop stays open while h >= 0.5");
  assert(abs(x + y^3 - h) < 1e-8 and abs(x - y - 0.2) < 1e-8, "x and y solve the open loop");
  annotation(experiment(StopTime = 0.8));
end InitialConditionsFollowTheStart;
