// MLS 3.5, 12.6: record constructors (positional and named arguments, defaults, nested records),
// record equations, record components with a value (parameters and variables), and the
// parameter prefix reaching a record's fields (4.4.2.1).
// EXPECT: simulate
model Records
  record Point
    Real x, y;
  end Point;
  record Segment
    Point a, b;
    Real w = 1;
  end Segment;
  parameter Point p0 = Point(3, 4);
  parameter Point p1 = Point(y = 2, x = 1);
  Point p;
  Point q = Point(2 * time, p0.y);
  Segment s = Segment(Point(0, 0), Point(time, 1), 2);
  Segment t = Segment(a = p, b = q);
equation
  p = Point(time, 2 * time);
  assert(p0.x == 3 and p0.y == 4 and p1.x == 1 and p1.y == 2, "parameter records");
  assert(abs(q.x - 2 * time) < 1e-12 and q.y == 4 and s.w == 2 and t.w == 1 and abs(s.b.x - time) < 1e-12,
         "record values");
  assert(abs(t.a.y - 2 * time) < 1e-12 and abs(t.b.x - 2 * time) < 1e-12, "records of records");
  annotation(experiment(StopTime = 1));
end Records;
