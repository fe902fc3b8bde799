// MLS 3.5, 12.7.1: `order = 2` on a first derivative f1(u, t, dt) names the second derivative
// f2(u, t, dt, ddt), which takes the derivative of f1's last input only (MSL's
// Blocks.Interfaces.Adaptors.Functions.state2 / state2der1 / state2der2). The position's supplied
// derivatives (2 cos t, -5 sin t) are deliberately not its true ones, so v and F show that both
// annotations were used in the index-3 reduction of m der(v) = F, der(x) = v, x = position(...).
// EXPECT: simulate
model DerivativeOrder2
  function position
    input Real u[3] "the position, its first and its second derivative";
    input Real t;
    output Real s;
  algorithm
    s := u[1];
    annotation(derivative(noDerivative = u) = positionDer);
  end position;
  function positionDer
    input Real u[3];
    input Real t;
    input Real dt;
    output Real ds;
  algorithm
    ds := u[2];
    annotation(derivative(noDerivative = u, order = 2) = positionDer2);
  end positionDer;
  function positionDer2
    input Real u[3];
    input Real t;
    input Real dt;
    input Real ddt;
    output Real dds;
  algorithm
    dds := u[3];
  end positionDer2;
  parameter Real m = 2;
  Real x, v(start = 2), F;
equation
  m * der(v) = F;
  der(x) = v;
  x = position({sin(time), 2 * cos(time), -5 * sin(time)}, time);
  assert(abs(v - 2 * cos(time)) < 1e-9, "v = 2 cos(t), the first derivative supplied");
  assert(abs(F + 5 * m * sin(time)) < 1e-9, "F = -5 m sin(t), the second derivative supplied");
  annotation(experiment(StopTime = 2));
end DerivativeOrder2;
