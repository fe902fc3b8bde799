// MLS 3.5, 12.2 and 10.1: a function's protected array of Strings, its elements assigned and read
// with subscripts.
// EXPECT: simulate
model StringArrayLocal
  function f
    input Real x;
    output Real y;
  protected
    String names[2];
  algorithm
    names[1] := "a";
    names[2] := "b" + names[1];
    y := if names[2] == "ba" and names[1] <> names[2] then x else -x;
  end f;
  Real y = f(time);
equation
  assert(abs(y - time) < 1e-12, "names[2] is \"ba\"");
end StringArrayLocal;
