// MLS 3.5, 9.1.3: an element of an expandable connector is named in an equation; eqc requires
// the connector class to declare it (elements added by connect() are not visible there).
// EXPECT: error which does not declare 'w'
model ExpandableUndeclaredRead
  connector RealOutput = output Real;
  expandable connector Bus
  end Bus;
  block Source
    RealOutput y = time;
  end Source;
  Bus bus;
  Source s;
  Real z;
equation
  connect(s.y, bus.w);
  z = bus.w;
end ExpandableUndeclaredRead;
