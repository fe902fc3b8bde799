// RUN: simulate -o assert_initial.csv
// MLS 3.5, 8.6 and 8.3.7: an assert of an initial equation section is checked at initialization;
// in an if-equation whose condition changes in time, only while its branch is taken.
model Initial
  parameter Real a = 3;
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  if x > 0.25 then
    assert(x < 0.5, "x = " + String(x) + " in the second branch");
  else
    assert(x < 0.3, "never fails: the branch is left at x = 0.25");
  end if;
initial equation
  assert(a < 2, "a is " + String(a) + " at the start", AssertionLevel.warning);
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Initial;
