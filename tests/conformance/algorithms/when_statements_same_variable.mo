// MLS 3.5, 11.1.2 and 11.2.7: the when-statements of one algorithm section may assign the same
// variable; at an event they run in their order, each reading what the earlier ones assigned
// (MSL's RadioButtonSource: `when pre_reset then on := false; end when; when change(table.y)
// then on := true; end when;`). Two when-equations giving one variable stay an error.
// EXPECT: simulate
model WhenStatementsSameVariable
  Boolean on(start = false, fixed = true);
  Integer count(start = 0, fixed = true);
algorithm
  when time >= 1 then
    on := true;
    count := count + 1;
  end when;
  when time >= 2 then
    on := false;
    count := count + 10;
  end when;
  when time >= 3 then
    on := true;
  end when;
  when {time >= 4, time >= 4.5} then
    count := 2 * count; // reads what the earlier statements left
  end when;
equation
  assert(on == (time >= 1 and time < 2 or time >= 3) or abs(time - floor(time + 0.5)) < 1e-6, "on");
  assert(count == (if time < 1 then 0 elseif time < 2 then 1 elseif time < 4 then 11 elseif time < 4.5 then 22 else 44)
         or abs(time - floor(time + 0.5)) < 1e-6 or abs(time - 4.5) < 1e-6, "count");
  annotation(experiment(StopTime = 5));
end WhenStatementsSameVariable;
