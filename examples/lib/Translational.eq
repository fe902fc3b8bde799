// A small library of 1-D mechanical components: flanges with position and force, mass, spring,
// damper, a fixed point and a force source. Use it with `eqc simulate model.eq --lib examples/lib`.
package Translational "1-D translational mechanics"
  connector Flange "a point of a 1-D mechanical component"
    Real s(unit = "m") "position";
    flow Real f(unit = "N") "force acting on the component";
  end Flange;

  model Fixed "a flange held at a fixed position"
    parameter Real s0(unit = "m") = 0;
    Flange flange;
  equation
    flange.s = s0;
  end Fixed;

  model Mass "sliding mass with two flanges"
    parameter Real m(unit = "kg") = 1;
    Real s(unit = "m", start = 0) "position";
    Real v(unit = "m/s", start = 0) "velocity";
    Flange flange_a, flange_b;
  equation
    flange_a.s = s;
    flange_b.s = s;
    der(s) = v;
    m*der(v) = flange_a.f + flange_b.f;
  end Mass;

  partial model Compliant "two flanges with a force between them"
    Flange flange_a, flange_b;
    Real s_rel(unit = "m") "flange_b.s - flange_a.s";
    Real f(unit = "N") "force from flange_a to flange_b (tension is positive)";
  equation
    s_rel = flange_b.s - flange_a.s;
    flange_b.f = f;
    flange_a.f = -f;
  end Compliant;

  model Spring "linear spring"
    extends Compliant;
    parameter Real c(unit = "N/m") = 1 "stiffness";
    parameter Real s_rel0(unit = "m") = 0 "unstretched length";
  equation
    f = c*(s_rel - s_rel0);
  end Spring;

  model Damper "linear damper"
    extends Compliant;
    parameter Real d(unit = "N.s/m") = 1 "damping";
  equation
    f = d*der(s_rel);
  end Damper;

  model Force "a force on a flange, given as a function of time by its parameters"
    parameter Real F(unit = "N") = 1 "amplitude", f(unit = "Hz") = 0 "frequency (0: constant)";
    Flange flange;
  equation
    flange.f = -(if f > 0 then F*sin(2*3.141592653589793*f*time) else F);
  end Force;
end Translational;
