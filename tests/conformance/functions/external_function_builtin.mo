// MLS 3.5, 12.9: language "builtin" names a function of the language (Modelica.Math.sin is
// `external "builtin" y = sin(u)`); one eqc has is eqc's own, with its derivative and events.
// EXPECT: simulate
model ExtBuiltin
  function mySin
    input Real u;
    output Real y;
  external "builtin" y = sin(u);
  end mySin;
  Real x(start = 0, fixed = true);
equation
  der(x) = mySin(time);
  assert(abs(x - (1 - cos(time))) < 1e-5, "x = 1 - cos(t)");
  annotation(experiment(StopTime = 3));
end ExtBuiltin;
