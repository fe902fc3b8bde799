// MLS 3.5, 7.3.3: elements of one name inherited from two base classes must be identical.
// EXPECT: error duplicate declaration of 'm' (inherited, and not identical: MLS 3.5, 7.3.3)
model DifferentInherited
  partial model A
    parameter Integer m = 3;
  end A;
  partial model B
    parameter Integer m = 2;
  end B;
  model C
    extends A;
    extends B;
  end C;
  C c;
end DifferentInherited;
