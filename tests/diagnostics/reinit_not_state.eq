// RUN: check
model ReinitNotState "reinit() of an algebraic variable, and a when-clause that assigns a state"
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x;
  y = 2*x;
  when x < 0.5 then
    reinit(y, 0);
  end when;
  when x < 0.2 then
    x = 1;
  end when;
end ReinitNotState;
