// MLS 3.5, 8.6: pre(v) in an initial equation is v's value before the start: a value of
// parameters and constants, not of a state.
// EXPECT: error gives the start value of a discrete variable: a value of parameters and constants, but this one reads 'x'
model PreStartReadsState
  Real x(start = 1, fixed = true);
  Boolean above;
initial equation
  pre(above) = x >= 0.5;
equation
  der(x) = -1;
  above = x >= 0.5;
end PreStartReadsState;
