// MLS 3.5, 12.9.2: the left-hand side of an explicit external call is one of the outputs.
// EXPECT: error the result of the external call must be a scalar output
model ExtBadResult
  function f
    input Real x;
    output Real y;
  external "C" x = fabs(y) annotation(Library = "m");
  end f;
  Real z = f(time);
end ExtBadResult;
