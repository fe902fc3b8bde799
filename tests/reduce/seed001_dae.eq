// Seed 001 ("Example 3", E. Bertolazzi): a linear DAE of differential index 6 and no degrees of
// freedom. Its solution is fixed by the equations alone, without initial values:
// x1 = 2 sin t, x2 = cos t, x3 = -sin t - cos t, x4 = sin t - 2 cos t, x5 = 2 sin t, x6 = cos t.
model Chain6DAE "the seed's index-6 chain before reduction"
  Real x1, x2, x3, x4, x5, x6;
equation
  der(x6) + x5 = sin(time);
  der(x5) + x4 = sin(time);
  der(x4) + x3 = sin(time);
  der(x3) + x2 = sin(time);
  der(x2) + x1 = sin(time);
  x6 = cos(time);
  annotation(experiment(StopTime = 20, Tolerance = 1e-10, Interval = 0.1));
end Chain6DAE;
