// MLS 3.5, 3.6.5: the branches of an if-expression under a parameter condition may differ in
// size; the condition is evaluated when the model is compiled (as MSL's BooleanTable does for
// its table).
// EXPECT: simulate
model IfSizes
  parameter Real t[:] = {1, 2, 3};
  parameter Integer n = size(t, 1);
  parameter Real table[:, 2] = if n > 0 then [0, 0; t, t] else [0, 0];
  Real s = sum(table[:, 2]) * (1 + 0 * time);
equation
  assert(size(table, 1) == 4 and s == 6, "the first branch: 4 rows summing to 6");
end IfSizes;
