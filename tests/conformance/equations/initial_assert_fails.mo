// MLS 3.5, 8.3.7: an assert in `when initial()` that fails stops the run at initialization.
// EXPECT: error assertion failed: s below its stop
model InitialAssertFails
  parameter Real smin = 1;
  Real s(start = 0, fixed = true);
equation
  der(s) = 1;
  when initial() then
    assert(s >= smin, "s below its stop");
  end when;
end InitialAssertFails;
