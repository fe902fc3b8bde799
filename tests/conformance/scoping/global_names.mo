// MLS 3.5, 5.3.3: a name with a leading dot is looked up at the top level only, past the
// enclosing classes' elements of the same name.
// ARGS: --model Lib.M
// EXPECT: simulate
package Lib
  constant Real g = 9.81;
  type T = Real(unit = "K");
  model M
    constant Real g = 1;
    Real a = .Lib.g;
    Real b = g;
    .Lib.T t = 300;
  equation
    assert(a == 9.81 and b == 1 and t == 300, "global and local names");
  end M;
end Lib;
