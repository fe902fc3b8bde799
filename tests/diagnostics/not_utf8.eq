// RUN: check
// Saved as Latin-1, not UTF-8: the é below is one byte.
model Latin1 "café"
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Latin1;
