// RUN: check
function f
  input Real x;
  output Real y;
algorithm
  y := x;
end f;

model StringsAsValues "strings where values are expected: each an error at its place (fuzzing found a crash)"
  parameter Real m = " 1 mass";
  constant Real c = "s";
  Real x(start = "a", fixed = true);
  Real y = f("b");
  Real z[2] = {"p" for i in 1:2};
equation
  der(x) = -x;
end StringsAsValues;
