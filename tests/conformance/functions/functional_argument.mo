// MLS 3.5, 12.4.2: a function passed as an argument, `function f(k = 2)` (partial application,
// as Modelica.Math.Nonlinear's solvers take their equations), is read; eqc reports that it does
// not support functional arguments yet.
// EXPECT: error functional arguments (`function Functional.scaled(...)`, MLS 3.5, 12.4.2) are not supported by eqc yet
model Functional
  partial function F
    input Real u;
    output Real y;
  end F;
  function scaled
    extends F;
    input Real k;
  algorithm
    y := k * u;
  end scaled;
  function apply
    input F f;
    input Real x;
    output Real y;
  algorithm
    y := f(x);
  end apply;
  Real z = apply(function Functional.scaled(k = 2), time);
end Functional;
