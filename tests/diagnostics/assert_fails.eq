// RUN: simulate -o assert_fails.csv
// MLS 3.5, 8.3.7: an assert of an equation section that fails stops the simulation with its
// message, at the time it first fails (located within the step that found it); a warning-level
// one is reported once and the run goes on; the results so far are kept.
model Tank "a tank filled at a constant rate: h = 1 + q t"
  parameter Real q = 2 "inflow";
  parameter Real hmax = 5;
  Real h(start = 1, fixed = true);
  Real spill[2];
equation
  der(h) = q;
  for i in 1:2 loop
    spill[i] = h - i;
  end for;
  assert(h < hmax, "tank overflows: h = " + String(h) + " > " + String(hmax, significantDigits = 3) +
                   ", 100% full", AssertionLevel.error);
  assert(h < 3, "level above " + String(3, minimumLength = 3, leftJustified = false) + " at q = " +
                String(q, format = ".2f"), level = AssertionLevel.warning);
  assert(q > 0 and hmax > 1, "q must be positive");
  annotation(experiment(StopTime = 10, Interval = 0.5));
end Tank;
