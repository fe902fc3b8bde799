// The ODE of the 6-variable chain of seed 001 (Bertolazzi, "Example 3") after index reduction.
// Analytic solution: x1 = 2 sin t, x2 = cos t, x3 = -sin t - cos t, x4 = sin t - 2 cos t,
// x5 = 2 sin t, x6 = cos t.
model Chain6 "reduced ODE of the seed's index-reduction example"
  Real x1(start = 0, fixed = true);
  Real x2(start = 1, fixed = true);
  Real x3(start = -1, fixed = true);
  Real x4(start = -2, fixed = true);
  Real x5(start = 0, fixed = true);
  Real x6(start = 1, fixed = true);
equation
  der(x1) = 2*cos(time);
  der(x2) = sin(time) - x1;
  der(x3) = sin(time) - x2;
  der(x4) = sin(time) - x3;
  der(x5) = sin(time) - x4;
  der(x6) = sin(time) - x5;
  annotation(experiment(StartTime = 0, StopTime = 20, Tolerance = 1e-10, Interval = 0.2));
end Chain6;
