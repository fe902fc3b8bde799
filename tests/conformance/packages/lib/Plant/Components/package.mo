within Plant;
package Components
  model Environment
    parameter Real T_ambient = 273.15;
  end Environment;
  partial model PartialHeater
    input Plant.Mode mode;
    output Real Q "W";
  end PartialHeater;
end Components;
