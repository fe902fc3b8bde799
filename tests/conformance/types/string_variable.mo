// MLS 3.5, 4.8.4: eqc's Strings are values known at compilation; a String that changes in time is
// reported.
// EXPECT: error String variables that change in time are not supported
model Bad
  String s;
equation
  s = "a";
end Bad;
