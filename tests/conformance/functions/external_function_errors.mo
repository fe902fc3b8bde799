// MLS 3.5, 12.9: the arguments of an explicit external call are component references, scalar
// constants and size(a, k); an expression is not.
// EXPECT: error an argument of an external call is an input, output or protected variable, a literal, or size(a, k)
model ExtBadArgument
  function f
    input Real x;
    output Real y;
  external "C" y = fabs(2 * x) annotation(Library = "m");
  end f;
  Real z = f(time);
end ExtBadArgument;
