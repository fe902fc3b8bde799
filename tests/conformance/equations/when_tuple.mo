// MLS 3.5, 8.3.5 and 12.4.3: in a when-clause, `(a, b) = f(x)` assigns each output named, as
// MSL's noise blocks draw `(r_raw, state) = generator.random(pre(state))`.
// EXPECT: simulate
model WhenTuple
  function step
    input Integer state;
    output Real r;
    output Integer next;
  algorithm
    next := mod(5 * state + 1, 16);
    r := next / 16;
  end step;
  discrete Real r(start = 0, fixed = true);
  discrete Integer state(start = 1, fixed = true);
  Integer n(start = 0, fixed = true);
equation
  when sample(0.1, 0.1) then
    (r, state) = step(pre(state));
    n = pre(n) + 1;
  end when;
  // the linear congruence 1 -> 6 -> 15 -> 12 -> 13 -> 2 ... (x' = 5x + 1 mod 16)
  assert(n <> 1 or state == 6 and r == 6 / 16, "first draw");
  assert(n <> 3 or state == 12 and r == 12 / 16, "third draw");
  annotation(experiment(StopTime = 0.45));
end WhenTuple;
