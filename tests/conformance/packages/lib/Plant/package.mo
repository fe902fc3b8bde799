within;
package Plant "a heating plant, written as for any Modelica tool"
  type Mode = enumeration(off "no heating", eco "half power", full "full power");
  record Settings
    parameter Real setpoint = 293.15 "K";
    parameter Real band = 1 "K";
  end Settings;
end Plant;
