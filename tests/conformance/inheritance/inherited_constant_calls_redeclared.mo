// MLS 3.5, 5.6.1 and 7.3: an element inherited from a base class is part of the derived class, so
// names in its binding are looked up there: a base package's constant `h0 = f(1)`, where f's body
// calls the replaceable g, uses the derived package's g (Modelica.Media's PartialMedium.h_default
// = specificEnthalpy_pTX(...) calling each medium's setState_pTX).
// EXPECT: simulate
model InheritedConstantCallsRedeclared
  partial package Base
    replaceable partial function g
      input Real x;
      output Real y;
    end g;
    function f
      input Real x;
      output Real y;
    algorithm
      y := 10*g(x);
    end f;
    constant Real h0 = f(1);
  end Base;
  package Derived
    extends Base;
    redeclare function extends g
    algorithm
      y := x + 2;
    end g;
  end Derived;
  parameter Real h = Derived.h0;
  Real x = h*time;
equation
  assert(abs(h - 30) < 1e-12, "h0 = 10*g(1) with Derived's g");
end InheritedConstantCallsRedeclared;
