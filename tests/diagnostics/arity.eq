// RUN: check
model Arity
  Real x(start = 1);
  Real y;
equation
  der(x) = sin(x, 2);
  y = atan2(x) + foo(x);
end Arity;
