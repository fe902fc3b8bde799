// RUN: simulate --t-end 2 -o function_assert.csv
function safeSqrt "the square root of a non-negative number"
  input Real x;
  output Real y;
algorithm
  assert(x >= 0, "safeSqrt needs x >= 0");
  y := sqrt(x);
end safeSqrt;

model FunctionAssert "an assertion in a function fails at run time, when 1 - t becomes negative"
  Real x(start = 0, fixed = true);
equation
  der(x) = safeSqrt(1 - time);
end FunctionAssert;
