// MLS 3.5, 12.4.4 and 12.4.5: a protected array of a function declared with `:` and no binding
// takes its size from the statement that first assigns it whole (`X := f(u)`, MSL's
// ReferenceMoistAir.Xsaturation). The asserts check the values.
// EXPECT: simulate
model ProtectedArraySizedByAssignment
  function pair
    input Real u;
    output Real y[2];
  algorithm
    y := {u, 2*u};
  end pair;
  function second
    input Real u;
    output Real s;
  protected
    Real[:] X;
  algorithm
    X := pair(u);
    s := X[2] + size(X, 1);
  end second;
  Real z = second(time);
equation
  assert(abs(z - (2*time + 2)) < 1e-12, "z = " + String(z));
  annotation(experiment(StopTime = 1));
end ProtectedArraySizedByAssignment;
