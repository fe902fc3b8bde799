// MLS 3.5, 3.7.1 and 3.8: String(x) of a variable that changes in time is a String computed when
// the model runs: passed to a function (show's String input), compared in an equation's
// condition, and sampled into a String variable by a when-clause.
// EXPECT: simulate
model StringOfVariable
  function show
    input String s;
    output Real y = 0;
  end show;
  Real x(start = 1, fixed = true);
  Real y = show("x = " + String(x));
  Real z;
  String sampled;
  parameter String label = "k";
equation
  der(x) = -x;
  z = if label == String(x) then 1 else 0;
  when sample(0, 0.5) then
    sampled = String(x, format = ".3f");
  end when;
  assert(z == 0 and y == 0, "no String(x) spells k");
  when terminal() then
    assert(sampled == "0.368", "x(1) = 1/e = 0.368, but sampled = " + sampled);
  end when;
  annotation(experiment(StopTime = 1.2));
end StringOfVariable;
