// MLS 3.5, 9.3.1 and 9.4.1: an overdetermined record (one with a function equalityConstraint)
// counts in a connector's balance as the size of that function's output (here 1), not as its
// fields (3): v and the orientation are 2 potentials against 1 flow.
// EXPECT: error connector 'OverdeterminedBalance.Frame' is not balanced: 2 potential variables (v, R) but 1 flow variable (f)
model OverdeterminedBalance
  record Orientation
    Real a, b, c;
    function equalityConstraint
      input Orientation R1;
      input Orientation R2;
      output Real residue[1];
    algorithm
      residue := {R1.a - R2.a};
    end equalityConstraint;
  end Orientation;
  connector Frame
    Real v;
    Orientation R;
    flow Real f;
  end Frame;
  model Part
    Frame fr;
  end Part;
  Part a;
end OverdeterminedBalance;
