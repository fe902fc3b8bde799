// A sine oscillator whose frequency and amplitude are parameters that others depend on: omega
// follows f, the start values follow A and phase, and n is structural (an array size). The
// driver tests set f = 60 and A = 3 through eqc_sim and through an FMU.
model Dependent
  parameter Real f = 50 "frequency";
  parameter Real omega = 2*3.141592653589793*f;
  parameter Real A = 2, phase = 0.5;
  parameter Integer n = 2 "structural: the size of y";
  Real s(start = A*sin(phase), fixed = true), c(start = A*cos(phase), fixed = true);
  Real y[n](each start = 0, each fixed = true);
equation
  der(s) = omega*c;
  der(c) = -omega*s;
  for i in 1:n loop
    der(y[i]) = i;
  end for;
end Dependent;
