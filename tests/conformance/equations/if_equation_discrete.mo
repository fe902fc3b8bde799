// MLS 3.5, 8.3.4: an if-equation whose branches all give `y = ...` for a discrete y defines y
// (the condition and values change at events only), as MSL's DigitalPulse defines its output.
// EXPECT: simulate
model IfDefinesDiscrete
  type Level = enumeration(low, high);
  parameter Real period = 0.25;
  Boolean on = time >= 0.3;
  Level y;
  Integer k;
equation
  if on then
    y = if mod(time, period) < period / 2 then Level.high else Level.low;
    k = 1;
  else
    y = Level.low;
    k = 0;
  end if;
  assert(k == (if time >= 0.3 then 1 else 0), "k follows the branch");
  assert(y == Level.low or time >= 0.3, "low before 0.3");
  annotation(experiment(StopTime = 1));
end IfDefinesDiscrete;
