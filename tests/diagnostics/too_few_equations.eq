// RUN: check
model TooFew
  Real x(start = 1), v, a;
equation
  der(x) = v;
  der(v) = a;
end TooFew;
