// MLS 3.5, 8.6: a parameter with fixed = false is computed at initialization from its initial
// equation, which may read states whose start values are fixed and time (the start time), and a
// start value of its type is only a guess (MSL's HeatTransfer.Examples.TwoMasses,
// Blocks.Math.Mean's t0 = time).
// EXPECT: simulate
model AtStart
  type Temperature = Real(start = 288.15, unit = "K");
  parameter Temperature Tf(fixed = false) "the final temperature";
  parameter Real t0(fixed = false);
  Real T1(start = 373.15, fixed = true);
  Real T2(start = 273.15, fixed = true);
equation
  der(T1) = T2 - T1;
  der(T2) = T1 - T2;
  assert(abs(Tf - 323.15) < 1e-9 and t0 == 1, "computed at the start");
initial equation
  Tf = (T1 + T2) / 2;
  t0 = time;
  annotation(experiment(StartTime = 1, StopTime = 2));
end AtStart;
