// MLS 3.5, 3.8.3: a String variable is a discrete-time variable; an equation outside when-clauses
// that gives it a value that changes continuously (String(x) of a Real state) is an error.
// EXPECT: error 's' is a String variable, which changes only at events (MLS 3.5, 3.8.3), but its value here changes continuously
model Continuous
  Real x(start = 1, fixed = true);
  String s;
equation
  der(x) = -x;
  s = "x = " + String(x);
end Continuous;
