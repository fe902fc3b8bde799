// MLS 3.5, 10.4.2: the items of a row of a matrix constructor agree in every size but the second.
// EXPECT: error the items of a matrix row must agree in every size but the second ([2, 2, 2] and [1, 2, 2])
model MatrixConstructorSizes
  constant Real A[2, 2, 2] = [{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}, {{{1, 2}, {3, 4}}}];
  Real x = time;
end MatrixConstructorSizes;
