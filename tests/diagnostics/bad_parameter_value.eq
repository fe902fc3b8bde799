// RUN: simulate -o bad_parameter_value.csv
model BadParameter
  parameter Real q = -1;
  parameter Real p = sqrt(q) "NaN at run time";
  Real x(start = 1);
equation
  der(x) = -p*x;
end BadParameter;
