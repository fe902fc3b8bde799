// MLS 3.5, 7.3.2: a redeclared component keeps the modifiers of the constraining type under its
// own: without a constrainedby clause the declaration's type and modifiers are the constraining
// type (MSL's VoltageSource passes startTime to the redeclared signal source this way); with one,
// the clause's modifiers.
// EXPECT: simulate
model Sources
  partial block Signal
    parameter Real offset = 0;
    parameter Real startTime = 0;
    Real y;
  end Signal;
  block Step
    extends Signal;
    parameter Real height = 1;
  equation
    y = offset + (if time < startTime then 0 else height);
  end Step;
  block Ramp
    extends Signal;
    parameter Real slope = 1;
  equation
    y = offset + slope * max(time - startTime, 0);
  end Ramp;
  model Source
    parameter Real startTime = 0.5;
    replaceable Step signal(final startTime = startTime, offset = 1);
  end Source;
  model Constrained
    replaceable Step signal constrainedby Signal(offset = 3);
  end Constrained;
  Source s1(redeclare Ramp signal(slope = 2));
  Source s2(startTime = 0.25, redeclare Step signal(height = 4, offset = 2));
  Constrained c(redeclare Ramp signal);
equation
  assert(s1.signal.startTime == 0.5 and s1.signal.offset == 1 and s1.signal.slope == 2, "s1 keeps the declaration's modifiers");
  assert(s2.signal.startTime == 0.25 and s2.signal.offset == 2 and s2.signal.height == 4, "the redeclaration's override");
  assert(c.signal.offset == 3, "the constraining clause's modifiers");
  assert(abs(s1.signal.y - (1 + 2 * max(time - 0.5, 0))) < 1e-12, "s1's ramp");
end Sources;
