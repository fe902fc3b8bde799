// MLS 3.5, 3.7.2: semiLinear(x, positiveSlope, negativeSlope) is positiveSlope*x for x >= 0 and
// negativeSlope*x below (a heat flow carried by a mass flow of either sign), element-wise: array
// arguments share one shape, a scalar applies to every element (3.7.2.5, MSL's pipes' mass
// fractions: semiLinear(m_flow, Xi_upstream, Xi_downstream)).
// EXPECT: simulate
model SemiLinear
  Real m_flow = 1 - 2 * time "from 1 to -1";
  Real H = semiLinear(m_flow, 300, 400) "enthalpy flow: upstream temperature by the sign";
  Real h[2] = semiLinear({m_flow, -m_flow}, 2, 5);
  Real X[2] = semiLinear(m_flow, {0.2, 0.8}, {0.6, 0.4});
equation
  assert(abs(H - (if m_flow >= 0 then 300 * m_flow else 400 * m_flow)) < 1e-12, "the slope of the flow's side");
  assert(abs(h[2] - (if m_flow <= 0 then -2 * m_flow else -5 * m_flow)) < 1e-12, "element-wise");
  assert(abs(X[1] - (if m_flow >= 0 then 0.2 else 0.6) * m_flow) < 1e-12 and
         abs(X[2] - (if m_flow >= 0 then 0.8 else 0.4) * m_flow) < 1e-12, "a scalar flow over arrays of slopes");
  annotation(experiment(StopTime = 1));
end SemiLinear;
