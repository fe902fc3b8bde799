// MLS 3.5, 3.8.3 and 4.8.4: String variables are discrete-time variables. They take values in
// when-clauses of equations and algorithms and by equations that change only at events (a binding
// under a condition on an Integer), start from their start value ("" by default), and have pre()
// and change(); their texts compare, concatenate, go to functions and make messages.
// EXPECT: simulate
model Phases
  function tag
    input String prefix;
    input Integer n;
    output String s = prefix + "#" + String(n);
  end tag;
  Real x(start = 1, fixed = true);
  String phase(start = "start");
  String name = if n > 1 then tag("late", n) else tag("early", n);
  String history;
  Integer n(start = 0);
algorithm
  when x < 0.5 then
    phase := "half";
  elsewhen x < 0.25 then
    phase := phase + " quarter";
  end when;
equation
  der(x) = -x;
  when change(phase) then
    n = pre(n) + 1;
    history = pre(history) + "/" + pre(phase);
  end when;
  assert((phase == "start") == (n == 0) and (phase == "half") == (n == 1), "phase " + phase + " with n = " + String(n));
  assert(name == tag(if n > 1 then "late" else "early", n), "name is " + name);
  assert(n > 0 or history == "" and history < "a", "a String variable starts as \"\" by default");
  assert(time < 0.7 or n >= 1, "x = e^-t crosses 1/2 at t = ln 2: " + phase);
  when terminal() then
    assert(phase == "half quarter" and n == 2 and history == "/start/half" and name == "late#2",
      "at the end: " + phase + ", " + history + ", " + name);
  end when;
  annotation(experiment(StopTime = 2));
end Phases;
