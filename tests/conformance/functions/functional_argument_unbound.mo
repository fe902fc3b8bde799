// MLS 3.5, 6.6 and 12.4.2.1: an input that the function type does not have must be bound by the
// partial application or have a default; `k` is neither.
// EXPECT: error its input 'k' is not an input of 'Unbound.F' and has no default
model Unbound
  partial function F
    input Real u;
    output Real y;
  end F;
  function scaled
    extends F;
    input Real k;
  algorithm
    y := k * u;
  end scaled;
  function apply
    input F f;
    input Real x;
    output Real y = f(x);
  end apply;
  Real z = apply(scaled, time);
end Unbound;
