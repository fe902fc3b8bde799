// MLS 3.5, 10.4.2: [a, b; c, d] is cat(1, cat(2, a, b), cat(2, c, d)) of the items promoted to
// max(2, their dimensions) dimensions: items of three dimensions concatenate along the first
// (`;`) and second (`,`) dimensions ([A] of a 3-D A is A, as MSL's Digital tables write them);
// matrices and vectors mix as ever.
// EXPECT: simulate
model MatrixConstructorNd
  constant Real A[2, 2, 2] = [{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}];
  constant Real B[2, 2, 2] = [{{{1, 2}}, {{5, 6}}}, {{{3, 4}}, {{7, 8}}}];
  constant Real C[4, 2, 2] = [A; {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}];
  parameter Real M[2, 3] = [[1; 4], [2, 3; 5, 6]];
  Real x = time;
equation
  assert(A[2, 1, 2] == 6 and A[1, 2, 1] == 3, "[A] is A");
  assert(B[2, 1, 2] == 6 and B[2, 2, 1] == 7 and B[1, 2, 2] == 4, "cat(2, ...)");
  assert(C[3, 2, 1] == 3 and C[2, 2, 2] == 8 and C[4, 1, 1] == 5, "cat(1, ...)");
  assert(M[1, 1] == 1 and M[2, 1] == 4 and M[1, 3] == 3 and M[2, 2] == 5, "matrices");
end MatrixConstructorNd;
