// MLS 3.5, 11.2.7 and 8.3.5: the conditions of a when-statement's elsewhen branches are evaluated
// with the values before the statement, not with what an earlier branch assigns. Here the first
// branch (at a change of x) schedules t_next; the elsewhen copies x at that time (as MSL's
// Digital.Delay.InertialDelaySensitive does): y follows x 0.3 later.
// EXPECT: simulate
model ElsewhenCondition
  Integer x = if time < 1 then 3 else 4;
  Integer y(start = 1, fixed = true);
  discrete Real t_next;
algorithm
  when {initial(), change(x) and not initial()} then
    t_next := time + 0.3;
  elsewhen time >= t_next then
    y := x;
  end when;
equation
  assert(y == (if time < 0.3 then 1 elseif time < 1.3 then 3 else 4), "y follows x 0.3 later");
  assert(t_next == (if time < 1 then 0.3 else 1.3), "t_next is set at the changes of x");
  annotation(experiment(StopTime = 2));
end ElsewhenCondition;
