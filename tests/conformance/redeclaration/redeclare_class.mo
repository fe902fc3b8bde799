// MLS 3.5, 7.3: redeclaring a replaceable class is read; eqc reports that it does not apply it yet.
// EXPECT: error redeclaring the class 'M' is not supported by eqc yet
model Top
  model A
    Real x = 1;
  end A;
  model B
    Real x = 2;
  end B;
  model Holder
    replaceable model M = A;
    M m;
  end Holder;
  Holder h(redeclare model M = B);
end Top;
