// RUN: simulate
// MLS 3.5, 9.4.2: a subgraph of the virtual connection graph without a root leaves its
// overdetermined records undetermined: a warning names them, then the model is singular.
model NoRoot
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
  model Line
    Plug p, n;
  equation
    Connections.branch(p.theta, n.theta);
    n.theta = p.theta;
    p.v - n.v = p.i;
    p.i + n.i = 0;
  end Line;
  model Ground
    Plug p;
  equation
    p.v = 0;
  end Ground;
  Line a, b;
  Ground g;
equation
  connect(a.n, b.p);
  connect(b.n, g.p);
  connect(a.p, g.p);
end NoRoot;
