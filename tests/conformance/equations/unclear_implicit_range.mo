// MLS 3.5, 8.3.2.2: the implicit range must be the same for every array the index subscripts.
// EXPECT: error the range of 'i' is not clear: 'x' gives 1:3 and 'y' 1:2
model Bad
  Real x[3], y[2];
equation
  for i loop
    x[i] = y[i];
  end for;
end Bad;
