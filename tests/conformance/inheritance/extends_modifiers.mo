// MLS 3.5, 7.1 and 7.2: extends copies the base's elements and equations; modifications of the
// extends clause and of the declaration apply outermost first.
// EXPECT: simulate
model Derived
  partial model Base
    parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k * x;
  end Base;
  model Fast
    extends Base(k = 3);
  end Fast;
  Fast f;
  Fast g(k = 5);
equation
  assert(abs(f.x - exp(-3 * time)) < 1e-6 and abs(g.x - exp(-5 * time)) < 1e-6, "modifiers");
  annotation(experiment(StopTime = 1, Tolerance = 1e-10));
end Derived;
