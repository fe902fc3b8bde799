// A first-order filter driven by a top-level input (Modelica 3.5, 4.4.2.2: given by the
// environment), with a declared output.
model Filter "first-order filter"
  parameter Real T = 0.5 "time constant";
  input Real u(start = 2) "drive";
  output Real y "twice the filtered drive";
  Real x(start = 0, fixed = true) "filtered drive";
  Real e "the error, not an output";
equation
  T*der(x) = e;
  e = u - x;
  y = 2*x;
  annotation(experiment(StopTime = 2, Tolerance = 1e-10, Interval = 0.01));
end Filter;
