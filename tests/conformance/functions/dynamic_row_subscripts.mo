// MLS 3.5, 10.5 and 12.4: in a function, a subscript known only when the function runs may
// select a row or a column of a matrix, `T[sequence[3], :]` (MSL's Frames.axesRotationsAngles),
// for reading and for assigning. Checked against the permutation written out by hand.
// EXPECT: simulate
model DynamicRowSubscripts
  function permuteRows
    input Real M[3, 3];
    input Integer order[3];
    output Real P[3, 3];
  algorithm
    for i in 1:3 loop
      P[i, :] := M[order[i], :];
    end for;
  end permuteRows;
  function column
    input Real M[3, 3];
    input Integer j;
    output Real c[3];
  algorithm
    c := M[:, j];
  end column;
  function setRow
    input Real M[3, 3];
    input Integer i;
    input Real v[3];
    output Real N[3, 3];
  algorithm
    N := M;
    N[i, :] := v;
  end setRow;
  parameter Real M[3, 3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  Integer k = if time < 0.5 then 3 else 1;
  Real P[3, 3] = permuteRows(M*(1 + time), {k, 2, 4 - k});
  Real c[3] = column(M, k);
  Real N[3, 3] = setRow(M, k, {-1, -2, -3});
equation
  assert(abs(P[1, 1] - M[k, 1]*(1 + time)) < 1e-12 and abs(P[3, 3] - M[4 - k, 3]*(1 + time)) < 1e-12
         and abs(P[2, 2] - 5*(1 + time)) < 1e-12, "rows picked by run-time subscripts");
  assert(c[1] == M[1, k] and c[3] == M[3, k], "a column picked by a run-time subscript");
  assert(N[k, 2] == -2 and N[4 - k, 2] == M[4 - k, 2], "a row assigned at a run-time subscript");
annotation(experiment(StopTime = 1));
end DynamicRowSubscripts;
