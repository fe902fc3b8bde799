within Plant.Components;
model Heater "power by mode"
  extends PartialHeater;
  parameter Real Q_max = 2000;
algorithm
  Q := 0;
  if mode == Plant.Mode.eco then
    Q := Q_max / 2;
  elseif mode == Plant.Mode.full then
    Q := Q_max;
  end if;
end Heater;
