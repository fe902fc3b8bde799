// MLS 3.5, 5.6 and 4.5.1: a short function class inherited from a base names its base function as
// the base sees it, even where the class that inherits it cannot (MSL's pumps inherit
// `function efficiencyCharacteristic = PumpCharacteristics.constantEfficiency(...)` from
// Machines.BaseClasses.PartialPump, where PumpCharacteristics is).
// EXPECT: simulate
// ARGS: --model InheritedShortFunction.Pump
package InheritedShortFunction
  package BaseClasses
    package Characteristics
      function scaled
        input Real x;
        input Real k = 1;
        output Real y;
      algorithm
        y := k*x;
      end scaled;
    end Characteristics;
    partial model PartialPump
      replaceable function characteristic = Characteristics.scaled(k = 3);
      Real y = characteristic(time);
    end PartialPump;
  end BaseClasses;
  model Pump
    extends BaseClasses.PartialPump;
  equation
    assert(abs(y - 3*time) < 1e-12, "the inherited characteristic");
  end Pump;
end InheritedShortFunction;
