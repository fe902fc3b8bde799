// MLS 3.5, 7.3: a replaceable component redeclared in a modification (of a declaration or of an
// extends clause) takes the new type and the redeclaration's modifiers; the constraining clause
// is read.
// EXPECT: simulate
model Circuit
  model R
    parameter Real r = 1;
    Real i = time / r;
  end R;
  model R2
    parameter Real r = 2;
    Real i = 2 * time / r;
  end R2;
  model Holder
    replaceable R res(r = 5) constrainedby R;
  end Holder;
  model H3
    extends Holder(redeclare R2 res);
  end H3;
  Holder h1;
  Holder h2(redeclare R2 res(r = 4));
  H3 h3;
equation
  assert(abs(h1.res.i - time / 5) < 1e-12 and abs(h2.res.i - time / 2) < 1e-12 and abs(h3.res.i - time) < 1e-12,
         "redeclared types and modifiers");
end Circuit;
