// MLS 3.5, 9.4: Connections.rooted(A.R) needs exactly one Connections.branch(A.R, B.R) whose
// first argument is A.R; here A.R is only the second argument of one.
// EXPECT: error Connections.rooted('m.n.theta'): it is the first argument of no Connections.branch()
model OverdeterminedRootedWithoutBranch
  type Angle
    extends Real;
    function equalityConstraint
      input Angle theta1;
      input Angle theta2;
      output Real residue[0];
    algorithm
    end equalityConstraint;
  end Angle;
  connector Plug
    Angle theta;
    Real v;
    flow Real i;
  end Plug;
  model Shift
    Plug p, n;
  equation
    Connections.root(p.theta);
    p.theta = 0;
    Connections.branch(p.theta, n.theta);
    if Connections.rooted(n.theta) then
      p.theta = n.theta;
    else
      n.theta = p.theta;
    end if;
    p.v = 1;
    n.v = 1;
    p.i + n.i = 0;
  end Shift;
  Shift m;
end OverdeterminedRootedWithoutBranch;
