// MLS 3.5, 15.1: a stream connector must have exactly one scalar variable with the flow prefix.
// EXPECT: error has 2 flow variables (m1, ...): a connector with stream variables has exactly one scalar flow variable
model StreamTwoFlows
  connector TwoFlows
    Real p1, p2;
    flow Real m1, m2;
    stream Real h;
  end TwoFlows;
  TwoFlows c;
equation
  c.p1 = 1;
  c.p2 = 1;
  c.h = 2;
end StreamTwoFlows;
