// MLS 3.5, 12.4.4 and 10.5: a function's output may be sized by calls of functions of its
// Integer inputs, a protected Integer that no statement assigns is known from them, and a slice
// of a matrix whose bounds move with a loop variable has a length known when compiled (as in
// MSL's Polyphase.Functions.symmetricOrientationMatrix).
// EXPECT: simulate
model SizesFromFunctionCalls
  function bases "the number of base systems of m phases: 1 for odd m, else 2"
    input Integer m;
    output Integer n;
  algorithm
    n := if mod(m, 2) == 1 then 1 else 2;
  end bases;
  function blockDiagonal
    input Integer m;
    output Real a[bases(m) * integer(m / bases(m)), m];
  protected
    Integer nBase = bases(m);
    Integer mBase = integer(m / nBase);
  algorithm
    a := zeros(m, m);
    for i in 1:nBase loop
      for k in 1:mBase loop
        a[(i - 1) * mBase + k, (i - 1) * mBase + 1:i * mBase] := fill(i * 10 + k, mBase);
      end for;
    end for;
  end blockDiagonal;
  parameter Real a[4, 4] = blockDiagonal(4);
  parameter Real b[3, 3] = blockDiagonal(3);
equation
  assert(a[1, 1] == 11 and a[2, 2] == 12 and a[3, 3] == 21 and a[4, 3] == 22 and a[1, 3] == 0 and a[3, 2] == 0,
         "two base systems of two phases");
  assert(b[1, 1] == 11 and b[3, 3] == 13 and b[2, 1] == 12, "one base system of three phases");
  annotation(experiment(StopTime = 0.1));
end SizesFromFunctionCalls;
