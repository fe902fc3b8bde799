// MLS 3.5, 12.4: a slice's length must be known when eqc compiles the function (arrays in a
// function have sizes known from its inputs); v[1:k] with k varying is not.
// EXPECT: error has a length that changes when the model runs
model DynamicSliceLength
  function firstSum
    input Real v[4];
    input Integer k;
    output Real s;
  algorithm
    s := sum(v[1:k]);
  end firstSum;
  Integer k = if time < 0.5 then 2 else 3;
  Real s = firstSum({1, 2, 3, 4}, k);
end DynamicSliceLength;
