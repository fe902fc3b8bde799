// MLS 3.5, 12.4.4 and 10.1: a protected array or constant of a function declared with `:` takes
// its size from its binding (`constant Real[:] n = {...}` as MSL's IF97 coefficient tables are
// written, `Real z[:] = n*x`).
// EXPECT: simulate
model SizesFromBindings
  function f
    input Real x;
    output Real y;
  protected
    constant Real[:] n = {1, 2, 3};
    Real z[:] = n*x;
  algorithm
    y := sum(z) + size(n, 1);
  end f;
  Real y = f(time);
equation
  assert(abs(y - (6*time + 3)) < 1e-12, "sum(n*x) + size(n, 1) = 6 t + 3");
  annotation(experiment(StopTime = 1));
end SizesFromBindings;
