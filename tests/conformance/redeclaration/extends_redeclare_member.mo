// MLS 3.5, 7.3: `extends B(redeclare record R = S)` makes S the class R as a member of the
// deriving package, for the elements it inherits too (MSL's PartialTwoPhaseMedium redeclares
// FluidConstants this way; its fluidConstants then hold the extended record).
// EXPECT: simulate
// ARGS: --model Media.Use
package Media
  record Basic
    Real molarMass;
  end Basic;
  record Extended
    extends Basic;
    Real criticalTemperature;
  end Extended;
  partial package PartialMedium
    replaceable record FluidConstants = Basic;
    constant FluidConstants fluidConstants;
  end PartialMedium;
  package Water
    extends PartialMedium(redeclare record FluidConstants = Extended,
      fluidConstants = Extended(molarMass = 0.018, criticalTemperature = 647.1));
  end Water;
  model Use
    Water.FluidConstants fc = Water.fluidConstants;
    Real T = fc.criticalTemperature*(1 + time);
  equation
    assert(fc.molarMass == 0.018 and abs(T - 647.1*(1 + time)) < 1e-9, "Water's fluid constants are Extended");
    annotation(experiment(StopTime = 1));
  end Use;
end Media;
