// MLS 3.5, 8.3.7: assert(condition, message, level) in equation sections (also in for-equations
// and in the branches of if-equations); conditions that hold never stop the run.
// EXPECT: simulate
model Decay
  parameter Real k[3] = {1, 2, 3};
  Real x[3](each start = 1, each fixed = true);
equation
  for i in 1:3 loop
    der(x[i]) = -k[i] * x[i];
    assert(abs(x[i] - exp(-k[i] * time)) < 1e-6, "x[" + String(i) + "] = " + String(x[i]));
  end for;
  if time > 0.5 then
    assert(x[1] < exp(-0.5) + 1e-9, "after 0.5");
  end if;
  assert(x[3] > 0.001, "warned once", AssertionLevel.warning);
  annotation(experiment(StopTime = 3, Tolerance = 1e-10));
end Decay;
