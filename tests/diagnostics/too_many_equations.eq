// RUN: check
model TooMany
  Real x(start = 1);
equation
  der(x) = -x;
  x = 2;
end TooMany;
