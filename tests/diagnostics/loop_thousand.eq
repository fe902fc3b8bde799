// RUN: simulate -o out.csv
// The failing loop is the 1001st (code 1000 + 1000): not taken for another kind of failure.
model ManyLoops "1001 independent 2x2 nonlinear loops; the last has no real solution"
  parameter Integer n = 1001;
  Real a[n](each start = 0.5), b[n](each start = 0.5), x(start = 0, fixed = true);
equation
  for i in 1:n loop
    a[i]^2 + b[i]^2 = if i == n then -1 - time else 1;
    a[i] = b[i]*(1 + 0.1*sin(a[i]));
  end for;
  der(x) = a[1];
end ManyLoops;
