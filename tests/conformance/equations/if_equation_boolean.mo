// MLS 3.5, 8.3.4: an if-equation whose condition changes in time may give a Boolean variable in
// each branch (MSL's Blocks.MathBoolean.OnDelay writes `if delaySignal then y = time >= t_next;
// else y = false; end if;`): y = if d then time >= t_next else false.
// EXPECT: simulate
model IfEquationBoolean
  Boolean d = time > 0.5;
  discrete Real t_next(start = 1, fixed = true);
  Boolean y;
equation
  when d then
    t_next = time + 0.7;
  end when;
  if d then
    y = time >= t_next;
  else
    y = false;
  end if;
  assert(y == (time >= 1.2 + 1e-9) or abs(time - 1.2) < 1e-6, "y is true from 1.2 on");
  annotation(experiment(StopTime = 2));
end IfEquationBoolean;
