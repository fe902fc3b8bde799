// MLS 3.5, 4.4.5: a conditional component exists only where its parameter condition holds; the
// connections to a disabled one are removed.
// EXPECT: simulate
model Circuits
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Res
    parameter Real R = 1;
    Pin p, n;
  equation
    p.v - n.v = R * p.i;
    p.i + n.i = 0;
  end Res;
  model Src
    Pin p, n;
  equation
    p.v - n.v = 10;
    p.i + n.i = 0;
  end Src;
  model Gnd
    Pin p;
  equation
    p.v = 0;
  end Gnd;
  model Circuit "a 10 V source with one resistor, and a second in parallel if useR2"
    parameter Boolean useR2 = false;
    Src s;
    Res r1(R = 2);
    Res r2(R = 2) if useR2;
    Gnd g;
  equation
    connect(s.p, r1.p);
    connect(r1.n, s.n);
    connect(s.p, r2.p);
    connect(r2.n, s.n);
    connect(s.n, g.p);
  end Circuit;
  Circuit one, two(useR2 = true);
equation
  assert(abs(one.s.p.i + 5) < 1e-12 and abs(two.s.p.i + 10) < 1e-12, "one or two resistors");
end Circuits;
