// RUN: check
// MLS 3.5, chapter 11: what an algorithm section of a model may not do, each at its place.
model Bad
  parameter Real k = 1;
  parameter Integer n = 3;
  Real x(start = 1, fixed = true);
  Real y, z, w;
  Integer m;
equation
  der(x) = -x;
algorithm
  k := 2;
  y := x;
  while y > 1 loop
    y := y / 2;
  end while;
  return;
  if x > 0 then
    when x < 0.5 then
      z := 1;
    end when;
  end if;
  m := x;
  reinit(x, 1);
  for i in 1:n loop
    w := {1, 2};
  end for;
  (y, z) := sin(x);
end Bad;
