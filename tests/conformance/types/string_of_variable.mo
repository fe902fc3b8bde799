// MLS 3.5, 3.7.1: eqc's Strings other than assert messages are values known when the model is
// compiled: String(x) of a variable that changes in time is refused there, with the place.
// EXPECT: error String(...) of a value that changes in time is supported in the messages of asserts of models only
model StringOfVariable
  function show
    input String s;
    output Real y = 0;
  end show;
  Real x(start = 1, fixed = true);
  Real y = show("x = " + String(x));
equation
  der(x) = -x;
end StringOfVariable;
