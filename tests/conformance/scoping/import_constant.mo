// MLS 3.5, 13.2.1: an import names any element of a package: `import P.c;` makes the constant c
// visible by its short name, `import P.*;` every element of P; lookup finds the class's own
// elements first, then its imports, then the enclosing classes' (5.3.1).
// EXPECT: simulate
// ARGS: --model Scoping.UsesConstants
package Scoping
  package Constants
    constant Real pi = 2 * Modelica_asin(1.0);
    constant Real g = 9.81;
    constant Real k = 2;
    function Modelica_asin
      input Real u;
      output Real y;
    external "builtin" y = asin(u);
    end Modelica_asin;
  end Constants;
  model UsesConstants
    import Scoping.Constants.pi;
    import Scoping.Constants.*;
    parameter Real k = 3 "its own element wins over the import's k";
    Real x(start = 0, fixed = true);
  equation
    der(x) = pi + g + k;
    assert(abs(x - (3.141592653589793 + 9.81 + 3) * time) < 1e-9, "pi, g from the imports, k its own");
  end UsesConstants;
end Scoping;
