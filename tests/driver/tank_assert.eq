// A tank filled at a constant rate, h = 1 + q t, with an assertion (an error at h = 5, t = 2)
// and a warning (h = 3, t = 1): tests/driver/FmuTest.cpp.
model Tank
  parameter Real q = 2;
  Real h(start = 1, fixed = true);
equation
  der(h) = q;
  assert(h < 5, "tank overflows: h = " + String(h));
  assert(h < 3, "level above 3", AssertionLevel.warning);
end Tank;
