// MLS 3.5, 8.3.4 and 8.3.1: a Boolean equation in a branch of an if-equation still gives a Boolean
// variable alone on one side, the same one in every branch.
// EXPECT: error equation 1 of this if-equation's branches is Boolean: each branch must give the same Boolean variable alone on one side
model IfEquationBooleanMixed
  Boolean d = time > 0.5;
  Boolean y, z;
equation
  if d then
    y = time > 1;
  else
    z = time > 0.2;
  end if;
  z = not y;
end IfEquationBooleanMixed;
