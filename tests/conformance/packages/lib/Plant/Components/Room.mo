within Plant.Components;
model Room
  outer Environment env;
  parameter Real C = 1e5 "J/K";
  parameter Real G = 50 "W/K";
  input Real Q;
  Real T(start = 283.15, fixed = true);
equation
  C * der(T) = Q - G * (T - env.T_ambient);
  assert(T < 330, "the room overheats: T = " + String(T));
end Room;
