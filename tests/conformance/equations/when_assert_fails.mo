// MLS 3.5, 8.3.7: an assert inside a when-clause is evaluated when its branch fires, with the
// values of that event; a failing one stops the run there.
// EXPECT: error at time 0.5: assertion failed: level 2 reached at 0.5
model Tank
  Real h(start = 0, fixed = true);
  Integer level(start = 0);
equation
  der(h) = 2;
  when h > 1 then
    level = pre(level) + 2;
    assert(level < 2, "level " + String(level) + " reached at " + String(time));
  end when;
end Tank;
