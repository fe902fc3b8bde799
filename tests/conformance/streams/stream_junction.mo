// MLS 3.5, 15.2: a connection set of several inside connectors. Pumps bring 1 kg/s of A's fluid
// (h = 100) and mC = 1 + sin(2 pi t) kg/s of C's (h = 400, no flow at t = 3/4) to one junction
// with a volume's inlet and a sensor: inStream at the inlet is (100 + 400 mC)/(1 + mC). In a
// second set nothing flows: inStream is then the mean of the members that can bring fluid (10, 20
// and 60 give 30) — 15.2's regularization — and the sensors, whose flow has min = 0, never count
// as bringing any.
// EXPECT: simulate
model StreamJunction
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;
  model Reservoir
    parameter Real h;
    FluidPort port;
  equation
    port.p = 1;
    port.h_outflow = h;
  end Reservoir;
  model Pump
    FluidPort a, b;
    input Real m_flow;
  equation
    a.m_flow = m_flow;
    a.m_flow + b.m_flow = 0;
    a.h_outflow = inStream(b.h_outflow);
    b.h_outflow = inStream(a.h_outflow);
  end Pump;
  model Source
    parameter Real h;
    FluidPort port;
  equation
    port.m_flow = 0;
    port.h_outflow = h;
  end Source;
  model Sensor
    FluidPort port(m_flow(min = 0));
    Real h = inStream(port.h_outflow);
  equation
    port.m_flow = 0;
    port.h_outflow = -1000;
  end Sensor;
  model Volume
    parameter Real M = 1;
    FluidPort a, b;
    Real h(start = 0, fixed = true);
    Real hIn = inStream(a.h_outflow);
  equation
    M*der(h) = a.m_flow*actualStream(a.h_outflow) + b.m_flow*actualStream(b.h_outflow);
    a.m_flow + b.m_flow = 0;
    a.h_outflow = h;
    b.h_outflow = h;
    a.p = b.p;
  end Volume;
  Reservoir A(h = 100), C(h = 400), drain(h = 0);
  Pump pA(m_flow = 1), pC(m_flow = 1 + sin(2*3.141592653589793*time));
  Volume v;
  Sensor s;
  Source q1(h = 10), q2(h = 20);
  Reservoir q3(h = 60);
  Sensor s1, s2;
equation
  connect(A.port, pA.a);
  connect(C.port, pC.a);
  connect(pA.b, v.a);
  connect(pC.b, v.a);
  connect(s.port, v.a);
  connect(v.b, drain.port);
  connect(q1.port, s1.port);
  connect(q2.port, s1.port);
  connect(q3.port, s1.port);
  connect(s2.port, s1.port);
  assert(abs(v.hIn - (100 + 400*pC.m_flow)/(1 + pC.m_flow)) < 1e-9, "the inlet gets the pumps' mixing");
  assert(abs(s.h - v.hIn) < 1e-9, "the sensor at the junction reads the same mixing");
  assert(abs(s1.h - 30) < 1e-9 and abs(s2.h - 30) < 1e-9, "without flow, the mean of the sources");
  annotation(experiment(StopTime = 1));
end StreamJunction;
