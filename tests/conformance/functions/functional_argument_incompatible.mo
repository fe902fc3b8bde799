// MLS 3.5, 6.6: a function passed to a functional input must be function-compatible with the input's
// type: its inputs named as the type's, in the same order; here `v` is not `u`.
// EXPECT: error function 'Incompatible.other' is not compatible with 'Incompatible.F' (MLS 3.5, 6.6): its input 1 is 'v' where 'Incompatible.F' has 'u'
model Incompatible
  partial function F
    input Real u;
    output Real y;
  end F;
  function other
    input Real v;
    output Real y = 2 * v;
  end other;
  function apply
    input F f;
    input Real x;
    output Real y = f(x);
  end apply;
  Real z = apply(other, time);
end Incompatible;
