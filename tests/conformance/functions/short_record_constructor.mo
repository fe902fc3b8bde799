// MLS 3.5, 12.6.1 and 4.5.1: a short record class (`record State = Base;`, MSL's
// `redeclare record ThermodynamicState = BaseProps_Tpoly`) has the record constructor of the
// class it names. The asserts check the values.
// EXPECT: simulate
model ShortRecordConstructor
  record Base
    Real p;
    Real T = 300;
  end Base;
  package Medium
    replaceable record State = Base;
    function setState
      input Real p;
      output State s;
    algorithm
      s := State(p = p);
    end setState;
  end Medium;
  package Water
    extends Medium(redeclare record State = Base);
  end Water;
  Water.State s = Water.setState(2*time);
  Medium.State r = Medium.State(p = 1, T = time);
equation
  assert(abs(s.p - 2*time) < 1e-15 and s.T == 300, "s = " + String(s.p) + ", " + String(s.T));
  assert(r.p == 1 and abs(r.T - time) < 1e-15, "r.T = " + String(r.T));
  annotation(experiment(StopTime = 1));
end ShortRecordConstructor;
