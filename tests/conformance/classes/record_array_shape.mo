// MLS 3.5, 12.6 and 10.6: the two sides of a record-array equation must have one shape.
// EXPECT: error the two sides of the equation have different shapes: [3] and [2]
model RecordArrayShape
  record R
    Real x, y;
  end R;
  R a[3];
equation
  a = {R(1, 2), R(3, 4)};
end RecordArrayShape;
