// The 1-D heat equation T_t = alpha T_xx on (0, L) with T = 0 at both ends, by the method of
// lines on n interior points (arrays and for-equations). It starts in the first sine mode, which
// decays exactly as exp(-lambda t) with lambda = 4 alpha/dx^2 sin(pi dx/(2 L))^2.
model HeatEquation
  parameter Integer n = 50 "interior grid points";
  parameter Real L = 1 "length", alpha = 0.1 "diffusivity";
  parameter Real dx = L/(n + 1);
  constant Real pi = 3.141592653589793;
  Real T[n](start = {sin(pi*i*dx/L) for i in 1:n}, each fixed = true) "temperature";
  Real total "integral of T (trapezoid rule)";
equation
  der(T[1]) = alpha*(T[2] - 2*T[1])/dx^2;
  for i in 2:n - 1 loop
    der(T[i]) = alpha*(T[i + 1] - 2*T[i] + T[i - 1])/dx^2;
  end for;
  der(T[n]) = alpha*(T[n - 1] - 2*T[n])/dx^2;
  total = dx*sum(T);
  annotation(experiment(StopTime = 1, Tolerance = 1e-8, Interval = 0.01));
end HeatEquation;
