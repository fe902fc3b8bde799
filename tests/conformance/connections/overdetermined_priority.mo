// MLS 3.5, 9.4.2: in a subgraph without Connections.root, the potential root with the lowest
// priority number is selected (isRoot is true there only); among equal priorities eqc takes the
// first declared. A subgraph with a definite root selects no potential root.
// EXPECT: simulate
model OverdeterminedPriority
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
  model Ground
    parameter Integer priority = 0;
    parameter Real angle = 0;
    Plug p;
    Integer selected;
  equation
    Connections.potentialRoot(p.theta, priority);
    if Connections.isRoot(p.theta) then
      p.theta = angle;
      selected = 1;
    else
      selected = 0;
    end if;
    p.v = p.i; // 1 Ohm to ground
  end Ground;
  model Source
    Plug p;
  equation
    Connections.root(p.theta);
    p.theta = 7;
    p.i = 0;
  end Source;
  // island 1: priorities 10 and 5
  Ground g1(priority = 10, angle = 1), g2(priority = 5, angle = 2);
  // island 2: equal priorities
  Ground h1(angle = 3), h2(angle = 4);
  // island 3: a definite root beside a potential one
  Ground k(angle = 5);
  Source s;
equation
  connect(g1.p, g2.p);
  connect(h1.p, h2.p);
  connect(k.p, s.p);
  assert(g1.selected == 0 and g2.selected == 1 and g1.p.theta == 2, "the lowest priority number wins");
  assert(h1.selected == 1 and h2.selected == 0 and h2.p.theta == 3, "the first declared among equals");
  assert(k.selected == 0 and k.p.theta == 7, "a definite root selects no potential root");
annotation(experiment(StopTime = 0.1));
end OverdeterminedPriority;
