// MLS 3.5, 4.5.1 and 7.2: a short package class with modifications is a package of its own, its
// base with those constants, which the package's functions see too (MSL's
// `package Medium = Modelica.Media.Air.MoistAir(extraPropertiesNames = {"CO2"})`).
// EXPECT: simulate
// ARGS: --model ShortPackageModified.M
package ShortPackageModified
  package Base
    constant String names[:] = fill("", 0);
    constant Integer n = size(names, 1);
    function count
      output Integer k = n;
    algorithm
    end count;
  end Base;
  model M
    package Q = Base(names = {"CO2", "H2O"});
    Real x[Q.n] = ones(Q.n)*time;
    Integer k = Q.count();
  equation
    assert(Q.n == 2 and k == 2 and Q.names[2] == "H2O" and Base.n == 0, "Q has the two names, Base none");
  end M;
end ShortPackageModified;
