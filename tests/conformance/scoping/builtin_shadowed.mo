// MLS 3.5, 5.3.1: a name is looked up in the enclosing classes before the builtins, which are
// found last as if in the global scope: inside package Shadow, `abs` is Shadow.abs; outside it,
// the builtin; `.sqrt` (a global name) is the builtin sqrt even where a class defines its own.
// EXPECT: simulate
// ARGS: --model Shadow.Test
package Shadow
  function abs "not the builtin: the square"
    input Real x;
    output Real y;
  algorithm
    y := x * x;
  end abs;
  function sqrt
    input Real x;
    output Real y;
  algorithm
    y := -1;
  end sqrt;
  function twice
    input Real x;
    output Real y;
  algorithm
    y := 2 * abs(x) + .sqrt(4);
  end twice;
  model Test
    Real a = abs(-3) "Shadow.abs";
    Real b = twice(-3);
    Real c = sqrt(9) "Shadow.sqrt";
  equation
    assert(a == 9 and b == 20 and c == -1, "the package's functions hide the builtins");
    assert(Builtin.check(-3) == 3, "outside the package, abs is the builtin");
    annotation(experiment(StopTime = 1));
  end Test;
end Shadow;

package Builtin
  function check
    input Real x;
    output Real y;
  algorithm
    y := abs(x);
  end check;
end Builtin;
