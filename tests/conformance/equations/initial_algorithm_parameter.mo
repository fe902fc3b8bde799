// MLS 3.5, 8.6: a parameter with fixed = false is computed at initialization, here by an initial
// algorithm (as MSL's SimpleFriction computes its coefficient k), and keeps that value.
// EXPECT: simulate
model InitialAlgorithmParameter
  parameter Real dpNominal = 5, dpLaminar = 1, Vnominal = 2, Vlaminar = 1;
protected
  parameter Real k(fixed = false);
public
  Real V = 1 + time;
  Real dp = dpLaminar * V + k * (V - Vlaminar)^2;
initial algorithm
  assert(Vnominal > Vlaminar, "the nominal flow is beyond the laminar one");
  k := (dpNominal - dpLaminar / Vlaminar * Vnominal) / (Vnominal - Vlaminar)^2;
equation
  assert(abs(k - 3) < 1e-12, "k = (5 - 2) / 1");
  assert(abs(dp - ((1 + time) + 3 * time^2)) < 1e-9, "the friction law with k");
  annotation(experiment(StopTime = 1));
end InitialAlgorithmParameter;
