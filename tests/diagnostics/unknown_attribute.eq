// RUN: check
model Attr
  Real x(start = 1, strat = 2, unit = 3);
equation
  der(x) = -x;
end Attr;
