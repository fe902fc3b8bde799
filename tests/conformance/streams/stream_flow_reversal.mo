// MLS 3.5, 15.2-15.3: a flow that reverses. A pump moves m(t) = sin(2 pi t) kg/s from reservoir A
// (h = 100) through a well-mixed volume (M = 0.5) to reservoir B (h = 300): while m > 0 the
// volume receives A's fluid, M dh/dt = m (100 - h); while m < 0, B's, M dh/dt = -m (300 - h).
// With I(t) = (1 - cos(2 pi t))/(2 pi), h = 100 + (h0 - 100) exp(-I(t)/M) on [0, 1/2] and
// h = 300 + (h(1/2) - 300) exp(-(I(1/2) - I(t))/M) on [1/2, 1]. Between the pump and the volume
// a pass-through component connects its two outside connectors to each other (15.2's N = 0,
// M = 2); actualStream at the pump's outlet switches with the flow's direction.
// EXPECT: simulate
model StreamFlowReversal
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;
  model Reservoir
    parameter Real p;
    parameter Real h;
    FluidPort port;
  equation
    port.p = p;
    port.h_outflow = h;
  end Reservoir;
  model Pump
    FluidPort a, b;
    Real hOut = actualStream(b.h_outflow);
  equation
    a.m_flow = sin(2*3.141592653589793*time);
    a.m_flow + b.m_flow = 0;
    a.h_outflow = inStream(b.h_outflow);
    b.h_outflow = inStream(a.h_outflow);
  end Pump;
  model Short
    FluidPort a, b;
  equation
    connect(a, b);
  end Short;
  model Volume
    parameter Real M = 0.5;
    FluidPort a, b;
    Real h(start = 200, fixed = true);
  equation
    M*der(h) = a.m_flow*actualStream(a.h_outflow) + b.m_flow*actualStream(b.h_outflow);
    a.m_flow + b.m_flow = 0;
    a.h_outflow = h;
    b.h_outflow = h;
    a.p = b.p;
  end Volume;
  Reservoir A(p = 2, h = 100), B(p = 1, h = 300);
  Pump pump;
  Short short;
  Volume v;
  constant Real pi = 3.141592653589793;
  Real I = (1 - cos(2*pi*time))/(2*pi);
  Real h1 = 100 + (200 - 100)*exp(-1/pi/0.5);
  Real exact = if time <= 0.5 then 100 + (200 - 100)*exp(-I/0.5) else 300 + (h1 - 300)*exp(-(1/pi - I)/0.5);
equation
  connect(A.port, pump.a);
  connect(pump.b, short.a);
  connect(short.b, v.a);
  connect(v.b, B.port);
  assert(abs(v.h - exact) < 1e-3, "the volume's enthalpy follows the closed form through the reversal");
  assert(abs(pump.hOut - (if pump.a.m_flow > 0 then 100 else v.h)) < 1e-6 or abs(pump.a.m_flow) < 1e-6,
    "actualStream at the pump's outlet is A's fluid while it pumps forward, the volume's while it reverses");
  annotation(experiment(StopTime = 1));
end StreamFlowReversal;
