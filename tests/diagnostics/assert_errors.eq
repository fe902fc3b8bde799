// RUN: check
// MLS 3.5, 8.3.7 and 3.7.1: assert(condition, message, level) takes a Boolean condition, a String
// message (literals, '+', String(...)) and an AssertionLevel; each misuse is reported at its place.
model Bad
  Real x(start = 1, fixed = true);
  Real v[2] = {1, 2};
equation
  der(x) = -x;
  assert(x, "a Real is not a condition");
  assert(x > 0, x);
  assert(x > 0, "level", AssertionLevel.fatal);
  assert(x > 0, "format " + String(x, format = "%d"));
  assert(x > 0, "array " + String(v));
  assert(x > 0);
  assert(x > 0, "twice", condition = x < 2);
  assert(x > 0, "bad option " + String(x, digits = 3));
end Bad;
