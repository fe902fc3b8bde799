// MLS 3.5, 4.8.4 and 8.3.1: both sides of an equation have the same type; a String variable
// takes a String, not a number.
// EXPECT: error 'label' is a String, but its value is an Integer
model WrongType
  Real x(start = 1, fixed = true);
  String label;
equation
  der(x) = -x;
  when x < 0.5 then
    label = 1;
  end when;
end WrongType;
