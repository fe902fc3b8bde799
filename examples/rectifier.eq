// A half-wave rectifier built from the component library: a sine source drives an RL load through
// an ideal diode, which switches at events (when its current returns to zero, and when the source
// turns positive again). Run with --lib examples/lib.
model Rectifier "half-wave rectifier with an RL load"
  Electrical.SineVoltage source(V = 10, f = 50);
  Electrical.IdealDiode diode;
  Electrical.Resistor load(R = 10);
  Electrical.Inductor coil(L = 0.1, i(fixed = true));
  Electrical.Ground ground;
equation
  connect(source.p, diode.p);
  connect(diode.n, load.p);
  connect(load.n, coil.p);
  connect(coil.n, source.n);
  connect(source.n, ground.p);
  annotation(experiment(StopTime = 0.1, Tolerance = 1e-8, Interval = 1e-4));
end Rectifier;
