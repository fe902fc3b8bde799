// MLS 3.5, 12.7.1: a function whose output reads only some inputs, with a derivative annotation
// that supplies its time derivative from another input (noDerivative), as MSL's inverse-model
// adaptors do: state1({p, dp}, t) returns p and declares der(state1) = dp. Two heat capacities
// (C1 = 1.1, C2 = 2.2) made one body by T2 = state1({T1, der(T1)}): structurally the equation
// ties the states T1 and T2 (its output does not read dT1), so index reduction differentiates
// it, and the annotation gives der(T2) = dT1. The pair heated by Q = 1000 sin(4 pi t) from
// 293.15 K: T = 293.15 + 1000 / (3.3 * 4 pi) * (1 - cos(4 pi t)) for both.
// EXPECT: simulate
model DerivativeAnnotationInverseModel
  function state1
    input Real u[2] "the value and its derivative";
    input Real dummy;
    output Real s;
  algorithm
    s := u[1];
    annotation(derivative(noDerivative = u) = state1der1);
  end state1;
  function state1der1
    input Real u[2];
    input Real dummy;
    input Real dummy_der;
    output Real sder1;
  algorithm
    sder1 := u[2];
  end state1der1;
  constant Real pi = 3.141592653589793;
  parameter Real C1 = 1.1, C2 = 2.2;
  Real T1(start = 293.15, fixed = true), T2(start = 293.15, fixed = true) "both fixed, consistently";
  Real Q "heat flow from body 1 into body 2", dT1;
  Real Qdrive = 1000 * sin(4 * pi * time);
equation
  C1 * der(T1) = Qdrive - Q;
  dT1 = der(T1);
  C2 * der(T2) = Q;
  T2 = state1({T1, dT1}, time);
  assert(abs(T1 - (293.15 + 1000 / (3.3 * 4 * pi) * (1 - cos(4 * pi * time)))) < 1e-4, "T1 follows the pair's heating");
  assert(abs(T2 - T1) < 1e-9, "T2 = T1");
  assert(abs(Q - 2 / 3 * Qdrive) < 1e-3, "body 2 takes C2 / (C1 + C2) of the heat");
  annotation(experiment(StopTime = 1, Tolerance = 1e-8));
end DerivativeAnnotationInverseModel;
