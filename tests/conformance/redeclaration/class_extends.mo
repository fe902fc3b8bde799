// MLS 3.5, 7.3.1: `redeclare record extends S` and `redeclare model extends B(mods)` in a package
// that extends a partial package replace S and B by classes that extend the inherited ones; the
// base's own elements of type S see the redeclared S (as MSL's media do with ThermodynamicState).
// EXPECT: simulate
// ARGS: --model Media.Tank
package Media
  partial package PartialMedium
    replaceable record ThermodynamicState
      Real p;
    end ThermodynamicState;
    replaceable partial model BaseProperties
      ThermodynamicState state;
      Real p;
      Real d;
    equation
      state.p = p;
    end BaseProperties;
  end PartialMedium;
  package IdealGas
    extends PartialMedium;
    constant Real R = 287;
    redeclare record extends ThermodynamicState
      Real T;
    end ThermodynamicState;
    redeclare model extends BaseProperties(p(start = 1e5))
      Real T(start = 300);
    equation
      d = p / (R * T);
      state.T = T;
    end BaseProperties;
  end IdealGas;
  model Tank
    IdealGas.BaseProperties medium;
  equation
    medium.p = 1e5 * (1 + time);
    medium.T = 300;
    assert(abs(medium.d - medium.p / (287 * 300)) < 1e-9, "ideal gas density");
    assert(medium.state.T == 300 and medium.state.p == medium.p, "the redeclared record has T");
  end Tank;
end Media;
