// MLS 3.5, 8.3.7 and 8.5: an assert is an equation, so a relation it shares with the other
// equations holds the same value as theirs between and at events. Here `time > 0.5` crosses at
// the same instant as integer(4*time) jumps (one event for both): the assertion, checked after
// the event, must read the relation's side the Boolean b took, not a literal 0.5 > 0.5.
// EXPECT: simulate
model AssertRelationAtEvent
  connector BooleanOutput = output Boolean;
  connector BooleanInput = input Boolean;
  block Source
    BooleanOutput y;
  equation
    y = time > 0.5;
  end Source;
  block Sink
    BooleanInput u;
  end Sink;
  Source s;
  Sink r;
  Integer c = integer(4 * time);
  Boolean b = time > 0.5;
equation
  connect(s.y, r.u);
  assert(b == (time > 0.5), "b and the assertion read one relation");
  assert(r.u == (time > 0.5), "so does the signal through a connection");
  assert(c == integer(4 * time) or abs(4 * time - floor(4 * time + 0.5)) < 1e-6, "c counts quarters");
  annotation(experiment(StopTime = 1));
end AssertRelationAtEvent;
