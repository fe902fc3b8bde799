// MLS 3.5, 12.6 and 4.8: a record used in a function may declare its fields with short types
// (`Voltage V`, `type Voltage = Real(unit = "V")`), long-form types (`type Count extends
// Integer; end Count;`) and enumerations; each is a field of its base type. The fixed attribute
// may be a parameter expression, element-wise (`fixed = fill(fixedStart, 2)`, MLS 3.5, 4.8.7).
// EXPECT: simulate
model RecordTypedFields
  type Voltage = Real(unit = "V");
  type Count
    extends Integer;
  end Count;
  type Mode = enumeration(off, on);
  record Brush
    Voltage V = 2 "drop";
    Count n = 3;
    Mode mode = Mode.on;
  end Brush;
  function loss
    input Brush b;
    input Real i;
    output Real p;
  algorithm
    p := if b.mode == Mode.on then b.n * b.V * abs(i) else 0;
  end loss;
  parameter Brush brush;
  parameter Boolean fixedStart = true;
  Real p = loss(brush, 1 + time);
  Real x[2](start = {1, 2}, fixed = fill(fixedStart, 2));
equation
  der(x) = -x;
  assert(abs(p - 6 * (1 + time)) < 1e-12, "3 brushes of 2 V at 1 + t A");
  assert(abs(x[2] - 2 * exp(-time)) < 1e-5, "x starts at its fixed start value");
  annotation(experiment(StopTime = 1));
end RecordTypedFields;
