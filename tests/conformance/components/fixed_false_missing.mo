// MLS 3.5, 8.6: a parameter with fixed = false needs an initial equation for its value.
// EXPECT: error parameter 'a' has fixed = false, but no initial equation gives it a value of parameters, constants, fixed start values and time
model FixedFalseMissing
  parameter Real a(fixed = false);
  Real x(start = 1);
equation
  der(x) = -a * x;
end FixedFalseMissing;
