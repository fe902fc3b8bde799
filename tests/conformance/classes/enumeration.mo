// MLS 3.5, 4.8.5: enumeration types: literals, a variable of the type, arrays indexed by it,
// for-loops over it, Integer(), min/max, comparison, String() of a value.
// EXPECT: simulate
model Gearbox
  type Gear = enumeration(first "1st", second, third);
  parameter Real ratio[Gear] = {3.5, 2.1, 1.3};
  Gear gear;
  Real speed(start = 0, fixed = true);
  Real sumRatios;
equation
  gear = if time < 1 then Gear.first elseif time < 2 then Gear.second else Gear.third;
  der(speed) = if gear == Gear.first then ratio[Gear.first] elseif gear == Gear.second then ratio[2] else ratio[3];
  sumRatios = sum(ratio[g] for g in Gear);
  assert(abs(sumRatios - 6.9) < 1e-12 and Integer(max(Gear)) == 3 and min(Gear) == Gear.first, "literals");
  assert(gear <> Gear.third or speed > 5.5, "gear " + String(gear) + " at speed " + String(speed));
  annotation(experiment(StopTime = 3, Interval = 0.25));
end Gearbox;
