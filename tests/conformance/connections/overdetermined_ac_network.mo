// MLS 3.5, 9.4 (the power-system example of 9.4.3, written anew): an overdetermined type
// AC_Angle (equalityConstraint of size 0) in the plugs of an AC network. Two lines in parallel
// close a loop of the virtual connection graph: one connect is outside the spanning tree, so
// the angle is passed once, not twice (twice would be a redundant equation: a singular model).
// A second island has no definite root: its ground, a potential root, is selected
// (Connections.isRoot) and fixes its angle. Connections.rooted tells each line which plug is
// nearer the root: line b is connected the other way round.
// Checked against Ohm's law: the load's current is V/(R_load + R/2), each line carries half.
// EXPECT: simulate
model OverdeterminedAcNetwork
  type AC_Angle
    extends Real(unit = "rad");
    function equalityConstraint
      input AC_Angle theta1;
      input AC_Angle theta2;
      output Real residue[0];
    algorithm
    end equalityConstraint;
  end AC_Angle;
  connector Plug
    AC_Angle theta;
    Real v;
    flow Real i;
  end Plug;
  model Source
    parameter Real V = 10, omega = 3;
    Plug p;
  equation
    Connections.root(p.theta);
    der(p.theta) = omega;
    p.v = V;
  end Source;
  model Ground
    Plug p;
  equation
    Connections.potentialRoot(p.theta, priority = 256);
    if Connections.isRoot(p.theta) then
      p.theta = 0;
    end if;
    p.v = 0;
  end Ground;
  model Line
    parameter Real R = 2;
    Plug p, n;
    Integer nearer "1: p is nearer the root, 2: n";
  equation
    Connections.branch(p.theta, n.theta);
    if Connections.rooted(p.theta) then
      n.theta = p.theta;
      nearer = 1;
    else
      p.theta = n.theta;
      nearer = 2;
    end if;
    p.i + n.i = 0;
    p.v - n.v = R*p.i;
  end Line;
  model Load
    parameter Real R = 4;
    Plug p;
    Real phase;
  equation
    p.v = R*p.i;
    phase = p.theta;
  end Load;
  Source source(p(theta(start = 0, fixed = true)));
  Line a, b;
  Load load;
  // the second island: a ground and a line ending open
  Ground ground;
  Line c;
equation
  connect(source.p, a.p);
  connect(a.n, load.p);
  connect(load.p, b.n);
  connect(b.p, source.p);
  connect(ground.p, c.p);
  assert(abs(load.p.i - 10/(4 + 2/2)) < 1e-9, "Ohm's law across the parallel lines");
  assert(abs(a.p.i - b.p.i) < 1e-9, "the lines share the current");
  assert(abs(load.phase - 3*time) < 1e-6, "the angle is the source's");
  assert(a.nearer == 1 and b.nearer == 2 and c.nearer == 1, "rooted() finds the plug nearer the root");
  assert(abs(c.n.theta) < 1e-12, "the ground is the island's root");
annotation(experiment(StopTime = 1));
end OverdeterminedAcNetwork;
