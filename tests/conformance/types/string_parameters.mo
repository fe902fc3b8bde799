// MLS 3.5, 3.4.2 and 4.8.4: String parameters and constants, concatenation, comparison and
// if-expressions of Strings known at compilation, String() in messages.
// EXPECT: simulate
model Tanks
  model Tank
    parameter String name = "tank";
    parameter String size = if name == "big" then "large" else "small";
    constant String unit = "m";
    Real h(start = 1, fixed = true);
  equation
    der(h) = if size == "large" then -0.1 else -0.2;
    assert(h > 0.5, name + " (" + size + ") below 0.5 " + unit + ": h = " + String(h));
  end Tank;
  Tank a(name = "big"), b;
equation
  assert(abs(a.h - (1 - 0.1 * time)) < 1e-9 and abs(b.h - (1 - 0.2 * time)) < 1e-9, "the sizes chosen by name");
  annotation(experiment(StopTime = 2));
end Tanks;
