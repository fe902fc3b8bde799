// MLS 3.5, 10.4.2: the arrays that cat() joins agree in every size but dimension k.
// EXPECT: error cat(1, ...): the sizes but dimension 1 must agree ([1, 2] and [2, 3])
model CatErrors
  Real m[3, 2] = cat(1, [1, 2], [3, 4, 5; 6, 7, 8]);
end CatErrors;
