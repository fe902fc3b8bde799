// MLS 3.5, 7.2: a modifier of a record variable in a function names one of its fields.
// EXPECT: error record 'RecordOutputModifierUnknown.Point' has no field 'z'
model RecordOutputModifierUnknown
  record Point
    Real x, y;
  end Point;
  function make
    input Real u;
    output Point p(z = u);
  algorithm
    p.x := u;
    p.y := u;
  end make;
  Point p = make(time);
end RecordOutputModifierUnknown;
