// Predator-prey (Lotka-Volterra); the quantity V = delta*x - gamma*log(x) + beta*y - alpha*log(y) is conserved.
model LotkaVolterra "predator-prey"
  parameter Real alpha = 1.5, beta = 1, gamma = 3, delta = 1;
  Real x(start = 10, fixed = true) "prey";
  Real y(start = 5, fixed = true) "predators";
  Real V "conserved quantity";
equation
  der(x) = alpha*x - beta*x*y;
  der(y) = delta*x*y - gamma*y;
  V = delta*x - gamma*log(x) + beta*y - alpha*log(y);
  annotation(experiment(StopTime = 15, Tolerance = 1e-9, Interval = 0.01));
end LotkaVolterra;
