// MLS 3.5, 15.1: the stream prefix can only be used in a connector declaration.
// EXPECT: error 'h' is declared 'stream' outside a connector (MLS 3.5, 15.1
model StreamOutsideConnector
  stream Real h;
equation
  h = 1;
end StreamOutsideConnector;
