// MLS 3.5, 3.6.5: an if-expression whose condition is known when the model is compiled is its
// chosen branch; the other branch may have other sizes and is not evaluated (MSL's media build
// `if size(X, 1) == nX then State(X = X) else State(X = cat(1, X, {1 - sum(X)}))`, where the
// second record would not fit). Both ways are taken here: with X of 2 and of 1 mass fractions.
// EXPECT: simulate
model KnownCondition
  record State
    Real p;
    Real X[2];
  end State;
  function setState
    input Real p;
    input Real X[:];
    output State s;
  algorithm
    s := if size(X, 1) == 2 then State(p = p, X = X) else State(p = p, X = cat(1, X, {1 - sum(X)}));
  end setState;
  State full = setState(1 + time, {0.25, 0.75});
  State reduced = setState(2, {0.4});
  Real y = if size(full.X, 1) == 2 then full.X[2] else {1, 2, 3} * {1, 1, 1};
equation
  assert(full.p == 1 + time and full.X[1] == 0.25 and y == 0.75, "the full mass fractions");
  assert(reduced.p == 2 and reduced.X[1] == 0.4 and abs(reduced.X[2] - 0.6) < 1e-12, "the reduced ones, completed");
  annotation(experiment(StopTime = 1));
end KnownCondition;
