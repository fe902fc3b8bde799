// MLS 3.5, 4.8.5.2: E(i) converts an Integer to the literal of enumeration E numbered i, the
// inverse of Integer(e); with a value that changes at events too.
// EXPECT: simulate
model EnumerationConversion
  type Level = enumeration(Low, Mid, High);
  constant Level top = Level(3);
  parameter Integer k = 2;
  Level l = Level(k);
  Integer step = integer(time) + 1;
  Level now = Level(step);
equation
  assert(top == Level.High and l == Level.Mid, "constant and parameter");
  assert(Integer(now) == step and (time >= 1 or now == Level.Low), "changing at events");
  annotation(experiment(StopTime = 2.5));
end EnumerationConversion;
