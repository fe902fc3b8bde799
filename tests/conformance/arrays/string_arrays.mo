// MLS 3.5, 10.1 and 10.4 with 4.8.4: arrays of String constants and parameters, known when the
// model is compiled: an array constructor of Strings (a constant among them), `[:]` sized by the
// value, fill() of a String (of size 0 too, as MSL's media declare extraPropertiesNames), size(),
// subscripts and an array given by a modifier; attributes that are Strings computed from constants
// (quantity = "Flow." + name).
// EXPECT: simulate
model StringArrays
  model Labelled
    parameter String labels[2] = {"a", "b"};
    parameter Integer pick = 1;
    final parameter String chosen = labels[pick];
  end Labelled;
  constant String base = "water";
  constant String names[:] = {base, "steam", "ice"};
  parameter String none[:] = fill("", 0);
  parameter String twice[2] = fill("x", 2);
  parameter Integer n = size(names, 1);
  type Flow = Real(quantity = "Flow." + base, unit = "kg/s");
  Labelled l(labels = {"left", "right"}, pick = 2);
  Flow x(start = 1, fixed = true);
equation
  der(x) = -n*x;
  assert(names[1] == "water" and names[n] == "ice" and names[3] + twice[2] == "icex" and size(none, 1) == 0,
    "names: " + names[1] + ", " + names[n]);
  assert(l.chosen == "right" and l.labels[1] == "left", "the modified labels: " + l.chosen);
  assert(abs(x - exp(-3*time)) < 1e-5, "n = size(names, 1) = 3");
  annotation(experiment(StopTime = 1));
end StringArrays;
