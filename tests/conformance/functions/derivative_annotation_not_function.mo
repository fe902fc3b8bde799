// MLS 3.5, 12.7.1: the derivative annotation names a function.
// EXPECT: error the derivative 'Deriv' of function 'DerivativeNotFunction.f' is not a function
model DerivativeNotFunction
  function f
    input Real x;
    output Real y;
  algorithm
    y := x ^ 2;
    annotation(derivative = Deriv);
  end f;
  model Deriv
  end Deriv;
  Real y = f(time);
end DerivativeNotFunction;
