// MLS 3.5, 4.4.5: a disabled conditional component may only be named in connect().
// EXPECT: error 'r' is a conditional component whose condition is false
model Bad
  model Res
    parameter Real R = 1;
  end Res;
  parameter Boolean useR = false;
  Res r if useR;
  Real x = r.R;
end Bad;
