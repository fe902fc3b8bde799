// MLS 3.5, 11.2: eqc runs while-loops in functions only.
// EXPECT: error while-loops are supported in functions only
model Bad
  Real y;
algorithm
  y := 1;
  while y < 10 loop
    y := 2 * y;
  end while;
end Bad;
