// tests/driver/pendulum_wall.eq in its angle form (an ODE: the reference for its rebounds).
model PendulumWallAngle
  parameter Real L = 1, g = 9.81, d = 0.5, e = 0.8;
  Real th(start = 0.9272952180016122, fixed = true), w(start = 0, fixed = true);
equation
  der(th) = w;
  der(w) = -g/L*sin(th);
  when L*sin(th) < -d then
    reinit(w, -e*pre(w));
  end when;
  annotation(experiment(StopTime = 3, Tolerance = 1e-10, Interval = 0.01));
end PendulumWallAngle;
