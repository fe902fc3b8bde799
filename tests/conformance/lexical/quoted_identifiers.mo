// MLS 3.5, 2.3.1: quoted identifiers ('x y' is one name, the quotes part of it, distinct from an
// unquoted one); a file may start with a UTF-8 byte-order mark.
// EXPECT: simulate
model 'Quoted model'
  parameter Real 'decay rate' = 2;
  Real 'x y'(start = 1, fixed = true);
  Real x "not the same as 'x'";
  Real 'x';
equation
  der('x y') = -'decay rate' * 'x y';
  x = 2 * 'x y';
  'x' = 3 * 'x y';
  assert(abs('x y' - exp(-2 * time)) < 1e-6 and abs(x - 2 * 'x y') < 1e-12 and 'x' > x, "quoted names");
  annotation(experiment(StopTime = 1));
end 'Quoted model';
