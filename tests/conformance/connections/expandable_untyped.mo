// MLS 3.5, 9.1.3: an element added to an expandable connector takes the type of the other end;
// connecting two elements that neither bus declares gives neither a type.
// EXPECT: error nor 'b.y' exists, so neither gives the other its type
model ExpandableUntyped
  expandable connector Bus
  end Bus;
  Bus a, b;
equation
  connect(a.x, b.y);
end ExpandableUntyped;
