// MLS 3.5, 3.7 (getInstanceName): the name of the simulated model followed by the path of the
// instance the call is in, a String known when the model is compiled (MSL's noise blocks hash it
// into their local seed).
// EXPECT: simulate
model InstanceName
  model Inner
    parameter String name = getInstanceName();
    parameter Integer length = Modelica_length(name);
    function Modelica_length "the length of a String known when compiled, by an external C function"
      input String s;
      output Integer n;
    external "C" n = strlen(s) annotation(Include = "#include <string.h>");
    end Modelica_length;
  end Inner;
  model Outer
    Inner inner1;
  end Outer;
  Outer outer1;
  Inner here;
equation
  assert(outer1.inner1.name == "InstanceName.outer1.inner1", "a nested instance: " + outer1.inner1.name);
  assert(here.length == 17, "InstanceName.here");
  assert(getInstanceName() == "InstanceName", "the model itself");
  annotation(experiment(StopTime = 0.1));
end InstanceName;
