// A sample-and-hold P controller on a first-order plant: the controller samples x every Ts
// (time events, as when sample(0, Ts)) and holds u in between.
model SampledController "sampled P control of x' = -x + u"
  parameter Real Ts = 0.1 "sampling period", K = 2 "gain", r = 1 "set point";
  Real x(start = 0, fixed = true) "plant output";
  discrete Real u(start = 0) "held control";
  discrete Real next(start = 0) "next sampling time";
  Integer samples(start = 0);
equation
  der(x) = -x + u;
  when {initial(), time >= next} then
    u = K*(r - x);
    next = pre(next) + Ts;
    samples = pre(samples) + 1;
  end when;
  annotation(experiment(StopTime = 1, Tolerance = 1e-10, Interval = 0.01));
end SampledController;
