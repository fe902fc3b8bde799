// MLS 3.5, 8.3.5: the equations of a when-equation are equations, solved together when it fires:
// an equation reads the values the others give at the event (b and c below see the new a, in
// whatever order they are written), while pre() reads the values before it. The next event
// time is computed from the new value (as MSL's CombiTimeTable computes its next time event).
// 11.2.7 differs for algorithms: a when-statement's assignments read the values before them.
// EXPECT: simulate
model WhenEquationsTogether
  discrete Real a(start = 0, fixed = true);
  discrete Real b(start = 0, fixed = true);
  discrete Real c(start = 0, fixed = true);
  discrete Real next(start = 0, fixed = true);
  discrete Real x(start = 0, fixed = true);
  discrete Real y(start = 0, fixed = true);
equation
  when {time >= pre(next), initial()} then
    c = 2 * b;         // reads b, which reads a
    b = a + 10;
    a = pre(a) + 1;
    next = 0.5 * a;    // events at t = 0.5, 1, 1.5, ...
  end when;
  assert(b == a + 10 and c == 2 * b, "the when-equation's equations hold together");
  assert(a == 1 + floor(2 * time + 1e-9), "one firing per half second");
algorithm
  when time >= 0.25 then
    y := x;            // the value before the next statement
    x := x + 1;
  end when;
equation
  assert(time < 0.25 or (x == 1 and y == 0), "a when-statement reads the values before it");
  annotation(experiment(StopTime = 2));
end WhenEquationsTogether;
