// MLS 3.5, 7.3.3: an element inherited from two base classes (or inherited and declared again)
// with identical declarations is one element; a modification from the extends clause still
// reaches it, and the component's modifier sets it for both uses.
// EXPECT: simulate
model IdenticalInherited
  partial model Phases
    parameter Integer m = 3 "Number of phases";
  end Phases;
  partial model Plug
    parameter Integer m = 3 "Phases of the plug";
    Real v[m];
  end Plug;
  model Bridge
    extends Phases;
    parameter Integer m = 3 "Number of phases, declared again";
    extends Plug;
  equation
    v = fill(time, m);
  end Bridge;
  model Bridge2
    extends Phases(m = 2);
    extends Plug;
  equation
    v = fill(2 * time, m);
  end Bridge2;
  Bridge b(m = 4);
  Bridge2 b2;
equation
  assert(size(b.v, 1) == 4 and abs(b.v[4] - time) < 1e-12, "one m of 4 sizes v");
  assert(size(b2.v, 1) == 2 and abs(b2.v[2] - 2 * time) < 1e-12, "the extends clause's m = 2 reaches the one m");
  annotation(experiment(StopTime = 1));
end IdenticalInherited;
