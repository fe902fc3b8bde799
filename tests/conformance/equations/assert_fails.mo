// MLS 3.5, 8.3.7: an assertion that fails stops the simulation with its message.
// EXPECT: error at time 0.69314
model Tank
  Real h(start = 1, fixed = true);
equation
  der(h) = h;
  assert(h < 2, "overflow at h = " + String(h, significantDigits = 3));
  annotation(experiment(StopTime = 1, Tolerance = 1e-10));
end Tank;
