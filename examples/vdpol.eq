// Van der Pol's equation with mu = 1e6 in the scaling of Hairer and Wanner (VDPOL of the Test Set for
// IVP Solvers): eps = 1/mu. Reference at t = 2 from y(0) = (2, 0): y1 = 0.1706167732170483e1,
// y2 = -0.8928097010247975. Needs a stiff method (--method radau5).
model VanDerPol "Van der Pol, mu = 1e6"
  parameter Real eps = 1e-6;
  Real y1(start = 2, fixed = true), y2(start = 0, fixed = true);
equation
  der(y1) = y2;
  der(y2) = ((1 - y1^2)*y2 - y1)/eps;
  annotation(experiment(StopTime = 2, Tolerance = 1e-6));
end VanDerPol;
