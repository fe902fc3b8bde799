// MLS 3.5, 10.5 and 12.4: in a function, a slice of a vector may move at run time when its length
// does not (v[i-2:i-1], v[i:2:i+4]); it reads and assigns like a static slice (an assignment that
// reads the slice it writes goes through temporaries). MSL's Random.initialState builds its state
// vector so.
// EXPECT: simulate
model DynamicSlices
  function pairs
    input Integer n;
    output Real s[n];
  protected
    Real aux[2];
  algorithm
    s[1:2] := {1, 2};
    for i in 3:2:n - 1 loop
      aux := s[i-2:i-1] * 2;
      s[i:i+1] := aux;
    end for;
  end pairs;
  function shiftOdd "v[i:2:i+4] := v[i+1:2:i+5]: overlapping, moving slices"
    input Real v[8];
    input Integer i;
    output Real w[8];
  algorithm
    w := v;
    w[i:2:i+4] := w[i+1:2:i+5];
  end shiftOdd;
  Real s[6] = pairs(6);
  Integer k = if time < 0.5 then 1 else 2;
  Real w[8] = shiftOdd({1, 2, 3, 4, 5, 6, 7, 8}, k);
equation
  assert(s[1] == 1 and s[2] == 2 and s[3] == 2 and s[4] == 4 and s[5] == 4 and s[6] == 8, "pairs doubled");
  if k == 1 then
    assert(w[1] == 2 and w[3] == 4 and w[5] == 6 and w[2] == 2 and w[7] == 7, "odd places from k = 1");
  else
    assert(w[2] == 3 and w[4] == 5 and w[6] == 7 and w[1] == 1 and w[8] == 8, "even places from k = 2");
  end if;
  annotation(experiment(StopTime = 1));
end DynamicSlices;
