// MLS 3.5, 11.2.6: break ends the innermost for-loop of an algorithm section; statements after it in
// the loop, and later iterations, do not run. The loop's condition changes in time: the index and the
// sum are the values the first matching iteration leaves.
// EXPECT: simulate
model BreakInModel
  parameter Real a[5] = {3, 1, 4, 1, 5};
  Real s;
  Integer first;
algorithm
  s := 0;
  first := 0;
  for i in 1:5 loop
    if a[i] > 2 + time then
      first := i;
      break;
    end if;
    s := s + a[i];
  end for;
equation
  assert(first == (if time < 1 then 1 elseif time < 2 then 3 elseif time < 3 then 5 else 0), "first index above 2 + time");
  assert(abs(s - (if time < 1 then 0 elseif time < 2 then 4 elseif time < 3 then 9 else 14)) < 1e-12, "sum before it");
  annotation(experiment(StopTime = 4));
end BreakInModel;
