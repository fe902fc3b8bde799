// MLS 3.5, 11.1 and 11.2: an algorithm section is one block: assignments in order, if and for
// statements, a variable read before it is assigned has its start value (11.1.2).
// EXPECT: simulate
model Limiter
  Real u, y, squares, counter(start = 10);
algorithm
  u := 2 * sin(time);
  y := u;
  if y > 1 then
    y := 1;
  elseif y < -1 then
    y := -1;
  end if;
  squares := 0;
  for i in 1:4 loop
    squares := squares + i^2;
  end for;
  counter := counter + 1;
  assert(abs(y - max(-1, min(1, 2 * sin(time)))) < 1e-12 and squares == 30 and counter == 11, "algorithm");
  annotation(experiment(StopTime = 6));
end Limiter;
