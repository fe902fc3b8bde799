// MLS 3.5, 9.4.2: Connections.branch edges are required in the spanning trees; branches that
// close a loop cannot all be, so the model is rejected at the branch that closes it.
// EXPECT: error Connections.branch('tri.c.theta', 'tri.a.theta') closes a loop of branches
model OverdeterminedBranchLoop
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
  model Triangle
    Plug a, b, c;
  equation
    Connections.root(a.theta);
    a.theta = 0;
    Connections.branch(a.theta, b.theta);
    b.theta = a.theta;
    Connections.branch(b.theta, c.theta);
    c.theta = b.theta;
    Connections.branch(c.theta, a.theta);
    a.v = 1;
    b.v = 1;
    c.v = 1;
  end Triangle;
  Triangle tri;
end OverdeterminedBranchLoop;
