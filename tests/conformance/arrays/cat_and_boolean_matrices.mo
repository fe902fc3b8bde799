// MLS 3.5, 10.4.2: cat(k, A, B, ...) joins arrays along dimension k (their other sizes agree);
// the matrix constructor [a, b; c, d] is cat of cat and holds Booleans as well as numbers.
// EXPECT: simulate
model CatAndBooleanMatrices
  Real a[5] = cat(1, {1, 2}, {3, 4, 5});
  Real m[2, 3] = cat(2, [1; 2], [3, 4; 5, 6]);
  Real r[3, 2] = cat(1, [1, 2], [3, 4; 5, 6]);
  Boolean b[2, 2] = [true, false; time > 0.5, true];
  Real v[3] = cat(1, {time}, fill(2 * time, 2));
equation
  assert(a[1] == 1 and a[5] == 5, "cat(1, ...) of vectors");
  assert(m[1, 1] == 1 and m[1, 2] == 3 and m[2, 3] == 6, "cat(2, ...) of matrices");
  assert(r[1, 2] == 2 and r[3, 1] == 5, "cat(1, ...) of matrices");
  assert(b[1, 1] and not b[1, 2] and b[2, 1] == (time > 0.5), "a Boolean matrix");
  assert(abs(v[1] - time) < 1e-12 and abs(v[3] - 2 * time) < 1e-12, "cat of expressions");
  annotation(experiment(StopTime = 1));
end CatAndBooleanMatrices;
