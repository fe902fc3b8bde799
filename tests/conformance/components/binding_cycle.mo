// MLS 3.5, 4.4.4: a parameter whose binding depends on itself (through another) is an error.
// EXPECT: error is defined in terms of itself
model BindingCycle
  block B
    parameter Integer n[:] = {1};
  end B;
  B a(n = b.n);
  B b(n = a.n);
  Real x = time;
end BindingCycle;
