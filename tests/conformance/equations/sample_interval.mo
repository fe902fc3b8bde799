// MLS 3.5, 3.7.5: the interval of sample() is positive.
// EXPECT: error the interval of sample() must be positive, not 0
model SampleZero
  Integer n(start = 0);
equation
  when sample(0, 0) then
    n = pre(n) + 1;
  end when;
end SampleZero;
