// RUN: check
function scale
  input Real x;
  input Real k = 2;
  output Real y;
algorithm
  x := 3;
  y := k*x;
end scale;

function sumTo
  input Integer n;
  output Integer s;
algorithm
  s := 0;
  for i in 1:n loop
    s := s + i;
  end for;
  break;
end sumTo;

model FunctionErrors "wrong arguments and bad statements in functions"
  Real a, b, c, d, e;
equation
  a = scale(1, 2, 3);
  b = scale(k = 1);
  c = scale(true);
  d = sumTo(3);
  e = scale(1.5);
end FunctionErrors;
