// RUN: check
model Singular
  Real x(start = 1), a, b, c;
equation
  der(x) = a;
  a + b = x;
  a - b = 2*x;
  a = sin(x);
end Singular;
