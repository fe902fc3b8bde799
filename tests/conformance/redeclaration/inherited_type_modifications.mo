// MLS 3.5, 7.2 and 5.6.1.4: a base package's extends clause that modifies an inherited type
// (`extends PartialMedium(Temperature(start = T0))`) is read in the base as part of the package
// that uses it: T0 is the final package's constant (Steam sets it in its extends clause), while
// names around the base (its enclosing package's `Offset`) are still found. MSL's SingleGasNasa
// modifies SpecificEnthalpy's start with its `data`, which each gas gives.
// EXPECT: simulate
// ARGS: --model Media.Use
package Media
  constant Real Offset = 50;
  partial package PartialMedium
    type Temperature = Real(unit = "K");
  end PartialMedium;
  partial package Gas
    extends PartialMedium(Temperature(start = T0 + Offset));
    constant Real T0;
  end Gas;
  package Steam
    extends Gas(T0 = 400);
  end Steam;
  model Use
    Steam.Temperature t(fixed = true);
  equation
    der(t) = -1;
    assert(abs(t - (450 - time)) < 1e-9, "t starts at Steam's T0 + Offset = 450: " + String(t));
    annotation(experiment(StopTime = 1));
  end Use;
end Media;
