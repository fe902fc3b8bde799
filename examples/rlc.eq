// Series RLC circuit driven by a sine source; the currents and voltages are algebraic (index 1).
model SeriesRLC "series RLC circuit with a sinusoidal source"
  parameter Real R = 10 "resistance", L = 0.5 "inductance", C = 1e-3 "capacitance";
  parameter Real V0 = 5 "source amplitude", f = 50 "source frequency";
  parameter Real omega = 2*3.141592653589793*f;
  Real vC(start = 0, fixed = true, unit = "V") "capacitor voltage";
  Real i(start = 0, fixed = true, unit = "A") "loop current";
  Real vS(unit = "V"), vR(unit = "V"), vL(unit = "V");
equation
  vS = V0*sin(omega*time);
  vR = R*i;
  L*der(i) = vL;
  C*der(vC) = i;
  vS = vR + vL + vC;
  annotation(experiment(StopTime = 0.2, Tolerance = 1e-8, Interval = 1e-4));
end SeriesRLC;
