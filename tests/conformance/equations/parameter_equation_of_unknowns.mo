// MLS 3.5, 8.3.1: `p = e` with a parameter p on the left is an equation of the unknowns e reads
// (MSL's ConstantMagneticPotentialDifference: `V_m = port_p.V_m - port_n.V_m`); only where e
// reads no unknown has it nothing to determine (see assign_parameter in tests/diagnostics).
// EXPECT: simulate
model ParameterEquationOfUnknowns
  parameter Real V = 3;
  Real a, b;
equation
  V = a - b;
  b = 2 * time;
  assert(abs(a - (3 + 2 * time)) < 1e-12, "a follows from the parameter's equation");
  annotation(experiment(StopTime = 1));
end ParameterEquationOfUnknowns;
