// MLS 3.5, 8.6: parameters with fixed = false given together by initial equations of parameters
// (as MSL's SMPM_ResistiveBraking computes its initial current phasor): a + b = 3, a b = 2 has the
// roots (1, 2) and (2, 1); Newton's method from the start values (0.5, 2.5) finds (1, 2). The
// linear pair c - d = 1, c + d = 5 gives (3, 2).
// EXPECT: simulate
model System
  parameter Real a(fixed = false, start = 0.5), b(fixed = false, start = 2.5);
  parameter Real c(fixed = false), d(fixed = false);
  Real x(start = 1, fixed = true);
equation
  der(x) = -a*x;
  assert(abs(a - 1) < 1e-12 and abs(b - 2) < 1e-12, "a + b = 3, a b = 2 from (0.5, 2.5) gives (1, 2)");
  assert(abs(c - 3) < 1e-12 and abs(d - 2) < 1e-12, "c - d = 1, c + d = 5 gives (3, 2)");
  assert(time < 1 - 1e-9 or abs(x - exp(-1)) < 1e-5, "x = exp(-a t)");
initial equation
  a + b = 3;
  a*b = 2;
  c - d = 1;
  c + d = 5;
end System;
