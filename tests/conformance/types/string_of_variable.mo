// MLS 3.5, 3.7.1: String(x) of a variable that changes in time is a String computed when the model
// runs where it is passed to a function (show's String input); eqc's other Strings are values
// known when the model is compiled: compared with one in an equation it is refused, with the
// place.
// EXPECT: error String(...) of a value that changes in time is supported in messages (of asserts, and passed to functions), not here
model StringOfVariable
  function show
    input String s;
    output Real y = 0;
  end show;
  Real x(start = 1, fixed = true);
  Real y = show("x = " + String(x));
  Real z;
  parameter String label = "k";
equation
  der(x) = -x;
  z = if label == String(x) then 1 else 0;
end StringOfVariable;
