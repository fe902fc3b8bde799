// MLS 3.5, 11.2.7: when-statements: discrete assignments that read pre-values, reinit; an
// initial algorithm gives the start.
// EXPECT: simulate
model Bounce
  Real h(start = 1, fixed = true), v(start = 0, fixed = true);
  Integer n(start = 0);
  Real y;
equation
  der(h) = v;
  der(v) = -9.81;
  der(y) = 0;
algorithm
  when h < 0 then
    reinit(v, -0.5 * pre(v));
    n := n + 1;
  end when;
  assert(n < 2 or time > 0.4515 + 0.4515, "the second bounce comes after the first flight and half of it");
initial algorithm
  y := 3;
  y := 2 * y;
equation
  assert(abs(y - 6) < 1e-12, "initial algorithm");
  annotation(experiment(StopTime = 1.2, Tolerance = 1e-10));
end Bounce;
