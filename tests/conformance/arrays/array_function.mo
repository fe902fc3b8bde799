// MLS 3.5, 10.4.1: array(A, B, C, ...) constructs an array from its arguments, as {A, B, C, ...}
// does, also with iterators (array(e for i in r)); MSL's IF97 data tables are written with it.
// EXPECT: simulate
model ArrayFunction
  constant Real[5] n = array(1, 2, 3, 4, 5);
  constant Real m[2, 2] = array(array(1, 2), array(3, 4));
  Real y[3] = array(i*time for i in 1:3);
equation
  assert(sum(n) == 15 and m[2, 1] == 3 and size(m, 2) == 2, "array() of its arguments");
  assert(y[1] == time and y[3] == 3*time, "array() with an iterator");
  annotation(experiment(StopTime = 1));
end ArrayFunction;
