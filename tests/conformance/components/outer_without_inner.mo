// MLS 3.5, 5.4: an outer element needs an inner one in an enclosing instance.
// EXPECT: error no 'inner Real T' in an enclosing instance for this outer element of 'h'
model House
  model Heater
    outer Real T;
    Real q;
  equation
    q = 20 - T;
  end Heater;
  Heater h;
end House;
