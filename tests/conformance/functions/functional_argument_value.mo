// MLS 3.5, 12.4.2: the argument of a functional input is a function (a name or a partial
// application), not a value.
// EXPECT: error argument 'f' of 'NotAFunction.apply' must be a function: a function's name or `function f(name = value)` (MLS 3.5, 12.4.2)
model NotAFunction
  partial function F
    input Real u;
    output Real y;
  end F;
  function apply
    input F f;
    input Real x;
    output Real y = f(x);
  end apply;
  Real z = apply(2 * time, time);
end NotAFunction;
