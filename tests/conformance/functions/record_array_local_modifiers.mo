// EXPECT: error modifiers of an array of records in a function ('p') are not supported by eqc
// MLS 3.5, 7.2.5 and 12.6: `each x = 5` would give every element's x; eqc does not apply the
// modifiers of a record array's declaration in a function, and says so rather than ignore them.
model RecordArrayLocalModifiers
  record Pt
    Real x = 1;
  end Pt;
  function f
    input Real k;
    output Real s;
  protected
    Pt p[2](each x = 5);
  algorithm
    s := k*(p[1].x + p[2].x);
  end f;
  Real z = f(time);
end RecordArrayLocalModifiers;
