// MLS 3.5, 12.2: eqc's function Strings are scalars; an array of Strings in a function is
// reported at its declaration.
// EXPECT: error 'names' is an array of Strings, which eqc does not support
model StringArrayError
  function f
    input Real x;
    output Real y;
  protected
    String names[2];
  algorithm
    y := x;
  end f;
  Real y = f(time);
end StringArrayError;
