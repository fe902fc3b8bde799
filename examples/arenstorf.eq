// The Arenstorf orbit of the restricted three-body problem (Hairer, Nørsett and Wanner I, eq. (0.1),
// the problem of Hairer's driver dr_dopri5.f): a light body in the plane of the Earth (mass 1 - mu, at
// (-mu, 0)) and the Moon (mass mu, at (1 - mu, 0)), in the frame rotating with them about their centre
// of mass. y1, y2 are the position, y3 = y1', y4 = y2'. From
// y(0) = (0.994, 0, 0, -2.00158510637908252240537862224) the orbit is periodic with period
// T = 17.0652165601579625588917206249: y(T) = y(0) is the reference. Non-stiff, but it starts and ends
// 0.0063 from the Moon, where the steps must shrink sharply:
//   eqc simulate examples/arenstorf.eq --method dop853 --rtol 1e-10
model Arenstorf "Arenstorf orbit, restricted three-body problem"
  parameter Real mu = 0.012277471;
  parameter Real mup = 1 - mu "the Earth's mass";
  Real y1(start = 0.994, fixed = true), y2(start = 0, fixed = true);
  Real y3(start = 0, fixed = true), y4(start = -2.00158510637908252240537862224, fixed = true);
  Real D1 "((y1 + mu)^2 + y2^2)^(3/2), the distance to the Earth cubed";
  Real D2 "((y1 - mup)^2 + y2^2)^(3/2), the distance to the Moon cubed";
equation
  D1 = ((y1 + mu)^2 + y2^2)^(3/2);
  D2 = ((y1 - mup)^2 + y2^2)^(3/2);
  der(y1) = y3;
  der(y2) = y4;
  der(y3) = y1 + 2*y4 - mup*(y1 + mu)/D1 - mu*(y1 - mup)/D2;
  der(y4) = y2 - 2*y3 - mup*y2/D1 - mu*y2/D2;
  annotation(experiment(StopTime = 17.0652165601579625588917206249, Tolerance = 1e-6));
end Arenstorf;
