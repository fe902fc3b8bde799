// MLS 3.5, 12.4.4 and 12.6: a record output or local of a function starts with the values its
// declaration gives: modifiers of its fields (`output Point p(x = a)`, as MSL's Complex
// constructor `output Complex result(re = re, im = im)` with an empty algorithm), else the field
// declaration equations of the record class; nested records too.
// EXPECT: simulate
model RecordOutputModifiers
  record Point
    Real x;
    Real y = 7;
  end Point;
  record Segment
    Point a, b;
  end Segment;
  function make
    input Real u;
    output Point p(x = 2 * u) "y from the record's declaration equation";
  algorithm
  end make;
  function segment
    input Real u;
    output Segment s(a(x = u, y = -u), b.x = 10);
  algorithm
    s.a.x := s.a.x + s.b.y "b.y from the nested record's declaration equation";
  end segment;
  Point p = make(time);
  Segment s = segment(3);
equation
  assert(p.x == 2 * time and p.y == 7, "field modifier and record default");
  assert(s.a.x == 10 and s.a.y == -3 and s.b.x == 10 and s.b.y == 7, "nested record modifiers and defaults");
  annotation(experiment(StopTime = 1));
end RecordOutputModifiers;
