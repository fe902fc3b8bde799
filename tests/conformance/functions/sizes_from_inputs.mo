// MLS 3.5, 12.4.4: an output's size may be given by an Integer input (`output Real c[order]`,
// as MSL's filter functions do); eqc specializes the function to that value, which must be known
// when the model is compiled, and drops the branches whose conditions it decides (the branch for
// order 4 indexes c[4]).
// EXPECT: simulate
model SizesFromInputs
  function powers
    input Integer order;
    input Real x;
    output Real c[order];
  algorithm
    for i in 1:order loop
      c[i] := x^i;
    end for;
    if order == 4 then
      c[4] := -1;
    end if;
  end powers;
  parameter Integer n = 3;
  Real p[n] = powers(n, 2 + 0 * time);
  Real q[2] = powers(2, time);
equation
  assert(p[1] == 2 and p[2] == 4 and p[3] == 8, "p = 2^i");
  assert(abs(q[2] - time^2) < 1e-12, "q[2] = t^2");
end SizesFromInputs;
