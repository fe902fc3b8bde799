// MLS 3.5, 2.3.1: a quoted identifier does not span lines.
// EXPECT: error syntax error
model Bad
  Real 'x
  y';
equation
  'x
  y' = 1;
end Bad;
