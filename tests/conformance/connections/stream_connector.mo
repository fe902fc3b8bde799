// MLS 3.5, 15: `stream` variables of fluid connectors are read; eqc reports that it does not
// support stream connectors yet (at the variable).
// EXPECT: error 'port.h_outflow' is a stream variable (MLS 3.5, 15): eqc does not support stream connectors yet
model StreamPort
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;
  FluidPort port;
equation
  port.p = 1;
  port.h_outflow = 2;
end StreamPort;
