// MLS 3.5, 10.5 and 4.4.4: a parameter's value cannot depend on a subscript that changes in time
// (the parameter would change); the subscript is reported at its place.
// EXPECT: error 'k' is a time-varying variable and cannot be used in a parameter value
model VaryingSubscriptInParameter
  parameter Real a[3] = {1, 2, 3};
  Integer k = if time < 1 then 1 else 2;
  Real y = a[k];
  parameter Real p = a[k];
end VaryingSubscriptInParameter;
