// Robertson's chemical kinetics (ROBER), the classic stiff test problem (Test Set for IVP Solvers,
// Mazzia and Magherini, Bari). Reference at t = 1e11: y1 = 0.2083340149701255e-07,
// y2 = 0.8333360770334713e-13, y3 = 0.9999999791665050. Needs a stiff method:
//   eqc simulate examples/rober.eq --method radau5 --rtol 1e-6 --atol 1e-10
model Rober "Robertson's stiff chemical kinetics"
  parameter Real k1 = 0.04, k2 = 3e7, k3 = 1e4;
  Real y1(start = 1, fixed = true), y2(start = 0, fixed = true), y3(start = 0, fixed = true);
equation
  der(y1) = -k1*y1 + k3*y2*y3;
  der(y2) = k1*y1 - k3*y2*y3 - k2*y2^2;
  der(y3) = k2*y2^2;
  annotation(experiment(StopTime = 1e11, Tolerance = 1e-6));
end Rober;
