// MLS 3.5, 8.3.2.1 and 8.3.2.2: for-loops over a vector of Booleans or the type Boolean, and
// `for i loop` whose range comes from the arrays i subscripts (in equations and algorithms).
// EXPECT: simulate
model Ranges
  Real x[3];
  Real z[Boolean];
  Integer n;
equation
  for i loop
    x[i] = i * time;
  end for;
  for b in {false, true} loop
    z[if b then 2 else 1] = if b then 1 else 0;
  end for;
algorithm
  n := 0;
  for i loop
    n := n + i + integer(x[i] - x[i]);
  end for;
  for b in Boolean loop
    if b then
      n := n + 100;
    end if;
  end for;
equation
  assert(abs(x[3] - 3 * time) < 1e-12 and z[1] == 0 and z[2] == 1, "ranges");
  assert(n == 106, "n = " + String(n));
end Ranges;
