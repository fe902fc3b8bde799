// MLS 3.5, 12.2 and 10.1: a function input may be an array of Strings (MSL's
// Modelica.Fluid.Utilities.checkBoundary takes a medium's substanceNames); size() and subscripts
// with values known only when the function runs read it.
// EXPECT: simulate
model StringArrayInput
  function pick
    input String names[:];
    input Integer i;
    output Integer n;
  algorithm
    n := 0;
    for k in 1:size(names, 1) loop
      if k == i and names[k] == "b" then
        n := 2;
      elseif k == i then
        n := 1;
      end if;
    end for;
  end pick;
  constant String names[:] = {"a", "b", "c"};
  Integer n = pick(names, if time < 0.5 then 1 else 2);
equation
  assert(n == (if time < 0.5 then 1 else 2), "names[i] == \"b\" only for i = 2");
end StringArrayInput;
