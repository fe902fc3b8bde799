// MLS 3.5, 12.4.4: the bindings of a function's protected variables may read variables declared
// after them (they are initialized in the order of their dependencies), parameters among them.
// EXPECT: simulate
model BindingOrder
  function f
    input Real x;
    output Real s;
  protected
    Integer n = k + 1;
    parameter Integer p = k * 2;
    Integer k = 2;
    Real v[3] = fill(a, 3);
    Real a = b + 1;
    Real b = 2 * x;
  algorithm
    s := n * sum(v) + p;
  end f;
  Real y = f(time);
equation
  // v holds three times a = 2 time + 1, after b and a although declared before them.
  assert(abs(y - (3 * 3 * (2 * time + 1) + 4)) < 1e-12, "n = 3, p = 4, v = fill(2 time + 1, 3)");
  annotation(experiment(StopTime = 0.5));
end BindingOrder;
