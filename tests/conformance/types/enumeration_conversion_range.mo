// MLS 3.5, 4.8.5.2: E(i) needs 1 <= i <= the number of E's literals.
// EXPECT: error enumeration 'EnumerationConversionRange.Level' has 3 literals: there is no literal 4
model EnumerationConversionRange
  type Level = enumeration(Low, Mid, High);
  constant Level top = Level(4);
  Real x = time;
end EnumerationConversionRange;
