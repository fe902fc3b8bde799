// MLS 3.5, 10.3-10.6: array constructors, slices, reductions and matrix products.
// EXPECT: simulate
model Arrays
  parameter Real A[2, 2] = [1, 2; 3, 4];
  Real v[2] = {1, time};
  Real w[2] = A * v;
  Real s = sum(A[:, 2]);
equation
  assert(abs(w[1] - (1 + 2 * time)) < 1e-12 and abs(w[2] - (3 + 4 * time)) < 1e-12 and s == 6, "arrays");
end Arrays;
