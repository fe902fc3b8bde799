// MLS 3.5, 7.3: a replaceable class redeclared in a modification (`redeclare model M = B`) of a
// component or of an extends clause is the class its elements of type M take there; other
// instances keep the original; a dotted name through a redeclared package finds its member.
// EXPECT: simulate
model Top
  model A
    Real x = 1;
  end A;
  model B
    Real x = 2 + time;
  end B;
  package P1
    model Inner
      Real y = 10;
    end Inner;
  end P1;
  package P2
    model Inner
      Real y = 20;
    end Inner;
  end P2;
  model Holder
    replaceable model M = A;
    replaceable package P = P1;
    M m;
    P.Inner part;
  end Holder;
  model Derived
    extends Holder(redeclare model M = B, redeclare package P = P2);
  end Derived;
  Holder h(redeclare model M = B);
  Holder plain;
  Derived d;
equation
  assert(h.m.x == 2 + time and plain.m.x == 1 and d.m.x == 2 + time, "the redeclared class M");
  assert(h.part.y == 10 and d.part.y == 20, "P.Inner of the redeclared package");
end Top;
