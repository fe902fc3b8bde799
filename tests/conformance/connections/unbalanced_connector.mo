// MLS 3.5, 9.3.1: a connector has as many flow variables as potential variables.
// EXPECT: error connector 'Bad.Port' is not balanced: 2 potential variables (p, T) but 1 flow variable (m_flow)
model Bad
  connector Port
    Real p;
    Real T;
    flow Real m_flow;
  end Port;
  Port a;
equation
  a.p = 1;
  a.T = 2;
end Bad;
