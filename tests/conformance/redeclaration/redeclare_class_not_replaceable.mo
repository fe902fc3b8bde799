// MLS 3.5, 7.3: only a replaceable class can be redeclared.
// EXPECT: error the class 'M' of 'Top.Holder' is not replaceable
model Top
  model A
    Real x = 1;
  end A;
  model B
    Real x = 2;
  end B;
  model Holder
    model M = A;
    M m;
  end Holder;
  Holder h(redeclare model M = B);
end Top;
