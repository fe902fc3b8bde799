// MLS 3.5, 3.7.5: sample(start, interval) is true at start + i*interval (i = 0, 1, ...) and false
// in between; a when-clause on it counts and samples-and-holds. 8.6: a sample at the start time
// is the event right after initialization, where initial() is false.
// EXPECT: simulate
model SampleCount
  parameter Real dt = 0.125;
  Integer n(start = 0);
  Integer late(start = 0);
  discrete Real held(start = -1);
  Boolean atStart = initial();
equation
  when sample(0, dt) then
    n = pre(n) + 1;
    held = sin(time);
  end when;
  when sample(0.3, 2 * dt) then
    late = pre(late) + 1;
  end when;
  assert(n == integer(time / dt + 1e-9) + 1, "n counts the samples at 0, dt, 2 dt, ...");
  assert(abs(held - sin(dt * integer(time / dt + 1e-9))) < 1e-12, "held is sin at the last sample");
  assert(late == (if time < 0.3 - 1e-9 then 0 else integer((time - 0.3) / (2 * dt) + 1e-9) + 1), "late counts from 0.3");
  assert(not atStart, "initial() is false once the simulation runs");
  annotation(experiment(StopTime = 2));
end SampleCount;
