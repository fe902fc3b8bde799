// RUN: check
// MLS 3.5, 11.1.2 and 11.2.7: the other order, and an array assigned in a loop inside and outside.
model Mixed2
  Real x(start = 1, fixed = true);
  Real z[2];
equation
  der(x) = -x;
algorithm
  when x < 0.5 then
    z[1] := 1;
  end when;
  for i in 1:2 loop
    z[i] := 0;
  end for;
end Mixed2;
