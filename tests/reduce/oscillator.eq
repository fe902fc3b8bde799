// A damped harmonic oscillator written with an algebraic acceleration (index 1).
model Oscillator "damped oscillator"
  parameter Real k = 4.0 "stiffness";
  parameter Real c = 0.1;
  Real x(start = 1.0, fixed = true);
  Real v(start = 0.0, fixed = true);
  Real a;                        // algebraic: index-1
equation
  der(x) = v;
  der(v) = a;
  a + c*v + k*x = 0;
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-8, Interval = 0.01));
end Oscillator;
