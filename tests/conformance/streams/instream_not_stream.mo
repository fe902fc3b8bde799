// MLS 3.5, 15.2: inStream(v) is only allowed on stream variables v.
// EXPECT: error 'port.p' is not a stream variable: inStream() takes a variable declared 'stream'
model InStreamNotStream
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;
  FluidPort port;
  Real x;
equation
  port.p = 1;
  port.h_outflow = 2;
  x = inStream(port.p);
end InStreamNotStream;
