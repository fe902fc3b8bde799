// MLS 3.5, 8.6: `fixed = true` on a continuous variable is the initial equation v = v.start,
// for a state and for an algebraic variable alike. Here y(0) = 2 with y = 3 x fixes the state:
// x(0) = 2/3 (x has no start value of its own), then x = 2/3 exp(-t); z = y through an alias.
// EXPECT: simulate
model FixedAlgebraic
  Real x;
  Real y(start = 2, fixed = true);
  Real z;
equation
  der(x) = -x;
  y = 3 * x;
  z = y;
  assert(abs(x - 2 / 3 * exp(-time)) < 1e-6, "x starts where y = 2 puts it");
  assert(abs(z - 2 * exp(-time)) < 1e-6, "z follows y");
  annotation(experiment(StopTime = 1, Tolerance = 1e-9));
end FixedAlgebraic;
