// A chain of n masses joined by springs, built from the component library with a for-loop:
// fixed wall - spring - mass[1] - spring[1] - mass[2] - ... - mass[n] (free end). It starts in its
// first vibration mode, so every mass moves as cos(omega_1 t). Run with --lib examples/lib;
// -p cannot change n (it fixes the model's structure), so set it here.
model MassSpringChain
  parameter Integer n = 10 "number of masses";
  parameter Real m = 1 "mass", c = 1e4 "stiffness", l = 0.1 "spring length", A = 1e-3 "amplitude";
  parameter Real theta = 3.141592653589793/(2*n + 1);
  Translational.Fixed wall;
  Translational.Spring anchor(c = c, s_rel0 = l);
  Translational.Mass mass[n](each m = m, s(start = {i*l + A*sin(i*theta) for i in 1:n}, each fixed = true),
                             v(each start = 0, each fixed = true));
  Translational.Spring spring[n - 1](each c = c, each s_rel0 = l);
equation
  connect(wall.flange, anchor.flange_a);
  connect(anchor.flange_b, mass[1].flange_a);
  for i in 1:n - 1 loop
    connect(mass[i].flange_b, spring[i].flange_a);
    connect(spring[i].flange_b, mass[i + 1].flange_a);
  end for;
  annotation(experiment(StopTime = 1, Tolerance = 1e-10, Interval = 1e-3));
end MassSpringChain;
