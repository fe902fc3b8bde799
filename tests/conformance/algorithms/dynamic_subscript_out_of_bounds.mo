// MLS 3.5, 10.5 and 11.1.2: a subscript chosen when the model runs must lie in its dimension:
// the fourth sample (t = 0.3, k = 4) writes past buf[3], which stops the run at that event.
// EXPECT: error 'buf': subscript 1 = 4 is out of bounds 1..3
model DynamicSubscriptOutOfBounds
  Real x(start = 1, fixed = true);
  Real buf[3](each start = 0, each fixed = true);
  Integer k(start = 0, fixed = true);
algorithm
  when sample(0, 0.1) then
    k := pre(k) + 1;
    buf[k] := x;
  end when;
equation
  der(x) = -x;
  annotation(experiment(StopTime = 1));
end DynamicSubscriptOutOfBounds;
