// MLS 3.5, 3.7.5: the start and interval of sample() are parameter expressions.
// EXPECT: error the interval of sample() must be a Real parameter expression
model SampleVarying
  Real x(start = 1);
  Integer n(start = 0);
equation
  der(x) = -x;
  when sample(0, x) then
    n = pre(n) + 1;
  end when;
end SampleVarying;
