// MLS 3.5, 9.3 and 15.1: connected connectors' variables pair by name, stream with stream (an
// input is no stream variable).
// EXPECT: error 'h' is a stream variable in one and not in the other
model StreamConnectMismatch
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h;
  end FluidPort;
  connector PlainPort
    Real p;
    flow Real m_flow;
    input Real h;
  end PlainPort;
  model A
    FluidPort port;
  equation
    port.h = 1;
    port.p = 1;
  end A;
  model B
    PlainPort port;
  end B;
  A a;
  B b;
equation
  connect(a.port, b.port);
end StreamConnectMismatch;
