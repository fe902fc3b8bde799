// x' = -x(t - 1) with x = 1 before the start (MLS 3.5, 3.7.2), and a when terminal() clause
// (3.7.2): the FMU tests' delay differential equation (tests/driver/FmuTest.cpp).
model Dde
  parameter Real tau = 1;
  Real x(start = 1, fixed = true);
  discrete Real atEnd(start = -1);
equation
  der(x) = -delay(x, tau);
  when terminal() then
    atEnd = x;
  end when;
end Dde;
