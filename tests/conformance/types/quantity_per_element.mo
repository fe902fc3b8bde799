// MLS 3.5, 4.8.1 and 10.1: a String attribute of an array may give one value per element
// (`X(quantity = Medium.substanceNames)` in MSL's fluid sources).
// EXPECT: simulate
model QuantityPerElement
  constant String names[2] = {"water", "air"};
  Real X[2](quantity = names, each unit = "1") = {0.2, 0.8}*(1 + time);
  Real L[2](unit = {"m", "s"}) = {1, 2};
equation
  assert(abs(X[1] + X[2] - (1 + time)) < 1e-12, "the fractions sum up");
end QuantityPerElement;
