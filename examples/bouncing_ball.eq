// A ball bouncing on the floor: a state event where h crosses 0, where the velocity is reversed
// with a coefficient of restitution (reinit) and a discrete counter is incremented.
model BouncingBall
  parameter Real e = 0.8 "coefficient of restitution", g = 9.81 "gravity", h0 = 1 "initial height";
  Real h(start = h0, fixed = true) "height";
  Real v(start = 0, fixed = true) "velocity";
  Integer bounces(start = 0) "number of bounces so far";
equation
  der(h) = v;
  der(v) = -g;
  when h < 0 then
    reinit(v, -e*pre(v));
    bounces = pre(bounces) + 1;
  end when;
  annotation(experiment(StopTime = 4, Tolerance = 1e-10, Interval = 0.01));
end BouncingBall;
