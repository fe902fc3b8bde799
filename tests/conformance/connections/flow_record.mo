// MLS 3.5, 9.3.1 and 4.4.2: `flow Complex i` makes the record's fields flow variables; the
// connector balances 2 potential scalars (v.re, v.im) with 2 flows. A phasor circuit: a source
// of 10 + 0j V over two impedances in series, (2 + 1j) and (2 - 1j) ohm: the current is
// 10 / 4 = 2.5 A, the middle node's voltage (2 - 1j) * 2.5 = 5 - 2.5j V.
// EXPECT: simulate
model FlowRecord
  record Complex
    Real re;
    Real im;
  end Complex;
  connector Pin
    Complex v;
    flow Complex i;
  end Pin;
  model Impedance
    parameter Real R, X;
    Pin p, n;
  equation
    p.v.re - n.v.re = R * p.i.re - X * p.i.im;
    p.v.im - n.v.im = R * p.i.im + X * p.i.re;
    p.i.re + n.i.re = 0;
    p.i.im + n.i.im = 0;
  end Impedance;
  model Source
    Pin p, n;
  equation
    p.v.re - n.v.re = 10;
    p.v.im - n.v.im = 0;
    p.i.re + n.i.re = 0;
    p.i.im + n.i.im = 0;
  end Source;
  model Ground
    Pin p;
  equation
    p.v.re = 0;
    p.v.im = 0;
  end Ground;
  Source s;
  Impedance z1(R = 2, X = 1), z2(R = 2, X = -1);
  Ground g;
equation
  connect(s.p, z1.p);
  connect(z1.n, z2.p);
  connect(z2.n, s.n);
  connect(s.n, g.p);
  assert(abs(z1.p.i.re - 2.5) < 1e-12 and abs(z1.p.i.im) < 1e-12, "2.5 A through the series");
  assert(abs(z2.p.v.re - 5) < 1e-12 and abs(z2.p.v.im + 2.5) < 1e-12, "the middle node at 5 - 2.5j V");
  assert(abs(s.p.i.re + 2.5) < 1e-12, "the source delivers it");
  annotation(experiment(StopTime = 1));
end FlowRecord;
