// RUN: check
model DiscreteErrors "discrete variables: defined twice, never defined, pre() outside when-clauses"
  Real x(start = 1, fixed = true);
  Integer count(start = 0);
  Boolean flag;
  Real level;
  Real y;
equation
  der(x) = -x;
  when x < 0.5 then
    count = pre(count) + 1;
  end when;
  when x < 0.2 then
    count = pre(count) + 10;
  end when;
  y = pre(x);
  level = x;
end DiscreteErrors;
