// MLS 3.5, 8.6: a fixed algebraic variable is an initial equation; with the state fixed too, the
// one state has two: the initialization is over-determined, and the message names both.
// EXPECT: error 3 equations for 2 unknowns: the fixed start values (x, y) and 0 initial equations over-determine the 1 state
model FixedAlgebraicOverdetermined
  Real x(start = 1, fixed = true);
  Real y(start = 2, fixed = true);
equation
  der(x) = -x;
  y = 3 * x;
end FixedAlgebraicOverdetermined;
