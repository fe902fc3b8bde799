// MLS 3.5, 4.8 and 12.2: an input or output of a type with dimensions (`type Base = Real[4]`,
// also through a long-form type `type Quat extends Base; end Quat;`) has those dimensions; an
// argument of that shape is passed whole, not mapped over (12.4.6), and may be a default.
// EXPECT: simulate
model ArrayTypesInFunctions
  type Base = Real[4];
  type Quat
    extends Base;
  end Quat;
  function nullRotation
    output Quat Q;
  algorithm
    Q := {0, 0, 0, 1};
  end nullRotation;
  function norm2
    input Quat q = nullRotation();
    output Real n;
  algorithm
    n := q * q;
  end norm2;
  Real a = norm2();
  Real b = norm2({1, 1, 1, 1} * time);
  Quat q = nullRotation();
equation
  assert(abs(a - 1) < 1e-12 and abs(b - 4 * time^2) < 1e-12, "a whole quaternion per call");
  assert(size(q, 1) == 4 and q[4] == 1, "a variable of the type has its dimension");
  annotation(experiment(StopTime = 1));
end ArrayTypesInFunctions;
