// MLS 3.5, 12.6: a record value has no arithmetic of its own (without operator overloading).
// EXPECT: error a record value ('Bad.Point') is used whole only in an equation, a binding or a function call
model Bad
  record Point
    Real x, y;
  end Point;
  Point p = Point(1, 2);
  Real z = p + 1;
end Bad;
