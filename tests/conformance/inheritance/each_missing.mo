// MLS 3.5, 7.2.5: a modification of an array of components without `each` needs one value per
// component; a scalar is an error at the value.
// EXPECT: error the value is scalar but it modifies an array of components [3]: give one value per component, or write 'each'
model EachMissing
  model Lag
    Real y;
  equation
    der(y) = -y;
  end Lag;
  Lag lag[3](y(start = 2, fixed = true));
end EachMissing;
