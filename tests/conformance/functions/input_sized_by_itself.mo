// MLS 3.5, 12.4.4: an input's dimension may be given by a size of the input itself
// (`input Real A[:, size(A, 1)]`, a square matrix, as in Modelica.Math.Matrices.solve).
// EXPECT: simulate
model InputSizedByItself
  function trace
    input Real A[:, size(A, 1)];
    output Real t = 0;
  algorithm
    for i in 1:size(A, 1) loop
      t := t + A[i, i];
    end for;
  end trace;
  Real t = trace([1, 2; 3, 4 + time]);
equation
  assert(abs(t - (5 + time)) < 1e-12, "trace of the 2 x 2 matrix");
end InputSizedByItself;
