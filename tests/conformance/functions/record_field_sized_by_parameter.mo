// MLS 3.5, 12.6 and 10.1: a record's array field may be sized by an Integer parameter field of the
// same record, which an extends clause or a component's modifier sets (`parameter Integer nc = 5;
// parameter Real a[nc];`, MSL's R134a coefficient records); a record variable of a function has
// the fields as its class and modifiers make them. The asserts check the values.
// EXPECT: simulate
model RecordFieldSizedByParameter
  record Coefficients
    parameter Integer nc = 5;
    parameter Real[nc] a;
  end Coefficients;
  record Three
    extends Coefficients(nc = 3, a = {1, 2, 3});
  end Three;
  function weighted
    input Real x;
    output Real y;
  protected
    Three c;
    Coefficients d(nc = 2, a = {10, 20});
  algorithm
    y := x*sum(c.a) + c.nc + sum(d.a) + size(d.a, 1);
  end weighted;
  Three r;
  Real z = weighted(time) + r.a[3];
equation
  assert(abs(z - (6*time + 3 + 30 + 2 + 3)) < 1e-12, "z = " + String(z));
  annotation(experiment(StopTime = 1));
end RecordFieldSizedByParameter;
