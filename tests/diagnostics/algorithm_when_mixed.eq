// RUN: check
// MLS 3.5, 11.1.2 and 11.2.7: a variable is assigned in a when-statement or outside one, not both.
model Mixed
  Real x(start = 1, fixed = true);
  Real z;
equation
  der(x) = -x;
algorithm
  z := 0;
  when x < 0.5 then
    z := 1;
  end when;
end Mixed;

