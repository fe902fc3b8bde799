// RUN: check
// MLS 3.5, 12.6: a record constructor's arguments have the fields' types and sizes; fields are
// named; a record value is used whole only in equations, bindings and calls.
model R3
  record Point
    Real x, y;
  end Point;
  record Poly
    Real c[3];
    Point p;
  end Poly;
  Point a = Point({1, 2}, 3);
  Poly q = Poly({1, 2, 3}, Point(1, 2));
  Poly r = Poly({1, 2, 3}, 4);
  Point b = Point(x = 1, z = 2);
  Point c = Point(1, 2, 3);
  Real d = a.x * b;
end R3;
