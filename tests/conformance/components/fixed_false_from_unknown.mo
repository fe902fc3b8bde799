// MLS 3.5, 8.6: a parameter with fixed = false is computed at initialization; its initial
// equation may read unknowns that equations fix from parameters alone (MSL's pipe flow models:
// dp_nominal from dp_fric_nominal = sum(pressureLoss_m_flow(m_flow_nominal, ...))).
// EXPECT: simulate
model FixedFalseFromUnknown
  parameter Real k = 2;
  Real a = k*3 "an unknown that parameters fix";
  Real b = a + 1;
  parameter Real p(fixed = false);
  Real x = p*time;
initial equation
  p = b/7;
equation
  assert(abs(p - 1) < 1e-12, "p = (k*3 + 1)/7");
end FixedFalseFromUnknown;
