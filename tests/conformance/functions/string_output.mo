// MLS 3.5, 12.2 and 3.7.1: a function may have String outputs; at a model's level a String is a
// value known when the model is compiled, so the call is evaluated then (its text here is
// "x = 2.5 (3 times)"); the assert fails the run if the text differs.
// EXPECT: simulate
model StringOutput
  function label
    input Real x;
    input Integer n;
    output String s;
  algorithm
    s := "x = " + String(x) + " (" + String(n) + " times)";
  end label;
  parameter String l = label(2.5, 3);
  Real y(start = 1, fixed = true);
equation
  der(y) = -y;
  assert(l == "x = 2.5 (3 times)", "the label is " + l);
end StringOutput;
