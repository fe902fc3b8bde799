// MLS 3.5, 8.6: at an event the equations are solved with pre() fixed, and only then do the
// pre() values move (Appendix C's event iteration). Here the discrete unknowns (the start flags,
// locked) and the continuous ones (sa, a, f) form one loop, in the formulation of Otter,
// Elmqvist and Mattsson ("Hybrid Modeling in Modelica based on the Synchronous Data Flow
// Principle", 1999) that MSL's friction elements use: sa is the sticking force while locked and
// a shifted acceleration while sliding. A light block (m = 0.25) sliding at v0 = 2 against the
// kinetic force fk = 5 stops at t1 = v0 m / fk = 0.1 (x = 0.1) and sticks: the loop's only
// solution is locked. (Solving it by moving pre() on every pass alternates forever between
// starting forward and starting backward, each reading the other's sa.) The pull F = 3 (t - 1)
// from t = 1 breaks it loose at t2 = 1 + f0max / 3 = 3; from there m v' = F - fk gives
// v = (t - 3) (6 t - 14) and x = 0.1 + 2 (t - 3)^3 + 2 (t - 3)^2.
// EXPECT: simulate
model EventIterationMixedSystem
  parameter Real m = 0.25, fk = 5 "kinetic friction force", f0max = 6 "breakaway force";
  constant Integer Backward = -1, Stuck = 0, Forward = 1, Unknown = 2;
  Real x(start = 0, fixed = true), v(start = 2, fixed = true);
  Real a, f, sa;
  Real F = if time < 1 then 0 else 3 * (time - 1);
  Boolean startForward(start = false, fixed = true), startBackward(start = false, fixed = true), locked;
  Integer mode(start = Unknown, fixed = true);
equation
  der(x) = v;
  der(v) = a;
  m * a = F - f;
  startForward = pre(mode) == Stuck and (sa > f0max or pre(startForward) and sa > fk) or initial() and v > 0;
  startBackward = pre(mode) == Stuck and (sa < -f0max or pre(startBackward) and sa < -fk) or initial() and v < 0;
  locked = not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);
  a = if locked then 0 else if startForward then sa - f0max else if startBackward then sa + f0max
      else if pre(mode) == Forward then sa - f0max else sa + f0max;
  f = if locked then sa else if startForward then fk else if startBackward then -fk
      else if pre(mode) == Forward then fk else -fk;
  mode = if (pre(mode) == Forward or startForward) and v > 0 then Forward
         else if (pre(mode) == Backward or startBackward) and v < 0 then Backward else Stuck;
  assert(time > 0.1 - 1e-6 or abs(v - (2 - 20 * time)) < 1e-6 and mode == Forward, "slides, decelerating at fk / m");
  assert(time < 0.1 + 1e-6 or time > 3 - 1e-6 or abs(v) < 1e-9 and abs(x - 0.1) < 1e-6 and locked,
         "sticks from t1 = 0.1 while F < f0max");
  assert(time < 3 + 1e-6 or abs(v - (time - 3) * (6 * time - 14)) < 1e-6 and mode == Forward and
         abs(x - (0.1 + 2 * (time - 3) ^ 3 + 2 * (time - 3) ^ 2)) < 1e-6, "slides again from t2 = 3");
  annotation(experiment(StopTime = 4, Tolerance = 1e-10));
end EventIterationMixedSystem;
