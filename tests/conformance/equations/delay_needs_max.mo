// MLS 3.5, 3.7.2: without delayMax the delay time must be a parameter expression.
// EXPECT: error a delay time that changes in time needs delayMax
model NoMax
  Real x(start = 0, fixed = true);
  Real y = delay(x, 1 + time);
equation
  der(x) = 1;
end NoMax;
