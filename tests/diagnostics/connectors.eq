// RUN: check
model Connectors "connecting incompatible connectors, and things that are not connectors"
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  connector Flange
    Real s;
    flow Real f;
  end Flange;
  connector Heat
    Real T;
    Real Q;
  end Heat;
  model Part
    Pin p;
    Flange f;
    Heat h;
    Real u;
  equation
    p.i = 0;
    f.f = 0;
    h.Q = 0;
    u = p.v + f.s + h.T;
  end Part;
  Part a, b;
equation
  connect(a.p, b.f);
  connect(a.h, b.p);
  connect(a.u, b.u);
  connect(a.q, b.p);
end Connectors;
