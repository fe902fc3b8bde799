// MLS 3.5, 7.3: `redeclare replaceable package P = Q` in an extends clause keeps P replaceable, so
// a user of the derived class may redeclare it again (MSL's PumpMonitoringNPSH narrows the medium
// to two-phase media, a pump then gives it its own).
// EXPECT: simulate
model RedeclareReplaceableAgain
  package Q
    constant Real k = 1;
  end Q;
  package R
    constant Real k = 3;
  end R;
  model Base
    replaceable package P = Q;
    Real y = P.k*time;
  end Base;
  model Derived
    extends Base(redeclare replaceable package P = Q);
  end Derived;
  Derived d(redeclare package P = R);
equation
  assert(abs(d.y - 3*time) < 1e-12, "d's P is R");
end RedeclareReplaceableAgain;
