// RUN: check
model DerExpr "der() of a function that jumps is rejected; der(x*x) is expanded"
  Real x(start = 1), y, z;
equation
  der(x) = -x;
  y = der(sign(x - 0.5));
  z = der(x*x);
end DerExpr;
