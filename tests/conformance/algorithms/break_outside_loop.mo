// MLS 3.5, 11.2.6: break is only allowed inside a loop; in an algorithm section outside one it is an
// error at the statement.
// EXPECT: error break is only allowed inside a loop (MLS 3.5, 11.2.6)
model BreakOutsideLoop
  Real x;
algorithm
  x := time;
  break;
end BreakOutsideLoop;
