// MLS 3.5, 8.6: consistent initial values of an index-2 model (the volume's V appears
// differentiated in the work term -p der(V), so m = d V, U = m u and the medium's equations are
// differentiated) from start values far from them: the density starts at 1 (MSL's Density start)
// where u = h - p/d couples it to the energy, and the simultaneous projection overshoots; solved
// in the order of the constraints' dependencies (T and the level first, then d, h, u, m and U)
// it converges. Then m = 993.2044 V and m decreases by 1 kg/s.
// EXPECT: simulate
model IndexReducedStartInOrder
  parameter Real p = 101325, A = 1, level_start = 1, T_start = 293.15;
  Real h(start = 60000), d(start = 1), u, U, m, T(start = 288.15), V, level;
  Real Hb = -1000, Wb;
initial equation
  T = T_start;
  level = level_start;
equation
  m = d*V;
  U = m*u;
  d = -0.2563714665*T + 4.50207957e-07*p + 1068.3141060857317;
  h = 4181.9*T + 0.0009312264084047943*p - 1058360.8415158314;
  u = h - p/d;
  der(U) = Hb + Wb;
  Wb = -p*der(V);
  der(m) = -1;
  V = A*level;
  assert(abs(d - (-0.2563714665*T + 4.50207957e-07*p + 1068.3141060857317)) < 1e-6, "the medium's density");
  assert(time > 0 or (abs(T - 293.15) < 1e-8 and abs(level - 1) < 1e-8), "the initial equations hold");
  assert(abs(m - (993.2044280024999 - time)) < 1e-5, "m decreases by 1 kg/s");
  annotation(experiment(StopTime = 1));
end IndexReducedStartInOrder;
