// RUN: check
model IfEquationBranches "an if-equation whose branches have different numbers of equations"
  Real x(start = 1, fixed = true);
  Real y, z;
equation
  der(x) = -y;
  if x > 0.5 then
    y = x;
    z = 0;
  else
    y = 2*x;
  end if;
end IfEquationBranches;
