// MLS 3.5, 5.3 and 13.2: names are looked up in the enclosing classes and through imports.
// ARGS: --model Outer.M
// EXPECT: simulate
package Outer
  constant Real c = 2;
  package Inner
    function twice
      input Real x;
      output Real y;
    algorithm
      y := c * x;
    end twice;
  end Inner;
  model M
    import Outer.Inner.twice;
    import I = Outer.Inner;
    Real a = twice(time), b = I.twice(1);
  equation
    assert(abs(a - 2 * time) < 1e-12 and b == 2, "lookup");
  end M;
end Outer;
