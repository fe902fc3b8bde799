// MLS 3.5, 12.6: a function's record input takes a record of its class.
// EXPECT: error argument 'a' of 'WrongRecord.norm' must be a 'WrongRecord.Vector2' record, not a 'WrongRecord.Point' record
model WrongRecord
  record Point
    Real x, y;
  end Point;
  record Vector2
    Real x, y;
  end Vector2;
  function norm
    input Vector2 a;
    output Real n = sqrt(a.x^2 + a.y^2);
  end norm;
  Real n = norm(Point(3, 4 + time));
end WrongRecord;
