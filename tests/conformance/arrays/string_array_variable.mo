// MLS 3.5, 4.8.4: eqc's String arrays are constants and parameters (known when the model is
// compiled); an array of String variables is reported with its place.
// EXPECT: error arrays of String variables are not supported (arrays of String parameters and constants are)
model StringArrayVariable
  Real x(start = 1, fixed = true);
  String labels[2];
equation
  der(x) = -x;
  when x < 0.5 then
    labels = {"half", "way"};
  end when;
end StringArrayVariable;
