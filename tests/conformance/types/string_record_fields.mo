// MLS 3.5, 12.6 with 4.8.4: records with String fields (MSL's FluidConstants: iupacName,
// chemicalFormula): a record constructor gives them (a default too), a constant record and a
// parameter record array bound to it keep them, functions read the record's other fields, and
// the fields compare and make messages.
// EXPECT: simulate
model StringRecordFields
  record FluidConstants
    String iupacName;
    String formula = "H2O";
    Real molarMass;
  end FluidConstants;
  function molarMass
    input FluidConstants fc;
    output Real m = fc.molarMass;
  end molarMass;
  constant FluidConstants water = FluidConstants(iupacName = "oxidane", molarMass = 0.018);
  parameter FluidConstants all[1] = {water};
  parameter String name = all[1].iupacName;
  Real x(start = 1, fixed = true);
equation
  der(x) = -molarMass(water)*x;
  assert(name == "oxidane" and water.formula == "H2O" and all[1].formula == "H2O", "the String fields: " + name);
  assert(abs(x - exp(-0.018*time)) < 1e-6, "the Real field");
  annotation(experiment(StopTime = 1));
end StringRecordFields;
