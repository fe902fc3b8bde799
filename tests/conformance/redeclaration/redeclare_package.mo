// MLS 3.5, 7.3 and 5.3: a replaceable package (`replaceable package Medium = Water`) is a class
// alias whose constants and functions are found through it; `redeclare package Medium = Air` in a
// component's modification or an extends clause makes the component's equations, bindings and
// types use the new package, as media do in MSL's Fluid library.
// EXPECT: simulate
model Plant
  package Water
    constant Real cp = 4184;
    function density
      input Real T;
      output Real d;
    algorithm
      d := 1000 - 0.1*(T - 293);
    end density;
    model Probe
      Real rho = density(300);
    end Probe;
  end Water;
  package Air
    constant Real cp = 1005;
    function density
      input Real T;
      output Real d;
    algorithm
      d := 1.2 * 293 / T;
    end density;
    model Probe
      Real rho = density(300);
    end Probe;
  end Air;
  model Volume
    replaceable package Medium = Water;
    parameter Real V = 1;
    Real T(start = 300, fixed = true);
    Real m = V * Medium.density(T);
    parameter Real c = Medium.cp;
    Medium.Probe probe;
  equation
    m * c * der(T) = -100;
  end Volume;
  model AirVolume
    extends Volume(redeclare package Medium = Air);
  end AirVolume;
  Volume w;
  Volume a(redeclare package Medium = Air);
  AirVolume b;
equation
  assert(w.c == 4184 and a.c == 1005 and b.c == 1005, "Medium.cp through the package");
  assert(abs(w.m - (1000 - 0.1*(w.T - 293))) < 1e-9 and abs(a.m - 1.2*293/a.T) < 1e-12 and abs(b.m - a.m) < 1e-12,
         "Medium.density through the package");
  assert(abs(w.probe.rho - 999.3) < 1e-9 and abs(b.probe.rho - 1.172) < 1e-12, "Medium.Probe through the package");
end Plant;
