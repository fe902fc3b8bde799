// MLS 3.5, 9.1: a connect names a connector inside a connector (`c.sub`, `comp.c.sub`): a
// hierarchical connector's part is connected like a connector of its own.
// EXPECT: simulate
model HierarchicalConnector
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  connector Plug
    Pin a, b;
  end Plug;
  model Resistor
    parameter Real R = 1;
    Pin p, n;
  equation
    p.v - n.v = R * p.i;
    p.i + n.i = 0;
  end Resistor;
  model Source "a plug whose two pins are driven: a at 1 V, b at 3 V"
    Plug plug;
  equation
    plug.a.v = 1;
    plug.b.v = 3;
  end Source;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  model Load "two resistors to ground, each on one pin of its plug"
    Plug plug;
    Resistor ra(R = 2), rb(R = 4);
    Ground g;
  equation
    connect(plug.a, ra.p);
    connect(plug.b, rb.p);
    connect(ra.n, g.p);
    connect(rb.n, g.p);
  end Load;
  Source source;
  Load load;
  Resistor bridge(R = 1);
equation
  connect(source.plug.a, load.plug.a);
  connect(source.plug.b, load.plug.b);
  connect(bridge.p, source.plug.a);
  connect(bridge.n, source.plug.b);
  assert(abs(load.ra.p.i - 0.5) < 1e-12, "1 V over 2 ohm");
  assert(abs(load.rb.p.i - 0.75) < 1e-12, "3 V over 4 ohm");
  assert(abs(bridge.p.i + 2) < 1e-12, "3 V - 1 V over 1 ohm, from n to p");
  assert(abs(source.plug.a.i - 1.5) < 1e-12, "the currents at pin a sum to zero");
  annotation(experiment(StopTime = 1));
end HierarchicalConnector;
