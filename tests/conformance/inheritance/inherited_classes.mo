// MLS 3.5, 5.3.1 and 7.1: the classes a class inherits are its members: a derived model uses the
// types, records and functions of its base, and a package that extends a package offers the
// base's classes under its own name (Derived.decay, Derived.Rate) — the way libraries share
// interfaces.
// EXPECT: simulate
// ARGS: --model Lib.Tank
package Lib
  partial package Interfaces
    type Rate = Real(unit = "1/s");
    record Coefficients
      Rate k = 2;
    end Coefficients;
    function decay
      input Real x;
      input Real k;
      output Real dx = -k * x;
    end decay;
    partial model Base
      record Local
        Real scale = 3;
      end Local;
    end Base;
  end Interfaces;
  package Derived
    extends Interfaces;
    constant Real offset = 1;
  end Derived;
  model Tank
    extends Derived.Base;
    Derived.Coefficients c;
    Derived.Rate r = c.k;
    Local l;
    Real x(start = 1, fixed = true);
  equation
    der(x) = Derived.decay(x, r);
    assert(abs(x - exp(-2 * time)) < 1e-5, "x = exp(-2 t)");
    assert(l.scale == 3, "the inherited record's default");
  end Tank;
end Lib;
