// MLS 3.5, 4.6: `class` has no restriction (it can be simulated); `operator record` is a record,
// `pure function` a function.
// EXPECT: simulate
class Plant
  operator record Point
    Real x, y;
  end Point;
  pure function norm2
    input Real x, y;
    output Real r;
  algorithm
    r := x * x + y * y;
  end norm2;
  Real a(start = 1, fixed = true), b(start = 0, fixed = true);
equation
  der(a) = -b;
  der(b) = a;
  assert(abs(norm2(a, b) - 1) < 1e-6, "the circle is kept");
  annotation(experiment(StopTime = 3, Tolerance = 1e-10));
end Plant;
