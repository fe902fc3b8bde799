// A series RLC circuit built from the component library, driven by a voltage step: the classic
// underdamped response. Run with --lib examples/lib.
model RLCNetwork "series RLC step response"
  Electrical.StepVoltage source(V = 10, startTime = 0.01);
  Electrical.Resistor resistor(R = 10);
  Electrical.Inductor inductor(L = 0.5, i(fixed = true));
  Electrical.Capacitor capacitor(C = 1e-3, v(fixed = true));
  Electrical.Ground ground;
equation
  connect(source.p, resistor.p);
  connect(resistor.n, inductor.p);
  connect(inductor.n, capacitor.p);
  connect(capacitor.n, source.n);
  connect(source.n, ground.p);
  annotation(experiment(StopTime = 0.3, Tolerance = 1e-8, Interval = 1e-3));
end RLCNetwork;
