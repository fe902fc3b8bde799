// A small library of electrical components: pins with potential and current, resistor,
// capacitor, inductor, sources, ground, an ideal diode and an ideal switch (both switch at events).
// Use it with `eqc simulate model.eq --lib examples/lib`.
package Electrical "analog electrical components"
  constant Real pi = 3.141592653589793;

  connector Pin "an electrical pin"
    Real v(unit = "V") "potential at the pin";
    flow Real i(unit = "A") "current flowing into the component";
  end Pin;

  partial model OnePort "two pins with one current through them"
    Pin p "positive pin", n "negative pin";
    Real v(unit = "V") "voltage drop p.v - n.v";
    Real i(unit = "A") "current from p through the component to n";
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end OnePort;

  model Resistor "ideal linear resistor"
    extends OnePort;
    parameter Real R(unit = "Ohm") = 1 "resistance";
  equation
    v = R*i;
  end Resistor;

  model Capacitor "ideal linear capacitor"
    extends OnePort(v(start = 0));
    parameter Real C(unit = "F") = 1 "capacitance";
  equation
    i = C*der(v);
  end Capacitor;

  model Inductor "ideal linear inductor"
    extends OnePort(i(start = 0));
    parameter Real L(unit = "H") = 1 "inductance";
  equation
    L*der(i) = v;
  end Inductor;

  model Ground "zero potential"
    Pin p;
  equation
    p.v = 0;
  end Ground;

  model ConstantVoltage "constant voltage source"
    extends OnePort;
    parameter Real V(unit = "V") = 1;
  equation
    v = V;
  end ConstantVoltage;

  model StepVoltage "voltage source stepping from offset to offset + V at startTime"
    extends OnePort;
    parameter Real V(unit = "V") = 1, offset(unit = "V") = 0, startTime(unit = "s") = 0;
  equation
    v = offset + (if time < startTime then 0 else V);
  end StepVoltage;

  model SineVoltage "sinusoidal voltage source"
    extends OnePort;
    parameter Real V(unit = "V") = 1 "amplitude", f(unit = "Hz") = 1 "frequency";
    parameter Real phase = 0, offset(unit = "V") = 0;
  equation
    v = offset + V*sin(2*pi*f*time + phase);
  end SineVoltage;

  model IdealDiode "diode with a kink at 0: conducting with Ron, blocking with Goff"
    extends OnePort;
    parameter Real Ron(unit = "Ohm") = 1e-5, Goff(unit = "S") = 1e-5;
    Boolean off(start = true) "blocking";
    Real s "the kink's curve parameter";
  equation
    off = s < 0;
    v = s*(if off then 1 else Ron);
    i = s*(if off then Goff else 1);
  end IdealDiode;

  model IdealOpeningSwitch "switch that is closed until time reaches tOpen"
    extends OnePort;
    parameter Real Ron(unit = "Ohm") = 1e-5, Goff(unit = "S") = 1e-5, tOpen(unit = "s") = 0.5;
    Boolean open "the switch is open";
    Real s;
  equation
    open = time >= tOpen;
    v = s*(if open then 1 else Ron);
    i = s*(if open then Goff else 1);
  end IdealOpeningSwitch;
end Electrical;
