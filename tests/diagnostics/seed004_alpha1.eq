// RUN: simulate -o seed004_alpha1.csv
// Seed 004 ("Example 6", E. Bertolazzi), in the seed's semi-explicit form with the dummy x_dot:
// differential index 3. The hidden constraints eqc derives are the mathematically correct ones:
//   C   = y*(1 - y/2) + z
//   C'  = 1 + y*((1 - alpha)*x - time - eta)      (after substituting y' and z')
//   x_dot = (...)/(y*(1 - alpha))                  (from C'' = 0)
// The seed's Step 1 differentiates y*(1 - y/2) as 1 - y*y' instead of y' - y*y', so its C' and its
// x_dot denominator y*(1 - alpha) + 1 are wrong. For alpha = 1 the coefficient of x_dot vanishes and
// one more differentiation would be needed: eqc reports the singular block at run time.
// Consistent start: y = 0.5 gives z = -0.375 (C = 0) and, with alpha = 0.5, eta = 1, x = -2 (C' = 0).
model Seed004 "index-3 DAE of seed 004 in semi-explicit form"
  parameter Real alpha = 1, eta = 1 "alpha = 1: the coefficient of x_dot vanishes";
  Real x(start = -2), y(start = 0.5, fixed = true), z(start = -0.375);
  Real x_dot;
equation
  der(x) = x_dot;
  der(y) = time - x;
  der(z) = 1 - time + x - (alpha*x + eta)*y;
  0 = y*(1 - y/2) + z;
  annotation(experiment(StopTime = 1, Tolerance = 1e-10, Interval = 0.01));
end Seed004;
