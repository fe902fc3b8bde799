// MLS 3.5, 12.7.1: the derivative annotation gives a function's derivative, used instead of
// differentiating its body (an external C function here): the index-3 system m der(v) = F,
// der(x) = v, x = position({sin(t), 2 cos(t)}) is reduced with der(position(u)) = u[2]
// (noDerivative = u: u's own derivative is not taken), as MSL's inverse-model adaptors supply
// derivatives. The supplied derivative is deliberately not the true one (cos t), so v = 2 cos t
// shows that the annotation was used; F is d/dt of positionDer through its body.
// EXPECT: simulate
model DerAnn
  function position
    input Real u[2] "the position and its derivative";
    input Real t;
    output Real s;
  external "C" s = eqc_first(u) annotation(Include = "double eqc_first(const double *u) { return u[0]; }");
    annotation(derivative(noDerivative = u) = positionDer);
  end position;
  function positionDer
    input Real u[2];
    input Real t;
    input Real dt;
    output Real ds;
  algorithm
    ds := u[2];
  end positionDer;
  parameter Real m = 2;
  Real x, v(start = 2), F;
equation
  m * der(v) = F;
  der(x) = v;
  x = position({sin(time), 2 * cos(time)}, time);
  assert(abs(v - 2 * cos(time)) < 1e-6, "v = 2 cos(t): the derivative the annotation gives, not the true one");
  assert(abs(F + 2 * m * sin(time)) < 1e-6, "F = -2 m sin(t)");
  annotation(experiment(StopTime = 2));
end DerAnn;
