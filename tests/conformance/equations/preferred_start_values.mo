// MLS 3.5, 4.8.8.1 and 8.6: without initial equations, states start at their start values. U and
// m have none; T and level, which stateSelect = prefer names as the states a modeller wants, do:
// their start values initialize the model in place of U's and m's, as where a tool makes them the
// states. With m = d A level and U = m c T, m = 1000 - t and m c dT/dt = 100, so
// T = 300 + 0.025 ln(1000/(1000 - t)) and level = (1000 - t)/500.
// EXPECT: simulate
model PreferredStartValues
  parameter Real A = 0.5, d = 1000, c = 4000;
  Real U, m;
  Real T(start = 300, stateSelect = StateSelect.prefer);
  Real level(start = 2, stateSelect = StateSelect.prefer);
equation
  m = d*A*level;
  U = m*c*T;
  der(m) = -1;
  der(U) = -c*T + 100;
  assert(abs(level - (1000 - time)/500) < 1e-9, "level = (1000 - t)/500");
  assert(abs(T - (300 + 0.025*log(1000/(1000 - time)))) < 1e-6, "T from the energy balance");
  annotation(experiment(StopTime = 10));
end PreferredStartValues;
