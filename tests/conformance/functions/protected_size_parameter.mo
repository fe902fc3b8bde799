// MLS 3.5, 12.2: a protected `parameter Integer m = size(x, 1)` of a function is known for each
// call's sizes and may size its other arrays (as MSL's ToSpacePhasor does).
// EXPECT: simulate
model ProtectedSizeParameter
  function spread
    input Real x[:];
    output Real total;
  protected
    parameter Integer m = size(x, 1);
    Real w[m] = {k / m for k in 1:m};
  algorithm
    total := w * x;
  end spread;
  Real a = spread({1, 1, 1, 1} * time);
  Real b = spread({2, 4});
equation
  assert(abs(a - 2.5 * time) < 1e-12, "(1 + 2 + 3 + 4) / 4 of time");
  assert(abs(b - (0.5 * 2 + 1 * 4)) < 1e-12, "m = 2 for the second call");
  annotation(experiment(StopTime = 1));
end ProtectedSizeParameter;
