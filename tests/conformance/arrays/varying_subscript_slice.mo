// MLS 3.5, 10.5: a subscript that changes at events selects, with `:` for the other dimensions,
// a row of an array (as MSL's SVPWM picks its switching pattern `fire[ka + 1, :]`).
// EXPECT: simulate
model VaryingSubscriptSlice
  constant Boolean fire[3, 2] = [true, false; false, true; true, true];
  parameter Real table[3, 2] = [1, 2; 3, 4; 5, 6];
  Integer k = min(integer(3 * time), 2) "0, 1, 2 over thirds of the run";
  Boolean row[2] = fire[k + 1, :];
  Real values[2] = table[k + 1, :];
  Real column[3] = table[:, 1 + integer(2 * time)];
equation
  assert(row[1] == (k <> 1) and row[2] == (k > 0), "the row of fire that k picks");
  assert(abs(values[1] - (1 + 2 * k)) < 1e-12 and abs(values[2] - (2 + 2 * k)) < 1e-12, "the row of table");
  assert(abs(column[3] - (if time < 0.5 then 5 else 6)) < 1e-12, "a column chosen in time");
  annotation(experiment(StopTime = 0.99));
end VaryingSubscriptSlice;
