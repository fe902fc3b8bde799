// MLS 3.5, 12.7.1: a position function whose output reads only the position of {q, dq, ddq}
// (as MSL's Sources.Move) with first and (order = 2) second derivatives supplied from the other
// entries ties a second mass to the first: x2 = position({x1, v1, a1}). Index reduction
// differentiates the coupling twice; the derivatives of entries the output does not read (der(a1))
// are never asked for. The pair (m1 + m2 = 3) pushed by sin(2 pi t) from rest:
// a = sin(2 pi t) / 3, v = (1 - cos(2 pi t)) / (6 pi), x = (t - sin(2 pi t) / (2 pi)) / (6 pi).
// EXPECT: simulate
model DerivativeOrder2Coupling
  function position
    input Real q[3];
    input Real dummy;
    output Real s;
  algorithm
    s := q[1];
    annotation(derivative(noDerivative = q) = positionDer);
  end position;
  function positionDer
    input Real q[3];
    input Real dummy;
    input Real dummy_der;
    output Real ds;
  algorithm
    ds := q[2];
    annotation(derivative(noDerivative = q, order = 2) = positionDer2);
  end positionDer;
  function positionDer2
    input Real q[3];
    input Real dummy;
    input Real dummy_der;
    input Real dummy_der2;
    output Real dds;
  algorithm
    dds := q[3];
  end positionDer2;
  constant Real pi = 3.141592653589793;
  parameter Real m1 = 1, m2 = 2;
  Real x1(start = 0, fixed = true), v1(start = 0, fixed = true), a1, x2, v2, a2, f;
  Real fdrive = sin(2 * pi * time);
equation
  der(x1) = v1;
  der(v1) = a1;
  m1 * a1 = fdrive - f;
  der(x2) = v2;
  der(v2) = a2;
  m2 * a2 = f;
  x2 = position({x1, v1, a1}, time);
  assert(abs(x1 - (time - sin(2 * pi * time) / (2 * pi)) / (6 * pi)) < 1e-6, "x1");
  assert(abs(x2 - x1) < 1e-9 and abs(v2 - v1) < 1e-9, "the masses move as one");
  assert(abs(f - 2 / 3 * fdrive) < 1e-6, "the coupling force pushes the second mass");
  annotation(experiment(StopTime = 1, Tolerance = 1e-8));
end DerivativeOrder2Coupling;
