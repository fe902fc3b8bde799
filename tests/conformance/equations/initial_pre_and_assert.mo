// MLS 3.5, 8.6: `initial equation pre(y) = e` gives the discrete y its value before the start
// (MSL's OnOffController); 8.3.7 with 8.5: an assert in `when initial()` is checked at
// initialization (MSL's MassWithStopAndFriction).
// EXPECT: simulate
model InitialPreAndAssert
  parameter Boolean yStart = true;
  parameter Real smin = -1;
  Real u(start = 0.2, fixed = true);
  Boolean y;
equation
  der(u) = 1;
  y = pre(y) and u < 1 or u < 0.5;
  when initial() then
    assert(u > smin, "u starts above smin");
  end when;
  assert(y == (time < 0.8 - 1e-9), "y holds while u < 1 since it starts true");
initial equation
  pre(y) = yStart;
end InitialPreAndAssert;
