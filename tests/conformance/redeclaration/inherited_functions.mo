// MLS 3.5, 5.6.1.4 and 7.3: the classes a package inherits are its members, with its
// redeclarations: a function that Water inherits from PartialMedium (twice), and the base of
// Water's `redeclare function extends temperature`, read Water's ThermodynamicState (with T),
// call Water's temperature and see Water's constants (its extends clause's scale = 3), as MSL's
// media functions do; a base package's modification of an inherited type (`Temperature(start =
// 250)`) applies to the type as Water's member; a function inherited twice over (through
// ColdWater) sees the most derived redeclaration.
// EXPECT: simulate
// ARGS: --model Media.Use
package Media
  partial package PartialMedium
    constant Real scale = 1;
    type Temperature = Real(min = 0, unit = "K");
    replaceable record ThermodynamicState
    end ThermodynamicState;
    replaceable partial function temperature
      input ThermodynamicState state;
      output Temperature T;
    end temperature;
    replaceable function twice
      input ThermodynamicState state;
      output Real T2 = 2*scale*temperature(state);
    end twice;
  end PartialMedium;
  package Water
    extends PartialMedium(scale = 3, Temperature(start = 250));
    redeclare record extends ThermodynamicState
      Real T;
    end ThermodynamicState;
    redeclare function extends temperature
    algorithm
      T := state.T;
    end temperature;
  end Water;
  package ColdWater
    extends Water;
    redeclare function extends temperature
    algorithm
      T := state.T - 10;
    end temperature;
  end ColdWater;
  model Use
    package Medium = Water;
    Medium.ThermodynamicState s(T = 300 + time);
    Real T = Medium.temperature(s);
    Real T2 = Medium.twice(s);
    Real cold = ColdWater.twice(ColdWater.ThermodynamicState(T = 300));
    Medium.Temperature t(fixed = true);
  equation
    der(t) = -10;
    assert(T == 300 + time and abs(T2 - 6*(300 + time)) < 1e-9, "Water's twice: 2*scale*T with scale = 3");
    assert(cold == 6*290, "ColdWater's twice calls ColdWater's temperature");
    assert(abs(t - (250 - 10*time)) < 1e-6, "t starts from the inherited type's modified start: " + String(t));
    annotation(experiment(StopTime = 0.5));
  end Use;
end Media;
