// The index-2 DAE (3) of seed 002: x2 = sin(t) and x1 = der(x2) = cos(t); no degrees of freedom.
model Dae002 "x2 - sin(time) = 0, x1 - der(x2) = 0"
  Real x1, x2;
equation
  x2 - sin(time) = 0;
  x1 - der(x2) = 0;
end Dae002;
