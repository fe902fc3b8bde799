// MLS 3.5, 8.6: an initial equation pre(v) = e gives a discrete variable's value before the start,
// e of parameters and constants. Here e reads y, an unknown that equations fix from the parameter
// h alone (MSL's AST_BatchPlant tanks read a RealInput bound to a port's height): accepted once
// that is known; one that reads a variable changing in time is an error (pre_start_reads_state.mo).
// EXPECT: simulate
model PreStartFromAlias
  parameter Real h = 0.5;
  Real x(start = 1, fixed = true);
  Real y = h;
  Real z;
  Boolean above;
initial equation
  pre(above) = 1 >= y;
equation
  z = y;
  der(x) = -1;
  above = x >= z;
  assert(above == (x >= 0.5), "above follows x");
  annotation(experiment(StopTime = 1));
end PreStartFromAlias;
