// MLS 3.5, 12.6.1: a record constructor's inputs are the record's fields; the default of one is
// the value an extends clause gives it (`extends Material(Br = 0.58)`), else its declaration's,
// and a default may read the fields before it (`final parameter Real Bop = Br*(1 + alpha*...)`).
// EXPECT: simulate
model RecordConstructorDefaults
  record Material
    parameter Real Br = 1 "remanence at Tref";
    parameter Real alpha = 0;
    parameter Real Tref = 293.15;
    parameter Real Top = 293.15;
    final parameter Real Bop = Br * (1 + alpha * (Top - Tref)) "remanence at Top";
  end Material;
  record Plastic
    extends Material(Br = 0.58, alpha = -0.001, Tref = 293.15);
  end Plastic;
  parameter Material base = Material();
  parameter Material plastic = Plastic(Top = 393.15);
  Real y = plastic.Bop * time;
equation
  assert(abs(base.Bop - 1) < 1e-12, "the declaration's defaults");
  assert(abs(plastic.Br - 0.58) < 1e-12, "the extends clause's default");
  assert(abs(plastic.Bop - 0.58 * (1 - 0.1)) < 1e-12, "a final field of the fields before it");
  assert(abs(y - 0.522 * time) < 1e-12, "and used in an equation");
  annotation(experiment(StopTime = 1));
end RecordConstructorDefaults;
