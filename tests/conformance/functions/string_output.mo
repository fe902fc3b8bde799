// MLS 3.5, 12.2: a function may have String outputs; eqc's Strings are values known when the model
// is compiled, so it reports a String output at its declaration.
// EXPECT: error 's' is a String output, which eqc does not support
model StringOutput
  function label
    input Real x;
    output String s;
  algorithm
    s := "x";
  end label;
  parameter String l = label(1);
end StringOutput;
