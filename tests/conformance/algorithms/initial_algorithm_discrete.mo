// MLS 3.5, 8.6 and 11.1: an initial algorithm (or initial equation) of discrete variables that a
// when-clause assigns gives their values at initialization, from time and each other (as MSL's
// Trapezoid sets its period count and start); afterwards the when-clause takes over.
// EXPECT: simulate
model PeriodStart
  parameter Real period = 0.3, startTime = 0.1;
  Real T_start;
  Integer count;
initial algorithm
  count := integer((time - startTime) / period);
  T_start := startTime + count * period;
equation
  when integer((time - startTime) / period) > pre(count) then
    count = pre(count) + 1;
    T_start = time;
  end when;
  assert(count == integer((time - startTime) / period + 1e-9), "count is the number of periods begun");
  assert(abs(T_start - (startTime + count * period)) < 1e-9, "T_start is the start of the current period");
end PeriodStart;
