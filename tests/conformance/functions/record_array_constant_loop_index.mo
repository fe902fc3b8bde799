// MLS 3.5, 10.1 and 10.5: a constant array of records declared `[:]` takes its size from its
// value (an extends clause's modifier gives it, as MSL's gas mixtures give `data`), and a function
// subscripts it with its loop index (`data[i].M`: known only when the function runs). The asserts
// check the values.
// EXPECT: simulate
model RecordArrayConstantLoopIndex
  record Gas
    String name;
    Real M;
  end Gas;
  package Gases
    constant Gas N2(name = "N2", M = 0.028);
    constant Gas O2(name = "O2", M = 0.032);
  end Gases;
  package Mixture
    constant Gas[:] data;
    function molarMass
      input Real X[size(data, 1)];
      output Real MM;
    protected
      Real s = 0;
    algorithm
      for i in 1:size(data, 1) loop
        assert(data[i].M > 0, "no molar mass for " + data[i].name);
        s := s + X[i]/data[i].M;
      end for;
      MM := 1/s;
    end molarMass;
  end Mixture;
  package Air
    extends Mixture(data = {Gases.N2, Gases.O2});
  end Air;
  Real MM = Air.molarMass({0.75 + 0*time, 0.25});
equation
  assert(abs(MM - 1/(0.75/0.028 + 0.25/0.032)) < 1e-15, "MM = " + String(MM));
  annotation(experiment(StopTime = 1));
end RecordArrayConstantLoopIndex;
