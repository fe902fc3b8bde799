// RUN: check
model Decay
  Real x(start = 1);
equation
  der(x) = -x;
end Decya;
