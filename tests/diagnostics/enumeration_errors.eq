// RUN: check
// MLS 3.5, 4.8.5: values of an enumeration type have no arithmetic and are compared only with
// values of the same type; literals must exist; enumeration(:) needs a redeclaration.
model Bad
  type Color = enumeration(red, green, blue);
  type Size = enumeration(small, large);
  type Open = enumeration(:);
  Color c;
  Size s;
  Open o;
  Integer n;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  c = Color.green + 1;
  s = if c == Size.small then Size.large else Size.small;
  n = if c > 1 then 1 else 2;
  c = Color.purple;
  n = Integer(x);
  s = 2;
end Bad;
