// MLS 3.5, 7.3 and 5.3: `redeclare package Medium = Medium` in a component's modification names
// the Medium of the instance that writes it — the package that instance was itself given. A
// vessel given medium W passes it on to its heat-transfer model (a replaceable model, as in
// Modelica.Fluid.Vessels): there Medium.State is W.State and Medium.temp is W's.
// EXPECT: simulate
// ARGS: --model RedeclarePackagePassedOn.Top
package RedeclarePackagePassedOn
  partial package PM
    record State
      Real T;
    end State;
    replaceable partial function temp
      input State s;
      output Real T;
    end temp;
  end PM;
  package W
    extends PM;
    redeclare record extends State
      Real extra = 0;
    end State;
    redeclare function extends temp
    algorithm
      T := 2*s.T + s.extra;
    end temp;
  end W;
  partial model PHT
    replaceable package Medium = PM;
    parameter Integer n = 1;
    input Medium.State states[n];
    Real T[n];
  equation
    for i in 1:n loop
      T[i] = Medium.temp(states[i]);
    end for;
  end PHT;
  model IHT
    extends PHT;
  end IHT;
  model Vessel
    replaceable package Medium = PM;
    Medium.State state(T = 3, extra = 1);
    replaceable model HT = IHT constrainedby PHT;
    HT ht(redeclare final package Medium = Medium, final n = 1, final states = {state});
  end Vessel;
  model Top
    Vessel v(redeclare package Medium = W);
  equation
    assert(abs(v.ht.T[1] - 7) < 1e-12, "the heat transfer model computes with W's function");
  end Top;
end RedeclarePackagePassedOn;
