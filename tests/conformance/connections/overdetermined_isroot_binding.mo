// MLS 3.5, 9.4: Connections.isRoot is known once the connection graph is; eqc takes it in the
// conditions of if-equations (which it lowers after the graph), not in a binding.
// EXPECT: error Connections.isRoot() is supported in the conditions of if-equations
model OverdeterminedIsRootBinding
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
  Plug p;
  Boolean root = Connections.isRoot(p.theta);
equation
  Connections.root(p.theta);
  p.theta = 0;
  p.v = 1;
end OverdeterminedIsRootBinding;
