// RUN: check
model DerExpr
  Real x(start = 1), y;
equation
  der(x) = -x;
  y = der(x*x);
end DerExpr;
