// MLS 3.5, 15.2: inStream of an inside connector is the mixing of what the set's other members
// bring; an outside connector's stream variable is set by its set (propagation up a hierarchy);
// 15.3: actualStream. Two sources (1 kg/s at h = 100, 3 kg/s at h = 200) feed a well-mixed volume
// of mass M = 2 inside a subsystem: inStream at its inlet is (1*100 + 3*200)/4 = 175 and
// M dh/dt = 4 (175 - h), so h = 175 - 125 exp(-2 t) from h(0) = 50.
// EXPECT: simulate
model StreamMixing
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;
  model Source
    parameter Real m_flow;
    parameter Real h;
    FluidPort port;
  equation
    port.m_flow = -m_flow;
    port.h_outflow = h;
  end Source;
  model Sink
    FluidPort port;
    Real hIn;
  equation
    port.p = 1;
    port.h_outflow = 0;
    hIn = inStream(port.h_outflow);
  end Sink;
  model Volume
    parameter Real M = 2;
    FluidPort a, b;
    Real h(start = 50, fixed = true);
    Real hIn = inStream(a.h_outflow);
  equation
    M*der(h) = a.m_flow*actualStream(a.h_outflow) + b.m_flow*actualStream(b.h_outflow);
    a.m_flow + b.m_flow = 0;
    a.h_outflow = h;
    b.h_outflow = h;
    a.p = b.p;
  end Volume;
  model Sub
    FluidPort a, b;
    Volume v;
  equation
    connect(a, v.a);
    connect(v.b, b);
  end Sub;
  Source s1(m_flow = 1, h = 100), s2(m_flow = 3, h = 200);
  Sub sub;
  Sink sink;
equation
  connect(s1.port, sub.a);
  connect(s2.port, sub.a);
  connect(sub.b, sink.port);
  assert(abs(sub.v.hIn - 175) < 1e-9, "inStream at the volume's inlet is the sources' mixing");
  assert(abs(sub.v.h - (175 - 125*exp(-2*time))) < 1e-3, "the volume's enthalpy follows 175 - 125 exp(-2 t)");
  assert(abs(sink.hIn - sub.v.h) < 1e-9, "the sink receives what leaves the volume, through the subsystem's port");
  assert(abs(sub.b.h_outflow - sub.v.h) < 1e-9, "the outside connector's stream variable is the volume's");
  annotation(experiment(StopTime = 2));
end StreamMixing;
