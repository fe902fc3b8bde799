// RUN: check
model Lex
  Real x(start = 1) # a comment in the wrong language
  Real y @;
equation
  der(x) = -x;
  y = x;
end Lex;
