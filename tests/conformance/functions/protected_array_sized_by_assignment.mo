// MLS 3.5, 12.4.4 and 12.4.5: a protected array or an output of a function declared with `:` and
// no binding takes its size from the statement that first assigns it whole (`X := f(u)`, MSL's
// ReferenceMoistAir.Xsaturation), also where that reads protected variables declared after it
// (`Xsat := {a/q, 1 - a/q}`); a known index out of bounds in a statement that does not run for
// the sizes given is no error; a binding may read a protected Integer declared after it and
// known for the call's sizes (`output Real x[2] = cat(1, b, zeros(2 - nrow))`, MSL's
// dgelsy_vec), also one that the algorithm writes afterwards (bindings are evaluated before the
// algorithm runs: `zeros(n)` with `Integer n = size(b, 1)` that is then incremented) (12.4.4: functions are specialized to their arguments' sizes; the
// index fails only if the statement runs). The asserts check the values.
// EXPECT: simulate
model ProtectedArraySizedByAssignment
  function pair
    input Real u;
    output Real y[2];
  algorithm
    y := {u, 2*u};
  end pair;
  function second
    input Real u;
    output Real s;
  protected
    Real[:] X;
  algorithm
    X := pair(u);
    s := X[2] + size(X, 1);
  end second;
  function split
    input Real a;
    input Real X[:];
    output Real Xsat[:];
  protected
    Real q = 2*a;
  algorithm
    Xsat := {a/q, 1 - a/q + (if size(X, 1) > 1 then X[2] else X[1])};
    if size(X, 1) == 1 and a < 0 then
      Xsat[1] := X[2];
    end if;
  end split;
  function padded
    input Real b[:];
    output Real x[2] = cat(1, b, zeros(2 - nrow));
  protected
    Integer nrow = size(b, 1);
  end padded;
  function counted
    input Real b[:];
    output Real y;
  protected
    Integer n = size(b, 1);
    Real z[size(b, 1)] = zeros(n) .+ 1;
  algorithm
    n := n + 1;
    y := sum(z) + n;
  end counted;
  Real c = counted({time, 2, 3});
  Real z = second(time);
  Real w[2] = split(1 + time, {0.25});
  Real v[2] = padded({3*time});
equation
  assert(abs(z - (2*time + 2)) < 1e-12, "z = " + String(z));
  assert(c == 7, "c = " + String(c));
  assert(abs(v[1] - 3*time) < 1e-15 and v[2] == 0, "v = " + String(v[1]) + ", " + String(v[2]));
  assert(abs(w[1] - 0.5) < 1e-15 and abs(w[2] - 0.75) < 1e-15, "w = " + String(w[1]) + ", " + String(w[2]));
  annotation(experiment(StopTime = 1));
end ProtectedArraySizedByAssignment;
