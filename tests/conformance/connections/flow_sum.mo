// MLS 3.5, 9.2: connected potentials are equal and the flows of a connection set sum to zero.
// EXPECT: simulate
model Divider
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Resistor
    parameter Real R = 1;
    Pin p, n;
  equation
    p.v - n.v = R * p.i;
    p.i + n.i = 0;
  end Resistor;
  model Source
    Pin p, n;
  equation
    p.v - n.v = 10;
    p.i + n.i = 0;
  end Source;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  Source s;
  Resistor r1(R = 1), r2(R = 4);
  Ground g;
equation
  connect(s.p, r1.p);
  connect(r1.n, r2.p);
  connect(r2.n, s.n);
  connect(s.n, g.p);
  assert(abs(r2.p.v - 8) < 1e-12 and abs(r1.p.i - 2) < 1e-12 and abs(s.p.i + 2) < 1e-12, "divider");
end Divider;
