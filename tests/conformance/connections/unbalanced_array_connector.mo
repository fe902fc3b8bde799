// MLS 3.5, 9.3.1: the balance counts scalars after expanding arrays: two potentials v[2] but one
// flow i is unbalanced, though there is one name of each.
// EXPECT: error connector 'UnbalancedArray.Port' is not balanced: 2 potential variables (v (2)) but 1 flow variable (i)
model UnbalancedArray
  connector Port
    Real v[2];
    flow Real i;
  end Port;
  model Part
    Port p;
  equation
    p.v = {1, 2};
  end Part;
  Part a;
end UnbalancedArray;
