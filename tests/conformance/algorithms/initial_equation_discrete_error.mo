// MLS 3.5, 8.6: an initial equation of a discrete variable that no when-clause assigns can only
// give it a value of parameters (its start).
// EXPECT: error an initial equation of the discrete variable 'b' gives it a value of parameters and constants, or its value at initialization when a when-clause assigns it
model InitialOfDiscreteEquation
  Real x(start = 1);
  Boolean b;
  Integer n(start = 0);
initial equation
  n = if x > 0 then 1 else 2;
  b = n > 1;
equation
  der(x) = -x;
  b = x > 0.5;
  when x < 0.5 then
    n = pre(n) + 1;
  end when;
end InitialOfDiscreteEquation;
