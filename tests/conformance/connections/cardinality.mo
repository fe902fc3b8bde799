// MLS 3.5, 3.7.2.3: cardinality(c) is the number of connect-equations that name connector c,
// inside and outside (deprecated, but MSL's MultiBody, StateGraph and Fluid assert with it).
// It is known once every connect is: in asserts, and in if-equations that choose equations by
// it, as MSL's LineForceWithMass does for flanges that may stay unconnected.
// EXPECT: simulate
model Cardinality
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Probe
    Pin p, n;
    Integer used;
  equation
    assert(cardinality(p) > 0, "p must be connected");
    if cardinality(n) == 0 then
      n.v = 0; // an open end: a 4 Ohm resistor to ground instead
      p.v = 4*p.i;
      used = 1;
    else
      p.v - n.v = 2*p.i;
      p.i + n.i = 0;
      used = 2;
    end if;
  end Probe;
  model Source
    Pin p;
  equation
    p.v = 1 + time;
  end Source;
  model Outer
    Pin p;
    Probe inner1;
  equation
    connect(p, inner1.p); // p is named inside Outer once, and outside by the model once
  end Outer;
  Source s;
  Probe a, b;
  Outer o;
equation
  connect(s.p, a.p);
  connect(a.n, b.p);
  connect(s.p, o.p);
  assert(cardinality(s.p) == 2 and cardinality(a.n) == 1, "cardinality counts connects");
  assert(cardinality(o.p) == 2, "o.p: once here (inside occurrence), once in Outer (outside)");
  assert(a.used == 2 and b.used == 1 and o.inner1.used == 1, "if-equations chose by cardinality");
  assert(abs(s.p.i + (1 + time)/6 + (1 + time)/4) < 1e-9, "Ohm's law: a (2 Ohm) and b (4) in series, o.inner1 (4) alone");
annotation(experiment(StopTime = 1));
end Cardinality;
