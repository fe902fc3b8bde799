// MLS 3.5, 9.1.3: an expandable connector may be connected only to an expandable connector.
// EXPECT: error an expandable connector connects only to an expandable connector
model ExpandableToPlain
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  expandable connector Bus
  end Bus;
  Bus bus;
  Pin p;
equation
  p.v = 1;
  connect(bus, p);
end ExpandableToPlain;
