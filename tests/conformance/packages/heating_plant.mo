// MLS 3.5, chapters 4, 5, 7, 8, 11, 12.6 and 13 together, as a model written for another tool
// uses them: a file `within Plant.Examples;` of a package-directory library, an enumeration, a
// record parameter, a replaceable component redeclared, inner/outer, an algorithm section with a
// when-statement, and assertions; the controller keeps the room within its band.
// ARGS: --lib {dir}/lib --model Plant.Examples.Checked
// EXPECT: simulate
within Plant.Examples;
model HeatingPlant
  import Plant.Components.*;
  inner Environment env(T_ambient = 263.15);
  parameter Plant.Settings settings = Plant.Settings(setpoint = 293.15, band = 2);
  Room room;
  replaceable PartialHeater heater constrainedby PartialHeater;
  Plant.Mode mode(start = Plant.Mode.full);
  Integer switches(start = 0);
equation
  room.Q = heater.Q;
  heater.mode = mode;
algorithm
  when room.T > settings.setpoint + settings.band then
    mode := Plant.Mode.off;
    switches := pre(switches) + 1;
  elsewhen room.T < settings.setpoint - settings.band then
    mode := Plant.Mode.eco;
    switches := pre(switches) + 1;
  end when;
equation
  assert(time < 5000 or abs(room.T - settings.setpoint) < settings.band + 0.5,
         "T = " + String(room.T) + " in mode " + String(mode));
  annotation(experiment(StopTime = 20000, Interval = 100));
end HeatingPlant;

model Checked "the plant with its heater given"
  extends HeatingPlant(redeclare Plant.Components.Heater heater(Q_max = 3000));
equation
  assert(time < 1000 or switches >= 1, "the controller switched");
  annotation(experiment(StopTime = 20000, Interval = 100));
end Checked;
