// MLS 3.5, 4.8.5: values of an enumeration type have no arithmetic.
// EXPECT: error no arithmetic on values of the enumeration type 'Bad.Gear'
model Bad
  type Gear = enumeration(first, second);
  Gear g;
equation
  g = Gear.first + 1;
end Bad;
