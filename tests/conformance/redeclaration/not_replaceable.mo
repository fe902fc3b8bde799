// MLS 3.5, 7.3: only a replaceable element may be redeclared.
// EXPECT: error 'res' is not replaceable, so it cannot be redeclared
model Circuit
  model R
    parameter Real r = 1;
  end R;
  model Holder
    R res;
  end Holder;
  Holder h(redeclare R res(r = 2));
end Circuit;
